/**
 * Merge takes the segment indexes' postings and merges them: a crawl of a
 * loopback web over several rounds (re-crawled and duplicate pages, dedup's
 * deletions) merges, and shards, into exactly the files a merge that inverts
 * every document again writes, the path a segment index written without
 * postings (an older crawl directory) still takes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../crawler/builtins.js';
import { dedup } from '../../crawler/dedup.js';
import { indexSegments } from '../../crawler/index/tool.js';
import { merge, mergeShards } from '../../crawler/merge.js';
import { Conf } from '../../shared/conf.js';
import { INDEX_FILES } from '../../shared/index/format.js';
import { openIndex } from '../../shared/index/reader.js';
import { IndexWriter } from '../../shared/index/writer.js';
import { makeCrawl, writeSegment } from '../fixtures/crawlstore.js';
import { indexFiles } from '../fixtures/index-files.js';
import { runBin } from '../fixtures/run-bin.js';
import { startTestWeb, type TestWeb } from '../fixtures/testweb.js';

const HAZELNUT = path.resolve(import.meta.dirname, '..', '..', 'crawler', 'hazelnut.js');
const COMMON = ['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0.01'];
const words = 'crawler fetcher segment index merge search ranking anchor title body link host page query token postings block'.split(' ');

const prose = (i: number, n: number) => Array.from({ length: n }, (_, k) => words[(i * 5 + k * 11 + ((k * k) % 7)) % words.length]! + (k % 13 === 0 ? String(i) : '')).join(' ');
const page = (title: string, body: string, links: string[]) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p><h2>More</h2><p>${prose(title.length, 300)}</p>${links
    .map((l) => `<a href="${l}">${l} guide</a>`)
    .join(' ')}</body></html>`;

/** A host whose home links to `n` pages (more than a block of postings over the crawl), every tenth with a copy under a second URL it links to. */
function fan(host: number, n: number): Record<string, string> {
  const pages: Record<string, string> = { '/': page(`Host ${host} home`, prose(host, 40), Array.from({ length: n }, (_, p) => `/p${p + 1}`)) };
  for (let p = 1; p <= n; p++) {
    const copy = p % 10 === 0;
    pages[`/p${p}`] = page(`Host ${host} page ${p}`, prose(host * 1000 + p, 40 + (p % 50)), copy ? [`/p${p}-copy`] : []);
    if (copy) pages[`/p${p}-copy`] = pages[`/p${p}`]!;
  }
  return pages;
}

let web: TestWeb;
let tmp: string;

test.before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-pmerge-'));
  web = await startTestWeb({ block: '127.0.47', hosts: { a: { pages: fan(0, 150) }, b: { pages: fan(1, 100) } } });
});

