/**
 * The anchor votes over shards: a one-word query has no proximity bonus,
 * but its best pages by base score still get the naming bonus's anchor
 * votes, down to the same depth as on one searcher. A page ranked 31st by
 * BM25F, which links call by the query's word, comes first on one searcher
 * with a large vote weight; the broker over two shards must give the same
 * first page, not stop the bonuses at the section lift's depth.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FOLDED_FILE } from '../../crawler/folded-index.js';
import { Conf } from '../../shared/conf.js';
import { currentIndex } from '../../shared/index/publish.js';
import { segmentIndexDir } from '../../shared/crawl-dir.js';
import { startSearcher } from '../fixtures/searcher-process.js';
import { serveShards } from '../fixtures/sharded-search.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';

const HOST = '127.0.6.104';
const NAMED = 'http://127.0.6.101/widgets.html';
const PAGES = [
  ...Array.from({ length: 30 }, (_, i) => ({ url: `http://127.0.6.${101 + (i % 2)}/widget-${i}.html`, title: `Part ${i}`, text: `Widget part ${i}. ${'The widget turns. '.repeat(10 + i)}`, anchors: [`part ${i}`] })),
  ...Array.from({ length: 40 }, (_, i) => ({ url: `http://127.0.6.103/other-${i}.html`, title: `Other ${i}`, text: `Gears and levers, part ${i}.`, anchors: [`other ${i}`] })),
  { url: NAMED, title: 'Manual', text: 'Widget manual.', anchors: ['widget'] },
];
const VOTES = ['-D', 'searcher.naming.anchor.weight=5'];

test('a one-word query: the broker over two shards gives the page the anchor votes lift from rank 31, as one searcher does', async () => {
  const dir = tempCrawlDir();
  const stops: (() => void)[] = [];
  try {
    await buildCrawl(dir, PAGES);
    // The published index as the crawl's one segment index, whole, so merge -shards reads it as the crawler leaves it.
    const segDir = path.join(dir, 'segments', fs.readdirSync(path.join(dir, 'segments'))[0]!);
    fs.cpSync(currentIndex(path.join(dir, 'index'))!.dir, segmentIndexDir(segDir), { recursive: true });
    fs.rmSync(path.join(segmentIndexDir(segDir), FOLDED_FILE), { force: true });
    const single = await startSearcher([...VOTES, '-dir', dir, '-host', HOST, '-port', '0'], dir);
    stops.push(() => single.proc.kill('SIGKILL'));
    const sharded = await serveShards(Conf.load(), dir, 2, HOST, VOTES, VOTES);
    stops.push(() => sharded.stop());
    const top = async (base: string) => {
      const res = await fetch(`${base}/api/search?query=widget&hitsPerSite=0`, { signal: AbortSignal.timeout(30_000) });
      return ((await res.json()) as { hits: { url: string }[] }).hits.map((h) => h.url);
    };
    const one = await top(single.base);
    assert.is(one[0], NAMED, 'first on one searcher');
    assert.equal(await top(sharded.broker.base), one);
  } finally {
    for (const stop of stops) stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
