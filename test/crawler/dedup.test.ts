import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../crawler/builtins.js';
import { dedup } from '../../crawler/dedup.js';
import { duplicates, type DedupEntry } from '../../crawler/dedup-rule.js';
import { indexSegments } from '../../crawler/index/tool.js';
import { merge } from '../../crawler/merge.js';
import { openIndex } from '../../shared/index/reader.js';
import fs from 'node:fs';
import { makeCrawl, writeSegment } from '../fixtures/crawlstore.js';

const e = (url: string, digest: string, boost: number, tstamp: number): DedupEntry => ({ url, digest, boost, tstamp });
const A = 'http://a.test/page';
const B = 'http://b.test/p';
const LONG = 'http://a.test/a/much/longer/path';

// [case, entries, keepHighestScore, expected deletions as index → reason]
const TABLE: [string, DedupEntry[], boolean, [number, string][]][] = [
  ['distinct pages stay', [e(A, 'x', 1, 1), e(B, 'y', 1, 1)], true, []],
  ['same URL: the newest fetch stays', [e(A, 'x', 1, 2), e(A, 'y', 1, 1)], true, [[1, 'url']]],
  ['same URL: newer later segment stays', [e(A, 'x', 1, 1), e(A, 'y', 1, 2)], true, [[0, 'url']]],
  ['same URL, same time: the later segment stays', [e(A, 'x', 1, 5), e(A, 'x', 1, 5)], true, [[0, 'url']]],
  ['same URL three times', [e(A, 'x', 1, 1), e(A, 'y', 1, 3), e(A, 'z', 1, 2)], true, [[0, 'url'], [2, 'url']]],
  ['same digest: highest boost stays', [e(A, 'x', 1, 1), e(LONG, 'x', 2, 1)], true, [[0, 'digest']]],
  ['same digest: equal boosts, shortest URL stays', [e(LONG, 'x', 1, 1), e(A, 'x', 1, 1)], true, [[0, 'digest']]],
  ['same digest, keepHighestScore off: shortest URL stays', [e(A, 'x', 1, 1), e(LONG, 'x', 9, 1)], false, [[1, 'digest']]],
  ['same digest, same length: first in URL order stays', [e('http://a.test/b', 'x', 1, 1), e('http://a.test/a', 'x', 1, 1)], true, [[0, 'digest']]],
  ['empty digests never match', [e(A, '', 1, 1), e(B, '', 1, 1)], true, []],
  ['URL first, then digest among the kept', [e(A, 'x', 5, 1), e(A, 'y', 2, 2), e(B, 'y', 1, 1)], true, [[0, 'url'], [2, 'digest']]],
  ['an older copy deleted by URL does not take part by digest', [e(B, 'x', 1, 1), e(A, 'x', 9, 1), e(A, 'z', 1, 2)], true, [[1, 'url']]],
];

for (const [name, entries, keep, want] of TABLE)
  test(`dedup rule: ${name}`, () => {
    const got = [...duplicates(entries, keep)].sort((a, b) => a[0] - b[0]);
    assert.equal(got, want);
  });

test('dedup tool: same URL in two segments and identical content at two URLs; twice changes nothing', async () => {
  const crawl = makeCrawl();
  try {
    const s1 = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), [
      { url: 'http://a.test/news', title: 'News', text: 'old news about the crawler' },
      { url: 'http://a.test/copy', title: 'Copy', text: 'the very same words' },
      { url: 'http://a.test/copy-of-the-copy', title: 'Copy', text: 'the very same words' },
    ]);
    const s2 = await writeSegment(crawl, new Date(Date.UTC(2024, 1, 1)), [{ url: 'http://a.test/news', title: 'News', text: 'fresh news about the crawler' }]);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [s1, s2] });
    const first = await dedup(crawl.conf, { segments: [s1, s2] });
    assert.equal(first, { segments: 2, documents: 4, byUrl: 1, byDigest: 1, changed: 1 });
    const deleted = path.join(s1, 'index', 'deleted');
    const bytes = fs.readFileSync(deleted);
    const mtime = fs.statSync(deleted).mtimeMs;
    const second = await dedup(crawl.conf, { segments: [s1, s2] });
    assert.equal(second, { ...first, changed: 0 });
    assert.ok(fs.readFileSync(deleted).equals(bytes));
    assert.is(fs.statSync(deleted).mtimeMs, mtime);
    const r1 = await openIndex(path.join(s1, 'index'));
    assert.ok(r1.isDeleted(r1.idOf('http://a.test/news')!));
    assert.ok(r1.isDeleted(r1.idOf('http://a.test/copy-of-the-copy')!));
    assert.not.ok(r1.isDeleted(r1.idOf('http://a.test/copy')!));
    const m = await merge(crawl.conf, { index: crawl.index, segments: [s1, s2] });
    assert.is(m.documents, 2);
    const r = await openIndex(crawl.index);
    assert.equal([0, 1].map((i) => r.doc(i).url).sort(), ['http://a.test/copy', 'http://a.test/news']);
    assert.is(r.doc(r.idOf('http://a.test/news')!).segment, path.basename(s2));
    assert.equal(r.candidates(r.analyzer.terms('words'), { limit: 10 }).length, 1, 'identical content gives one document');
  } finally {
    crawl.cleanup();
  }
});

test.run();
