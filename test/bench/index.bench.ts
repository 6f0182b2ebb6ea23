/**
 * Indexing: hazelnut's IndexWriter (analyzer + flexsearch candidates + our
 * binary statistics + write) against bare flexsearch `add` of the same
 * documents in the same run; then a merged-index-sized index of 50,000
 * synthetic documents: bytes on disk per document and load time (open, and
 * open plus the flexsearch import a first query needs).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Encoder, Index } from 'flexsearch';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { openIndex } from '../../shared/index/reader.js';
import type { IndexInputDoc } from '../../shared/index/types.js';
import { IndexWriter } from '../../shared/index/writer.js';
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
    ].join('\n');
    return { title: 'Indexing and index load', markdown: md };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