test.after(async () => {
  await web.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Rewrites a segment's index as a format-8 index without postings, as hazelnut wrote it before merge merged postings; its other files stay. */
async function withoutPostings(indexDir: string): Promise<void> {
  const r = await openIndex(indexDir);
  const out = `${indexDir}.bare`;
  try {
    const w = new IndexWriter({ analyzer: r.analyzer, segments: r.meta.segments, postings: false });
    const dict = r.terms();
    for (const [, stored, e] of r.docEntries()) w.addEntries(stored, { ...e, terms: e.terms.map((t) => w.termId(dict[t]!)) });
    await w.write(out);
  } finally {
    r.close();
  }
  for (const f of Object.values(INDEX_FILES)) fs.renameSync(path.join(out, f), path.join(indexDir, f));
  fs.rmSync(out, { recursive: true });
}

test('a crawl merged from its segments\' postings is the index, and the shards, that inverting every page again makes', async () => {
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${web.url('a', '/')}\n${web.url('b', '/')}\n`);
  const dir = path.join(tmp, 'crawl');
  const crawled = await runBin(HAZELNUT, [...COMMON, 'crawl', seeds, '-dir', dir, '-depth', '3']);
  assert.is(crawled.code, 0, crawled.err);
  // A changed page forced due: the next round re-crawls it, its older copy a URL duplicate.
  web.setPage('a', '/p1', page('Host 0 page 1', 'rewritten postings block merge', []));
  const changed = path.join(tmp, 'changed.txt');
  fs.writeFileSync(changed, `${web.url('a', '/p1')}\n`);
  assert.is((await runBin(HAZELNUT, [...COMMON, 'inject', path.join(dir, 'webdb'), changed, '-overwrite'])).code, 0);
  const again = await runBin(HAZELNUT, [...COMMON, 'crawl', seeds, '-dir', dir, '-depth', '1']);
  assert.is(again.code, 0, again.err);

  const segDir = path.join(dir, 'segments');
  const segments = fs.readdirSync(segDir).sort().map((s) => path.join(segDir, s));
  assert.ok(segments.length >= 3, `${segments.length} segments`);
  const conf = Conf.load();
  // Each crawl's merge folded the segment indexes; indexed again, they are whole, copies under a second URL included.
  await indexSegments(conf, { webdb: path.join(dir, 'webdb'), segments });
  // Dedup's deletions over the first segments only: merge applies the rule again over all of them.
  const d = await dedup(conf, { segments: segments.slice(0, 3) });
  assert.ok(d.byDigest > 0, 'the copies under a second URL are deleted');
  for (const s of segments) assert.ok((await openIndex(path.join(s, 'index'))).meta.postings, 'a segment index holds postings');

  const merged = await merge(conf, { index: path.join(tmp, 'merged'), segments });
  assert.ok(merged.duplicates > 0, 'the re-crawled page\'s older copy and the copies are duplicates');
  const shards = await mergeShards(conf, { index: path.join(tmp, 'shards'), segments }, 3);
  // An older crawl directory: every segment index but the newest without postings.
  for (const s of segments.slice(0, -1)) await withoutPostings(path.join(s, 'index'));
  assert.not.ok((await openIndex(path.join(segments[0]!, 'index'))).meta.postings);
  const inverted = await merge(conf, { index: path.join(tmp, 'inverted'), segments });
  const invertedShards = await mergeShards(conf, { index: path.join(tmp, 'inverted-shards'), segments }, 3);

  assert.is(merged.documents, inverted.documents);
  assert.equal(await indexFiles(merged.dir), await indexFiles(inverted.dir));
  for (const [i, s] of shards.entries()) assert.equal(await indexFiles(s.dir), await indexFiles(invertedShards[i]!.dir), `shard ${i}`);
  const r = await openIndex(merged.dir);
  try {
    const hits = r.candidates(r.analyzer.terms('rewritten'), { limit: 10 }).map((id) => r.doc(id).url);
    assert.equal(hits, [web.url('a', '/p1')], 'the re-crawled page in its new text only');
  } finally {
    r.close();
  }
});

test('a segment index whose postings are not its own is refused, naming it, and nothing is published', async () => {
  const crawl = makeCrawl();
  try {
    const pages = Array.from({ length: 40 }, (_, i) => ({ url: `http://a.test/p${i}`, title: `Page ${i}`, text: prose(i, 50 + i) }));
    const segments = [await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), pages.slice(0, 20)), await writeSegment(crawl, new Date(Date.UTC(2024, 0, 2)), pages.slice(20))];
    await indexSegments(crawl.conf, { webdb: crawl.webdb, segments });
    // A whole, well-framed postings file, but another segment's.
    fs.copyFileSync(path.join(segments[1]!, 'index', INDEX_FILES.postings), path.join(segments[0]!, 'index', INDEX_FILES.postings));
    const bad = path.join(segments[0]!, 'index');
    const refused = await merge(crawl.conf, { index: crawl.index, segments }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    assert.ok(refused?.includes(bad) && /disagree/.test(refused), refused);
    assert.not.ok(fs.existsSync(path.join(crawl.index, 'CURRENT')), 'no generation published');
  } finally {
    crawl.cleanup();
  }
});

test.run();
