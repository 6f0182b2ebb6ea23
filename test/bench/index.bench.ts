/**
 * Indexing: hazelnut's IndexWriter (analyzer + flexsearch candidates + our
 * binary statistics + write) against bare flexsearch `add` of the same
 * documents in the same run; then a merged-index-sized index of 50,000
 * synthetic documents: bytes on disk per document and load time (open, and
 * open plus the flexsearch import a first query needs); and `hazelnut index`
 * of one segment with 0, 1 and 2 analysis threads (indexer.threads).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Encoder, Index } from 'flexsearch';
import '../../crawler/builtins.js';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { openIndex } from '../../shared/index/reader.js';
import type { IndexInputDoc } from '../../shared/index/types.js';
import { IndexWriter } from '../../shared/index/writer.js';
import { indexSegments } from '../../crawler/index/tool.js';
import { makeCrawl, writeSegment } from '../fixtures/crawlstore.js';
import { rng } from '../fixtures/rng.js';

/** Zipf-distributed words over a 30k vocabulary, titles 5–10 words, bodies 250–350 (as in the library notes). */
function corpus(n: number): IndexInputDoc[] {
  const rand = rng(42);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const vocab = Array.from({ length: 30_000 }, (_, i) => {
    let w = '';
    for (let k = 0, x = i + 7; k < 3 + (i % 7); k++, x = Math.floor(x / 26) + k * 11) w += letters[x % 26];
    return w + (i % 5 === 0 ? 'ing' : i % 7 === 0 ? 's' : '');
  });
  const H = Math.log(30_000) + 0.5772;
  const word = () => vocab[Math.min(29_999, Math.floor(Math.exp(rand() * H - 0.5772)))]!;
  const words = (k: number) => Array.from({ length: k }, word).join(' ');
  return Array.from({ length: n }, (_, i) => ({
    url: `http://host${i % 50}.bench.test/page/${i}`,
    title: words(5 + Math.floor(rand() * 6)),
    host: `host${i % 50}.bench.test`,
    site: `host${i % 50}.bench.test`,
    domain: 'bench.test',
    type: 'text/html',
    lang: 'en',
    date: '20240501',
    tstamp: 1_714_521_600_000,
    digest: String(i),
    boost: 1,
    segment: '20240501000000',
    contentLength: 2000,
    anchors: i % 3 ? [words(3)] : [],
    content: words(250 + Math.floor(rand() * 101)),
  }));
}

const secs = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

/** CPU seconds of the main thread (its Linux task's utime + stime, in USER_HZ = 100 ticks) and of the whole process. */
function cpu(): { main: number; all: number } {
  const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const u = process.cpuUsage();
  return { main: (Number(f[11]) + Number(f[12])) / 100, all: (u.user + u.system) / 1e6 };
}

const THREADS = [0, 1, 2];
const SEGMENT_PAGES = 2_000;

/** `hazelnut index` of one segment of generated pages with each thread count, interleaved over two rounds: the better round of each. */
async function indexThreads(docs: IndexInputDoc[]): Promise<{ threads: number; wall: number; main: number; all: number }[]> {
  const best = new Map<number, { threads: number; wall: number; main: number; all: number }>();
  for (let round = 0; round < 2; round++)
    for (const threads of THREADS) {
      const crawl = makeCrawl({ 'indexer.threads': String(threads) });
      try {
        const dir = await writeSegment(
          crawl,
          new Date(Date.UTC(2024, 4, 1)),
          docs.map((d) => ({ url: d.url, title: d.title, text: d.content })),
        );
        const c0 = cpu();
        const t0 = process.hrtime.bigint();
        await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: [dir] });
        const wall = secs(t0);
        const c1 = cpu();
        const m = { threads, wall, main: c1.main - c0.main, all: c1.all - c0.all };
        if (!best.has(threads) || wall < best.get(threads)!.wall) best.set(threads, m);
      } finally {
        crawl.cleanup();
      }
    }
  return THREADS.map((t) => best.get(t)!);
}

