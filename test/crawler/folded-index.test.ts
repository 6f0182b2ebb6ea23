import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../crawler/builtins.js';
import { dedup } from '../../crawler/dedup.js';
import { FOLDED_FILE, isFolded } from '../../crawler/folded-index.js';
import { indexSegments } from '../../crawler/index/tool.js';
import { merge, mergeShards } from '../../crawler/merge.js';
import { currentIndex } from '../../shared/index/publish.js';
import { openIndex } from '../../shared/index/reader.js';
import { SUMMARIES_FILE } from '../../segments/summaries.js';
import { makeCrawl, writeSegment, type Crawl } from '../fixtures/crawlstore.js';
import { indexFiles } from '../fixtures/index-files.js';

const words = 'crawler fetcher segment index merge search ranking anchor title body link host page query token'.split(' ');
const page = (i: number, v = 0) => ({
  url: `http://${i % 2 ? 'a' : 'b'}.test/p${i}`,
  title: `Page ${i} ${words[i % words.length]}`,
  text: Array.from({ length: 30 + (i % 40) }, (_, k) => words[(i * 7 + k * 13 + v) % words.length]! + (k % 9 === 0 ? `${i}v${v}` : '')).join(' '),
});
const day = (d: number) => new Date(Date.UTC(2024, 0, d));
const range = (a: number, b: number, v = 0) => Array.from({ length: b - a }, (_, k) => page(a + k, v));

/** Three rounds of a crawl: pages 0–39, then 30–59 (ten re-crawled), then 50–69 changed (ten re-crawled). */
async function rounds(crawl: Crawl): Promise<string[]> {
  return [await writeSegment(crawl, day(1), range(0, 40)), await writeSegment(crawl, day(2), range(30, 60)), await writeSegment(crawl, day(3), range(50, 70, 1))];
}

test('a merge into the crawl\'s index folds the segment indexes, and the next merge takes their pages from it: the index a merge of whole segment indexes builds', async () => {
  const crawl = makeCrawl();
  const whole = makeCrawl();
  try {
    const segs = await rounds(crawl);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: segs.slice(0, 2) });
    const first = await merge(crawl.conf, { index: crawl.index, segments: segs.slice(0, 2) });
    assert.is(first.documents, 60);
    for (const s of segs.slice(0, 2)) {
      assert.ok(isFolded(s));
      assert.equal(fs.readdirSync(path.join(s, 'index')).sort(), [FOLDED_FILE, SUMMARIES_FILE], 'only what the searcher reads stays');
    }
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [segs[2]!] });
    const second = await merge(crawl.conf, { index: crawl.index, segments: segs });
    assert.is(second.documents, 70);
    assert.is(second.duplicates, 10, 'the changed pages\' older copies, in the previous index');
    assert.ok(isFolded(segs[2]!));

    // The same rounds in a crawl whose segment indexes stay whole (merged elsewhere).
    const wsegs = await rounds(whole);
    await indexSegments(whole.conf, { webdb: whole.webdb, segments: wsegs });
    const ref = await merge(whole.conf, { index: path.join(whole.dir, 'elsewhere'), segments: wsegs });
    assert.not.ok(wsegs.some(isFolded), 'a merge into another index folds nothing');
    assert.equal(await indexFiles(second.dir), await indexFiles(ref.dir));
    const r = await openIndex(crawl.index);
    try {
      assert.is(r.doc(r.idOf(page(55).url)!).segment, path.basename(segs[2]!), 'the changed page in its new copy only');
      assert.is(r.doc(r.idOf(page(5).url)!).segment, path.basename(segs[0]!), 'a page of the first round, from the previous index');
    } finally {
      r.close();
    }
    // Shards take the folded segments' pages from the crawl's index too, and together hold what it holds.
    const shards = await mergeShards(crawl.conf, { index: path.join(crawl.dir, 'shards'), segments: segs }, 2);
    assert.is(shards[0]!.documents + shards[1]!.documents, 70);
  } finally {
    crawl.cleanup();
    whole.cleanup();
  }
});

test('a segment indexed again after its pages were merged (or a merge killed before folding it) is read from its own index, its pages once', async () => {
  const crawl = makeCrawl();
  try {
    const segs = await rounds(crawl);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: segs });
    await merge(crawl.conf, { index: crawl.index, segments: segs });
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [segs[1]!] });
    assert.not.ok(isFolded(segs[1]!));
    const d = await dedup(crawl.conf, { segments: segs });
    assert.is(d.documents, 80, 'the folded segments\' 50 live pages and the whole segment\'s 30');
    assert.ok(fs.existsSync(path.join(segs[1]!, 'index', 'deleted')), 'the whole segment gets its deletions');
    // A fold killed after its marker: the files it had yet to remove are read by nobody, and the next fold removes them.
    fs.writeFileSync(path.join(segs[0]!, 'index', 'forward'), 'left by a killed fold');
    const again = await merge(crawl.conf, { index: crawl.index, segments: segs });
    assert.is(again.documents, 70);
    assert.ok(segs.every(isFolded));
    assert.equal(fs.readdirSync(path.join(segs[0]!, 'index')).sort(), [FOLDED_FILE, SUMMARIES_FILE]);
  } finally {
    crawl.cleanup();
  }
});

test('a merge into the crawl\'s index that leaves out a folded segment, or whose index lost its pages, is refused, naming it, and nothing is published', async () => {
  const crawl = makeCrawl();
  try {
    const segs = await rounds(crawl);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: segs.slice(0, 2) });
    await merge(crawl.conf, { index: crawl.index, segments: segs.slice(0, 2) });
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [segs[2]!] });
    const before = currentIndex(crawl.index)!.generation;
    const left = await merge(crawl.conf, { index: crawl.index, segments: segs.slice(1) }).catch((e: Error) => e);
    assert.instance(left, Error);
    assert.match((left as Error).message, new RegExp(`${path.basename(segs[0]!)}.* has its pages only in .*merge every segment`));
    assert.is(currentIndex(crawl.index)!.generation, before);
    assert.not.ok(isFolded(segs[2]!));

    fs.rmSync(crawl.index, { recursive: true });
    const lost = await merge(crawl.conf, { index: crawl.index, segments: segs }).catch((e: Error) => e);
    assert.instance(lost, Error);
    assert.match((lost as Error).message, new RegExp(`segment ${path.basename(segs[0]!)}, ${path.basename(segs[1]!)}: .*folded .*which holds no index; index the segment again`));
    assert.not.ok(currentIndex(crawl.index));
  } finally {
    crawl.cleanup();
  }
});

test.run();
