/**
 * Search latency and throughput over a merged index of 50,000 synthetic
 * documents (Zipf-distributed vocabulary, 200 sites; built once with the
 * real segment store, index writer and publish, kept in .bench-search-50000-v<format>/):
 * in-process query p50/p99 per query length after one warm-up pass, the
 * summaries + JSON of a result page, then `/api/search` under autocannon on
 * loopback beside a trivial hono route measured in the same run.
 */
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';
import { INDEX_FORMAT_VERSION } from '../../shared/index/format.js';
import { publishIndex } from '../../shared/index/publish.js';
import { IndexWriter } from '../../shared/index/writer.js';
import { Segment } from '../../segments/segment.js';
import { searchJson } from '../../searcher/http/api.js';
import { search } from '../../searcher/search.js';
import { startSearcher } from '../../searcher/server.js';
import { inputDoc } from '../searcher/crawl-fixture.js';
import { cannon, wholeMs as ms } from './cannon.js';

const DOCS = 50_000;
const HOST = '127.0.11.5';
// Named after the index format, so a format change rebuilds it instead of failing to open it.
const dir = path.resolve(import.meta.dirname, '..', '..', `.bench-search-${DOCS}-v${INDEX_FORMAT_VERSION}`);

export function rng(seed: number) {
  return () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

export function vocabulary(n: number, rand: () => number): string[] {
  const syl = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qu', 'st', 'en', 'or', 'al', 'in'];
  const words = new Set<string>();
  while (words.size < n) {
    const k = 2 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < k; i++) w += syl[Math.floor(rand() * syl.length)];
    words.add(w);
  }
  return [...words];
}

/** Zipf (s = 1) sampler over ranks 0..n-1. */
export function zipf(n: number, rand: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / (i + 1);
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

async function build(words: string[], pick: () => number, rand: () => number): Promise<void> {
  fs.rmSync(dir, { recursive: true, force: true });
  const text = (n: number) => Array.from({ length: n }, () => words[pick()]).join(' ');
  const now = new Date(Date.UTC(2024, 0, 1));
  const seg = Segment.create(path.join(dir, 'segments'), now);
  const writer = new IndexWriter({ analyzer: Analyzer.fromConf(Conf.load()), segments: [seg.name] });
  const batch: Parameters<Segment['putParses']>[0] = [];
  for (let i = 0; i < DOCS; i++) {
    const page = { url: `http://site${i % 200}.test/doc/${i}`, title: text(4 + Math.floor(rand() * 5)), text: text(120 + Math.floor(rand() * 80)), boost: rand() * 3 };
    (batch as unknown[]).push({ url: page.url, status: 'success', title: page.title, text: page.text, outlinks: [], meta: {} });
    writer.add(inputDoc(page, seg.name, now.getTime()));
  }
  seg.putParses(batch);
  seg.markPhase('parsed');
  seg.close();
  await publishIndex(path.join(dir, 'index'), async (d) => void (await writer.write(d)), { graceMs: 0 });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

export default async function bench() {
  const rand = rng(42);
  const words = vocabulary(20_000, rand);
  const pick = zipf(words.length, rand);
  const t0 = Date.now();
  const built = fs.existsSync(path.join(dir, 'index', 'CURRENT'));
  if (!built) await build(words, pick, rand);
  const buildS = (Date.now() - t0) / 1000;

  // Queries of 1–3 words of rank 100–5000, as in reference/libraries.md.
  const qr = rng(7);
  const queries = Array.from({ length: 300 }, () => Array.from({ length: 1 + Math.floor(qr() * 3) }, () => words[100 + Math.floor(qr() * 4900)]).join(' '));

  const s = await startSearcher(Conf.load(), { dir, port: 0, host: HOST });
  const trivialApp = new Hono().get('/', (c) => c.json({ ok: true }));
  const trivial = createAdaptorServer({ fetch: trivialApp.fetch }) as Server;
  await new Promise<void>((r) => trivial.listen(0, HOST, r));
  try {
    const lease = s.snapshots.acquire();
    // The first pass pays for loading: the candidate index import, stored fields parsed on first use.
    const c0 = performance.now();
    for (const q of queries) search(lease.snapshot, { query: q });
    const coldMs = performance.now() - c0;
    const times: Record<number, number[]> = { 1: [], 2: [], 3: [] };
    const pageMs: number[] = [];
    for (const q of queries.concat(queries)) {
      const a = performance.now();
      const r = search(lease.snapshot, { query: q });
      const b = performance.now();
      JSON.stringify(searchJson(lease.snapshot, r));
      times[q.split(' ').length]!.push(b - a);
      pageMs.push(performance.now() - b);
    }
    lease.release();
    const tport = (trivial.address() as AddressInfo).port;
    const base = await cannon(`http://${HOST}:${tport}/`);
    const paths = queries.map((q) => `/api/search?query=${encodeURIComponent(q)}`);
    const api = await cannon(s.url, paths);
    const rows = [1, 2, 3].map((n) => `| ${n}-word search (in process, with re-rank) | ${pct(times[n]!, 50).toFixed(2)} | ${pct(times[n]!, 99).toFixed(2)} | – | – |`);
    const ratio = api.rps / base.rps;
    return {
      title: `Search: ${DOCS.toLocaleString('en')} documents`,
      markdown: `Merged index of ${DOCS.toLocaleString('en')} synthetic documents (${built ? 'reused' : `built in ${buildS.toFixed(0)} s`}), 300 queries of 1–3 words, candidate pool ${Conf.load().getInt('searcher.candidates')}.
In process: one warm-up pass over the queries (${coldMs.toFixed(0)} ms in all, loading included), then two measured passes.
autocannon: 16 connections, 6 s each, loopback ${HOST}, server and client sharing the cores.

| what | p50 ms | p99 ms | req/s | vs trivial route |
|---|---|---|---|---|
${rows.join('\n')}
| summaries + JSON of a page of 10 hits (in process) | ${pct(pageMs, 50).toFixed(2)} | ${pct(pageMs, 99).toFixed(2)} | – | – |
| trivial hono \`c.json\` route (baseline) | ${ms(base.p50)} | ${ms(base.p99)} | ${base.rps.toFixed(0)} | 1 |
| \`/api/search\` (search + summaries + JSON) | ${ms(api.p50)} | ${ms(api.p99)} | ${api.rps.toFixed(0)} | 1/${(1 / ratio).toFixed(0)} |

/api/search throughput is ${(ratio * 100).toFixed(1)} % of the trivial route's; errors: ${api.errors + base.errors}. Command: \`npm run bench -- search\`.`,
    };
  } finally {
    await new Promise((r) => trivial.close(r));
    await s.close();
  }
}
