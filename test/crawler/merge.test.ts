import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../crawler/builtins.js';
import { indexSegments } from '../../crawler/index/tool.js';
import { merge, mergeShards, shardOf } from '../../crawler/merge.js';
import { currentIndex } from '../../shared/index/publish.js';
import { openIndex } from '../../shared/index/reader.js';
import { IndexWriter } from '../../shared/index/writer.js';
import { makeCrawl, writeSegment, writeWebDb } from '../fixtures/crawlstore.js';
import { indexFiles } from '../fixtures/index-files.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

test('a changed page re-crawled appears only in its new version', async () => {
  const crawl = makeCrawl();
  try {
    const s1 = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), [
      { url: 'http://a.test/status', title: 'Status', text: 'the service is degraded today' },
      { url: 'http://a.test/about', title: 'About', text: 'about this service' },
    ]);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [s1] });
    const g1 = await merge(crawl.conf, { index: crawl.index, segments: [s1] });
    let r = await openIndex(crawl.index);
    assert.is(r.candidates(r.analyzer.terms('degraded'), { limit: 10 }).length, 1);

    const s2 = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 2)), [{ url: 'http://a.test/status', title: 'Status', text: 'the service is operational again' }]);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [s2] });
    // No dedup run in between: merge itself keeps only the newest copy of a URL.
    const g2 = await merge(crawl.conf, { index: crawl.index, segments: [s1, s2] });
    assert.is(g2.documents, 2);
    assert.is(g2.duplicates, 1);
    assert.is.not(g2.generation, g1.generation);
    r = await openIndex(crawl.index);
    assert.equal(r.candidates(r.analyzer.terms('degraded'), { limit: 10 }), []);
    const hit = r.candidates(r.analyzer.terms('operational'), { limit: 10 });
    assert.is(hit.length, 1);
    assert.is(r.doc(hit[0]!).segment, path.basename(s2));
    assert.is(r.docFreq('content', r.analyzer.term('service')!), 2, 'global statistics count each page once');
    assert.equal(r.meta.segments, [path.basename(s1), path.basename(s2)]);
  } finally {
    crawl.cleanup();
  }
});

const words = 'crawler fetcher segment index merge search ranking anchor title body link host page query token'.split(' ');
function prose(i: number, n: number): string {
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(words[(i * 7 + k * 13 + ((k * k) % 11)) % words.length]! + (k % 17 === 0 ? String(i) : ''));
  return out.join(' ');
}

test('merge -shards: each shard is the index a merge of only its URLs builds', async () => {
  const crawl = makeCrawl();
  try {
    const pages = Array.from({ length: 60 }, (_, i) => ({ url: `http://${i % 2 ? 'a' : 'b'}.test/p${i}`, title: `Page ${i}`, text: prose(i, 80) }));
    // The second segment re-crawls ten pages of the first: their older copies stay out of every shard.
    const segments = [await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), pages.slice(0, 40)), await writeSegment(crawl, new Date(Date.UTC(2024, 0, 2)), pages.slice(30))];
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments });
    const shards = await mergeShards(crawl.conf, { index: path.join(crawl.dir, 'shards'), segments }, 3);
    assert.is(shards.reduce((n, s) => n + s.documents, 0), 60);
    for (const [i, shard] of shards.entries()) {
      // The same two crawls of only the shard's pages, merged whole.
      const own = makeCrawl();
      try {
        const mine = (p: (typeof pages)[number]) => shardOf(p.url, 3) === i;
        const ownSegments = [await writeSegment(own, new Date(Date.UTC(2024, 0, 1)), pages.slice(0, 40).filter(mine)), await writeSegment(own, new Date(Date.UTC(2024, 0, 2)), pages.slice(30).filter(mine))];
        await indexSegments(own.conf, { webdb: own.webdb, segments: ownSegments });
        const alone = await merge(own.conf, { index: own.index, segments: ownSegments });
        assert.ok(alone.documents > 0);
        assert.equal(await indexFiles(shard.dir), await indexFiles(alone.dir), `shard ${i}`);
      } finally {
        own.cleanup();
      }
    }
  } finally {
    crawl.cleanup();
  }
});

