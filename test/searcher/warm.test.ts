/**
 * The searcher's warm-up: before it serves, a term in few documents; after,
 * the commonest term's scores, between requests. The warm-up term is the
 * one a lookup of every term by name finds; the commonest term's scores are
 * not worked out before the searcher listens (what grows with the index
 * stays out of its start), a query before they are gets the answer it gets
 * after, and they are worked out once the warm-up is done.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { openIndex, type LoadedIndex } from '../../shared/index/reader.js';
import { unitScores } from '../../searcher/prune.js';
import { search } from '../../searcher/search.js';
import { startSearcher } from '../../searcher/server.js';
import { commonestTerm, warmTerms } from '../../searcher/warm.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';
import { PAGES } from './pages.js';

const HOST = '127.0.6.41';
let dir = '';
let reader: LoadedIndex;

test.before(async () => {
  dir = tempCrawlDir();
  await buildCrawl(dir, PAGES);
  reader = await openIndex(`${dir}/index`);
});
test.after(() => {
  reader?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const df = (t: string | undefined) => (t === undefined ? 0 : reader.docFreq('content', t));

test('commonestTerm: the first term of the highest content document frequency', () => {
  let best: string | undefined;
  for (const t of reader.terms()) if (df(t) > df(best)) best = t;
  assert.ok(best !== undefined && df(best) > 1, 'the fixture has a term in several documents');
  assert.is(commonestTerm({ reader }), best);
});

test('warmTerms: the first term of the highest content document frequency below the commonest and at most `few`', () => {
  const { commonest, few } = warmTerms({ reader });
  const under = (bound: number) => {
    let best: string | undefined;
    for (const t of reader.terms()) if (df(t) <= bound && df(t) < df(commonest) && df(t) > df(best)) best = t;
    return best;
  };
  assert.ok(few !== undefined && df(few) < df(commonest));
  assert.is(few, under(Infinity));
  assert.is(warmTerms({ reader }, 1).few, under(1));
  assert.is(warmTerms({ reader }, 0).few, undefined);
});

test('the searcher listens before the commonest term is warmed; a query meanwhile gets the answer it gets after', async () => {
  const s = await startSearcher(Conf.load(), { dir, port: 0, host: HOST });
  try {
    const snap = s.snapshots.current;
    const commonest = commonestTerm(snap)!;
    const scores = () => unitScores(snap.reader, snap.settings.rank).term(snap.reader.termId(commonest));
    assert.not.ok(scores().known(0), "the commonest term's scores are not worked out before the searcher serves");
    const health = await fetch(`${s.url}/healthz`);
    assert.is(health.status, 200);
    const before = search(snap, { query: commonest });
    await s.warming;
    assert.ok(scores().known(0), 'worked out after the start');
    const after = search(snap, { query: commonest });
    assert.ok(before.hits.length > 1);
    assert.equal(
      before.hits.map((h) => [h.doc.url, h.score]),
      after.hits.map((h) => [h.doc.url, h.score]),
    );
    assert.is(before.total, after.total);
  } finally {
    await s.close();
  }
});

test.run();
