/**
 * The searcher on a growth-benchmark crawl, as an operator starts it:
 * `hazelnut-searcher -dir <crawl> -workers 2`, timed to its first `/healthz`;
 * the first query (the commonest word) after that; then 1,000 queries of one,
 * two and three words drawn from the corpus's Zipfian vocabulary (the
 * commonest words included; summaries included, as /api/search answers),
 * one at a time; each worker's anonymous RSS after them (/proc/<pid>/status
 * RssAnon); and /api/search under 16 connections (autocannon, cannon.ts).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { rng } from '../fixtures/rng.js';
import { cannon, type CannonResult } from './cannon.js';
import { VOCABULARY, wordOfRank } from './growth-corpus.js';

export interface SearcherFigures {
  readyMs: number;
  firstQueryMs: number;
  /** Per query length (1, 2, 3 words): p50 and p99 in ms. */
  latency: { words: number; p50: number; p99: number; queries: number }[];
  /** MB of anonymous memory of each worker after the queries. */
  rssAnonMB: number[];
  load: CannonResult;
}

const QUERIES = 1_000;

/** A query of `k` words: Zipfian ranks, so the commonest words come often; every tenth starts with the commonest word itself. */
export function queries(): string[][] {
  const rand = rng(77);
  const zipf = () => wordOfRank(Math.min(VOCABULARY - 1, Math.floor(Math.exp(rand() * Math.log(VOCABULARY + 1))) - 1));
  return [1, 2, 3].map((k) =>
    Array.from({ length: Math.ceil(QUERIES / 3) }, (_, i) => Array.from({ length: k }, (_, j) => (i % 10 === 0 && j === 0 ? wordOfRank(0) : zipf())).join(' ')),
  );
}

/** The value at percentile `p` (0–100) of `xs`. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const apiPath = (q: string) => `/api/search?query=${encodeURIComponent(q)}`;

async function timed(base: string, q: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(base + apiPath(q), { signal: AbortSignal.timeout(60_000) });
  if (res.status !== 200) throw new Error(`${q}: HTTP ${res.status}`);
  await res.arrayBuffer();
  return performance.now() - t0;
}

export function rssAnonMB(pid: number): number {
  const m = /RssAnon:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** The worker processes of the searcher `pid` (its children), or itself when it serves alone. */
export function workers(pid: number): number[] {
  const kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return kids.length ? kids : [pid];
}

const SEARCHER = path.resolve(import.meta.dirname, '..', '..', 'searcher', 'hazelnut-searcher.js');
/** How long a searcher may take to start before the run is given up. */
const START_MS = 600_000;

/** The address a searcher process says it listens at, within `ms`; its output so far when it exits first or says nothing in time. */
export function listening(proc: ReturnType<typeof spawn>, ms: number): Promise<string> {
  let out = '';
  return new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`the searcher did not say where it listens in ${ms / 1000} s: ${out}`)), ms);
    const onData = (d: Buffer) => {
      out += d;
      const m = /(http:\/\/[\d.]+:\d+)\//.exec(out);
      if (m) (clearTimeout(t), resolve(m[1]!));
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => (clearTimeout(t), reject(new Error(`the searcher exited ${code}: ${out}`))));
  });
}

export async function measureSearcher(crawlDir: string, cwd: string): Promise<SearcherFigures> {
  const t0 = performance.now();
  const deadline = Date.now() + START_MS;
  const proc = spawn(process.execPath, [SEARCHER, '-dir', crawlDir, '-port', '0', '-host', '127.0.0.1', '-workers', '2'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const base = await listening(proc, START_MS);
    for (;;) {
      const ok = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status === 200, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the searcher did not answer /healthz in ${START_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const readyMs = performance.now() - t0;
    const firstQueryMs = await timed(base, wordOfRank(0));
    const latency = [];
    for (const [k, qs] of queries().entries()) {
      const ms = [];
      for (const q of qs) ms.push(await timed(base, q));
      latency.push({ words: k + 1, p50: percentile(ms, 50), p99: percentile(ms, 99), queries: ms.length });
    }
    const rss = workers(proc.pid!).map(rssAnonMB);
    const two = queries()[1]!.map(apiPath);
    const load = await cannon(base, two);
    return { readyMs, firstQueryMs, latency, rssAnonMB: rss, load };
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await gone;
    }
  }
}
