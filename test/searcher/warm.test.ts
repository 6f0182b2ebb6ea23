/**
 * The warm-up: its term, the one in the most documents' text, found from the df column as a lookup of every
 * term by name finds it; and its summaries, warmed once the searcher listens, not before, so it answers
 * meanwhile, and answers a query as it does once they are warm.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { openIndex, type LoadedIndex } from '../../shared/index/reader.js';
import { startSearcher } from '../../searcher/server.js';
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

/** This process's open files in the crawl's segments (the summaries' SQLite files): none until a summary is read. */
function openSegmentFiles(): number {
  const segments = path.join(dir, 'segments');
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd'))
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(segments)) n++;
    } catch {
      // Closed meanwhile (the listing's own descriptor).
    }
  return n;
}

test('the searcher listens before the summaries are warmed; /healthz and a query meanwhile are answered, the query as once warm', async () => {
  const s = await startSearcher(Conf.load(), { dir, port: 0, host: '127.0.0.1' });
  try {
    assert.is(openSegmentFiles(), 0, 'no summary was read before it listened');
    const query = `${s.url}/api/search?query=${encodeURIComponent(commonestTerm({ reader })!)}`;
    const [health, during] = await Promise.all([fetch(`${s.url}/healthz`), fetch(query).then((r) => r.json())]);
    assert.is(health.status, 200);
    await s.warmed;
    assert.ok(openSegmentFiles() > 0, 'the warm-up read the hits’ summaries');
    const after = await fetch(query).then((r) => r.json());
    assert.ok(during.hits.length > 1 && during.hits.some((h: { summary?: unknown }) => h.summary), 'the query has hits with summaries');
    assert.equal(during.hits, after.hits);
  } finally {
    await s.close();
  }
});

test.run();
