/**
 * Ranking regression on the judged query set (test/judged/): the real
 * searcher over the judged corpus, indexed as the crawler would, scored as
 * MRR@10. Floors sit a little under the measured values (1.000 overall,
 * keyword and question, with the shipped defaults), so a change that
 * costs ranking quality fails here.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { mrrAt10 } from '../judged/queries.js';
import { tempCrawlDir } from './crawl-fixture.js';
import { buildJudgedCrawl } from './judged-crawl.js';

let dir = '';
let snaps: CrawlSnapshots;

test.before(async () => {
  dir = tempCrawlDir();
  await buildJudgedCrawl(dir);
  snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()));
});
test.after(() => {
  snaps?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function mrr(conf: Conf, hitsPerSite = 0) {
  const snap = { ...snaps.current, settings: searchSettings(conf) };
  return mrrAt10((q) => search(snap, { query: q, hitsPerPage: 10, hitsPerSite }).hits.map((h) => h.doc.url));
}

test('MRR@10 with the default ranking stays above its floor', async () => {
  const r = await mrr(Conf.load());
  assert.ok(r.mrr >= 0.95, `MRR@10 ${r.mrr.toFixed(3)}; misses ${JSON.stringify(r.misses)}`);
  assert.ok(r.byKind.keyword >= 0.95, `keyword ${r.byKind.keyword.toFixed(3)}`);
  assert.ok(r.byKind.question >= 0.9, `question ${r.byKind.question.toFixed(3)}`);
  const grouped = await mrr(Conf.load(), 2);
  assert.ok(grouped.mrr >= 0.95, `with hitsPerSite 2: ${grouped.mrr.toFixed(3)}`);
});

test('the measurement can tell worse ranking apart: strict AND loses the questions', async () => {
  const strict = await mrr(Conf.load({ overrides: { 'searcher.partial.below': '0' } }));
  assert.ok(strict.byKind.question < 0.5, `strict AND on questions ${strict.byKind.question.toFixed(3)}`);
});

test.run();
