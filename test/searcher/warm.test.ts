/** The warm-up's term: the one in the most documents' text, found from the df column as a lookup of every term by name finds it. */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex, type LoadedIndex } from '../../shared/index/reader.js';
import { commonestTerm } from '../../searcher/warm.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';
import { PAGES } from './pages.js';

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

test('commonestTerm: the first term of the highest content document frequency', () => {
  let best: string | undefined;
  for (const t of reader.terms()) if (reader.docFreq('content', t) > (best === undefined ? 0 : reader.docFreq('content', best))) best = t;
  assert.ok(best !== undefined && reader.docFreq('content', best) > 1, 'the fixture has a term in several documents');
  assert.is(commonestTerm({ reader }), best);
});

test.run();
