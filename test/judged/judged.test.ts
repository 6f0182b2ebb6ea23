import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../crawler/builtins.js';
import { openIndex } from '../../shared/index/reader.js';
import { judgedPages, pageUrl, JUDGED_HOSTS } from './corpus.js';
import { buildJudgedCrawl } from './crawl.js';
import { JUDGED_QUERIES, mrrAt10, reciprocalRank } from './queries.js';

test('judged corpus: size, hosts, duplicates, every judged answer exists', () => {
  const pages = judgedPages();
  assert.ok(pages.length >= 200 && pages.length <= 500, `${pages.length} pages`);
  const urls = new Set(pages.map((p) => pageUrl(p)));
  assert.is(urls.size, pages.length, 'URLs are unique');
  assert.equal([...new Set(pages.map((p) => p.host))].sort(), [...JUDGED_HOSTS].sort());
  const bodies = new Map<string, number>();
  for (const p of pages) bodies.set(p.body, (bodies.get(p.body) ?? 0) + 1);
  assert.ok([...bodies.values()].filter((n) => n > 1).length >= 5, 'exact duplicates are present');
  assert.ok(pages.some((p) => p.path.startsWith('/archive/')), 'near-duplicates are present');
  assert.ok(JUDGED_QUERIES.length >= 30 && JUDGED_QUERIES.length <= 50);
  for (const q of JUDGED_QUERIES) for (const r of q.relevant) assert.ok(urls.has(pageUrl(r)), `${q.q}: ${pageUrl(r)} exists`);
  // Same corpus every run.
  assert.equal(judgedPages(), pages);
});

const RR: [string[], string[], number][] = [
  [['a', 'b'], ['a'], 1],
  [['x', 'a'], ['a'], 0.5],
  [['x', 'y', 'b', 'a'], ['a', 'b'], 1 / 3],
  [[...'0123456789'.split(''), 'a'], ['a'], 0],
  [[], ['a'], 0],
];
for (const [ranked, relevant, want] of RR)
  test(`reciprocal rank of ${relevant} in ${ranked.join(',') || 'nothing'}`, () => assert.is(reciprocalRank(ranked, relevant), want));

test('mrrAt10 averages per kind and lists misses', async () => {
  const queries = JUDGED_QUERIES.slice(0, 2);
  const first = pageUrl(queries[0]!.relevant[0]!);
  const r = await mrrAt10((q) => (q === queries[0]!.q ? [first] : ['http://nowhere.test/', first]), queries);
  assert.is(r.mrr, 0.5);
  assert.equal(r.misses, [{ q: queries[1]!.q, rank: 0 }]);
});

test('judged crawl: dedup leaves one copy of each print view; candidates recall every answer', async () => {
  const crawl = await buildJudgedCrawl();
  try {
    const r = await openIndex(crawl.dir);
    const pages = judgedPages();
    assert.is(r.meta.docCount, pages.filter((p) => !p.path.startsWith('/print/')).length, 'print copies deduplicated away');
    const stop = new Set('how do i can what the a an of to in is my on with when we should because do about into one and'.split(' '));
    let found = 0;
    for (const q of JUDGED_QUERIES) {
      const terms = r.analyzer.terms(q.q).filter((t) => !stop.has(t));
      const ids = new Set(r.candidates(terms, { limit: 1000 }));
      if (q.relevant.some((rel) => ids.has(r.idOf(pageUrl(rel))!))) found++;
    }
    assert.is(found, JUDGED_QUERIES.length, 'the candidate layer finds every judged answer');
  } finally {
    crawl.cleanup();
  }
});

test.run();
