import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../../crawler/builtins.js';
import { AnalysisPool } from '../../../crawler/index/analysis-pool.js';
import { IndexThreads, indexSegments } from '../../../crawler/index/tool.js';
import { Segment, type PageSection } from '../../../segments/segment.js';
import { openIndex } from '../../../shared/index/reader.js';
import { indexFiles } from '../../fixtures/index-files.js';
import { makeCrawl, summarySource, writeSegment, writeWebDb, type StorePage } from '../../fixtures/crawlstore.js';

const WORDS = ['crawler', 'fetches', 'pages', 'readFile', 'XMLHttpRequest', 'hostname', 'e-mail', '3.14', '1,000', "node's", 'München', 'Straße', 'Donaudampfschifffahrt', '東京都に住んでいます', '서울에서', 'ภาษาไทย', 'Привет', 'ＡＢＣ', 'max_tokens', 'v2.0-beta'];

/** A section every `every` characters or so, each at the start of a word. */
function sectionsOf(text: string, every: number): PageSection[] {
  const out: PageSection[] = [];
  for (let at = text.indexOf(' ', every); at > 0; at = text.indexOf(' ', at + every)) out.push({ heading: text.slice(at + 1, at + 20), level: 2, offset: at + 1 });
  return out;
}

/**
 * Varied pages: prose, identifiers, CJK, Korean, German compounds, a page past the summary's part, one past
 * indexer.max.tokens; every fourth, and the long one, in sections.
 */
function pages(n: number): StorePage[] {
  let seed = 7;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const words = (k: number) => Array.from({ length: k }, () => WORDS[Math.floor(rnd() * WORDS.length)]!).join(rnd() < 0.5 ? ' ' : '. ');
  return Array.from({ length: n }, (_, i) => ({
    url: `http://${i % 3 === 0 ? 'docs' : 'wiki'}.test/p${i}/${WORDS[i % WORDS.length]!.replace(/\W/g, '')}`,
    title: `${words(4)} — Acme`,
    text: i === 5 ? words(12_000) : i === 6 ? `${'Lorem ipsum dolor '.repeat(3500)}${words(30)}` : words(50 + Math.floor(rnd() * 400)),
  })).map((p, i) => (i % 4 === 1 || i === 5 ? { ...p, sections: sectionsOf(p.text, i === 5 ? 5000 : 300) } : p));
}

/** Every index file but the build time in meta, and every summary record. */
async function snapshot(dir: string, urls: string[]): Promise<Record<string, unknown>> {
  const out = await indexFiles(path.join(dir, 'index'));
  const seg = Segment.open(dir, { readonly: true });
  out.summaries = urls.map((u) => summarySource(seg, u));
  seg.close();
  return out;
}

test('index: analysis threads build the same index files and summary checkpoints as the main thread', async () => {
  // More pages in the first segment than a batch of summary texts (200), and than a thread has in flight (32).
  const all = pages(260);
  const first = 210;
  const built = [];
  for (const threads of ['0', '2']) {
    const crawl = makeCrawl({ 'indexer.threads': threads, 'indexer.max.tokens': '5000' });
    try {
      const dirs = [await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), all.slice(0, first)), await writeSegment(crawl, new Date(Date.UTC(2024, 0, 2)), all.slice(first))];
      writeWebDb(crawl, [{ url: all[0]!.url, linkScore: 2 }], [{ target: all[0]!.url, source: 'http://blog.test/', anchor: 'readFile guide 東京' }]);
      const s = await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: dirs });
      assert.is(s.indexed, all.length);
      const r = await openIndex(path.join(dirs[0]!, 'index'));
      const long = r.sectionLengths(r.idOf(all[5]!.url)!);
      assert.ok(long.length > 2 && long.reduce((n, l) => n + l, 0) > 5000, `the long page's sections reach past the cap (${threads} threads)`);
      r.close();
      built.push(await Promise.all(dirs.map((d, k) => snapshot(d, all.slice(k * first, k ? undefined : first).map((p) => p.url)))));
    } finally {
      crawl.cleanup();
    }
  }
  assert.ok((built[0]![0]!.summaries as { checkpoints?: unknown }[]).every((s) => s.checkpoints), 'every page has summary checkpoints');
  assert.equal(built[1], built[0]);
});

test('index: analysis threads held back keep the indexer waiting, every page analyzed by them, and build the same files', async () => {
  const all = pages(260);
  const built = [];
  let asked = 0;
  for (const threads of ['0', '1']) {
    const crawl = makeCrawl({ 'indexer.threads': threads, 'indexer.max.tokens': '5000' });
    // The thread's answers held back, as a thread analyzing long pages keeps the main thread waiting.
    const analyze = AnalysisPool.prototype.analyze;
    AnalysisPool.prototype.analyze = function (this: AnalysisPool, ...args) {
      asked++;
      return analyze.apply(this, args).then((a) => new Promise((r) => setTimeout(() => r(a), 5)));
    };
    try {
      const dir = await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), all);
      writeWebDb(crawl, [{ url: all[0]!.url, linkScore: 2 }], [{ target: all[0]!.url, source: 'http://blog.test/', anchor: 'readFile guide 東京' }]);
      assert.is((await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [dir] })).indexed, all.length);
      built.push(await snapshot(dir, all.map((p) => p.url)));
    } finally {
      AnalysisPool.prototype.analyze = analyze;
      crawl.cleanup();
    }
  }
  assert.is(asked, all.length, 'the thread analyzed every page');
  assert.equal(built[1], built[0]);
});

test('index: analysis threads started ahead (as a crawl starts them) build the same files as threads started for the first large segment, and each segment\'s fetch records are counted once', async () => {
  // A first segment too small to pay for a thread, which stays on the main thread either way, then a large one.
  const all = pages(240);
  const first = 20;
  const built = [];
  for (const ahead of [false, true]) {
    const crawl = makeCrawl({ 'indexer.max.tokens': '5000' });
    try {
      const dirs = [await writeSegment(crawl, new Date(Date.UTC(2024, 0, 1)), all.slice(0, first)), await writeSegment(crawl, new Date(Date.UTC(2024, 0, 2)), all.slice(first))];
      writeWebDb(crawl, [{ url: all[0]!.url, linkScore: 2 }], [{ target: all[0]!.url, source: 'http://blog.test/', anchor: 'readFile guide 東京' }]);
      const threads = ahead ? new IndexThreads(crawl.conf) : undefined;
      // The real count, only noted: the threads decide from it ahead, the progress line again for each segment.
      const counted: string[] = [];
      const count = Segment.prototype.count;
      Segment.prototype.count = function (this: Segment, table) {
        if (table === 'fetch') counted.push(this.name);
        return count.call(this, table);
      };
      try {
        threads?.startFor(dirs);
        const s = await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: dirs, threads });
        assert.is(s.indexed, all.length);
      } finally {
        Segment.prototype.count = count;
        await threads?.close();
      }
      assert.equal(counted, dirs.map((d) => path.basename(d)));
      built.push(await Promise.all(dirs.map((d, k) => snapshot(d, all.slice(k * first, k ? undefined : first).map((p) => p.url)))));
    } finally {
      crawl.cleanup();
    }
  }
  assert.equal(built[1], built[0]);
});

test.run();