export default async function () {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-index-'));
  try {
    const small = corpus(5_000);
    // Baseline: bare flexsearch on the combined text, its recommended non-collapsing encoder.
    let t0 = process.hrtime.bigint();
    const bare = new Index({ encoder: new Encoder({ normalize: true, dedupe: false, numeric: false }), tokenize: 'strict', resolution: 9 });
    for (let i = 0; i < small.length; i++) bare.add(i, `${small[i]!.title} ${small[i]!.anchors.join(' ')} ${small[i]!.content}`);
    const bareRate = small.length / secs(t0);

    t0 = process.hrtime.bigint();
    const w = new IndexWriter({ analyzer: new Analyzer({ stemEnglish: true }), segments: ['20240501000000'] });
    for (const d of small) w.add(d);
    const addRate = small.length / secs(t0);
    const t1 = process.hrtime.bigint();
    await w.write(path.join(tmp, 'small'));
    const writeS = secs(t1);
    const fullRate = small.length / secs(t0);

    const N = 50_000;
    const big = corpus(N);
    t0 = process.hrtime.bigint();
    const wb = new IndexWriter({ analyzer: new Analyzer({ stemEnglish: true }), segments: ['20240501000000'] });
    for (const d of big) wb.add(d);
    await wb.write(path.join(tmp, 'big'));
    const bigBuildS = secs(t0);
    const files = fs.readdirSync(path.join(tmp, 'big')).map((f) => [f, fs.statSync(path.join(tmp, 'big', f)).size] as const);
    const bytes = files.reduce((s, [, b]) => s + b, 0);

    t0 = process.hrtime.bigint();
    const r = await openIndex(path.join(tmp, 'big'));
    const openS = secs(t0);
    r.warm();
    const warmS = secs(t0);
    const probe = r.candidates(r.analyzer.terms(big[7]!.title).slice(0, 2), { limit: 1000 }).length;
    r.close();
    const load = os.loadavg()[0]!;
    const threads = await indexThreads(small.slice(0, SEGMENT_PAGES));
    const one = threads[0]!;

    const md = [
      `| | docs/s (5,000 docs, same run) | vs bare flexsearch |`,
      `|---|---|---|`,
      `| bare flexsearch \`Index.add\` (combined field, no statistics, not written) | ${bareRate.toFixed(0)} | 1.00× |`,
      `| IndexWriter.add (analyzer, flexsearch, forward index + positions) | ${addRate.toFixed(0)} | ${(addRate / bareRate).toFixed(2)}× |`,
      `| IndexWriter.add + write (all files, checksummed, fsynced; write ${writeS.toFixed(2)} s) | ${fullRate.toFixed(0)} | ${(fullRate / bareRate).toFixed(2)}× |`,
      '',
      `Index of ${N.toLocaleString('en')} documents (≈300 words each, stemming on): built and written in ${bigBuildS.toFixed(1)} s,`,
      `**${(bytes / 1048576).toFixed(1)} MB on disk = ${(bytes / N / 1024).toFixed(2)} KB per document** ` +
        `(${files.map(([f, b]) => `${f} ${(b / 1048576).toFixed(1)} MB`).join(', ')}).`,
      '',
      `Load: **open ${(openS * 1000).toFixed(0)} ms** (statistics, dictionary, stored-field offsets; checksums verified), ` +
        `**open + flexsearch import ${(warmS * 1000).toFixed(0)} ms** (what a searcher pays before its first query; ${probe} candidates for a probe query).`,
      '',
      `\`hazelnut index\` of one segment of ${SEGMENT_PAGES.toLocaleString('en')} of these pages (stored as parse records) with page text analyzed in 0, 1 or 2 threads ` +
        `(\`indexer.threads\`; the better of two interleaved rounds; load ${load.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores). ` +
        'The main thread reads the segment, runs the indexing filters and writes the index; its CPU time is what the index phase takes once the threads have cores of their own:',
      '',
      '| analysis threads | wall s | × 0 threads | main thread CPU s | × 0 threads | process CPU s |',
      '|---|---|---|---|---|---|',
      ...threads.map(
        (t) => `| ${t.threads} | ${t.wall.toFixed(2)} | ${(t.wall / one.wall).toFixed(2)}× | ${t.main.toFixed(2)} | ${(t.main / one.main).toFixed(2)}× | ${t.all.toFixed(2)} |`,
      ),
    ].join('\n');
    return { title: 'Indexing and index load', markdown: md };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