test('merge copies each document\'s entries: the files a writer given the documents as analyzed() reads them back writes', async () => {
  const crawl = makeCrawl();
  try {
    const pages = Array.from({ length: 700 }, (_, i) => ({ url: `http://${i % 2 ? 'a' : 'b'}.test/p${i}`, title: `Page ${i} ${words[i % words.length]}`, text: prose(i, 40 + (i % 90)) }));
    const segments = [await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), pages.slice(0, 600)), await writeSegment(crawl, new Date(Date.UTC(2024, 0, 2)), pages.slice(550))];
    writeWebDb(crawl, [], [{ target: pages[3]!.url, source: 'http://c.test/', anchor: 'fetcher guide' }, { target: pages[3]!.url, source: 'http://d.test/', anchor: 'anchor page guide' }]);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments });
    // Merged elsewhere than the crawl's own index, the segment indexes stay whole, to be read below.
    const merged = await merge(crawl.conf, { index: path.join(crawl.dir, 'merged'), segments });
    assert.is(merged.duplicates, 50);
    // The same documents, the re-crawled ones in their newest copy, through the writer's token-stream path.
    const indexes = await Promise.all(segments.map((s) => openIndex(path.join(s, 'index'))));
    const writer = new IndexWriter({ analyzer: indexes[0]!.analyzer, segments: segments.map((s) => path.basename(s)) });
    indexes.forEach((r, k) => {
      for (let id = 0; id < r.meta.docCount; id++) if (k === 1 || id < 550) writer.addAnalyzed(r.analyzed(id));
    });
    const dir = path.join(crawl.dir, 'by-streams');
    await writer.write(dir);
    assert.equal(await indexFiles(merged.dir), await indexFiles(dir));
  } finally {
    crawl.cleanup();
  }
});

test('SIGKILL during merge leaves the previous index intact', async () => {
  const crawl = makeCrawl();
  try {
    const pages = Array.from({ length: 1500 }, (_, i) => ({ url: `http://a.test/p${i}`, title: `Page ${i}`, text: prose(i, 400) }));
    const s1 = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), pages.slice(0, 10));
    const s2 = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 2)), pages);
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [s1, s2] });
    const g1 = await merge(crawl.conf, { index: crawl.index, segments: [s1] });
    assert.is(g1.documents, 10);

    let killedMidway = false;
    for (let attempt = 0; attempt < 3 && !killedMidway; attempt++) {
      const child = spawn(process.execPath, [path.join(ROOT, 'crawler', 'hazelnut.js'), 'merge', crawl.index, '-dir', crawl.segments], { stdio: 'ignore' });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const deadline = Date.now() + 30_000;
      try {
        while (Date.now() < deadline && child.exitCode === null) {
          if (fs.readdirSync(crawl.index).some((n) => n.startsWith('.tmp-'))) {
            child.kill('SIGKILL');
            killedMidway = true;
            break;
          }
          await new Promise((r) => setTimeout(r, 2));
        }
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        await exited;
      }
      if (!killedMidway) break;
    }
    assert.ok(killedMidway, 'the merge was killed while building its new generation');
    assert.is(currentIndex(crawl.dir)?.generation, g1.generation, 'CURRENT still names the old generation');
    const r = await openIndex(crawl.index);
    assert.is(r.meta.docCount, 10);
    assert.is(r.candidates(r.analyzer.terms('crawler'), { limit: 100 }).length > 0, true, 'the old index still answers');
    assert.ok(fs.readdirSync(crawl.index).some((n) => n.startsWith('.tmp-')), 'the killed build left only a temporary directory');

    const g2 = await merge(crawl.conf, { index: crawl.index, segments: [s1, s2] });
    assert.is(g2.documents, 1500);
    assert.not.ok(fs.readdirSync(crawl.index).some((n) => n.startsWith('.tmp-')), 'the next merge removes the leftovers');
    assert.is((await openIndex(crawl.index)).meta.docCount, 1500);
  } finally {
    crawl.cleanup();
  }
});

test.run();
