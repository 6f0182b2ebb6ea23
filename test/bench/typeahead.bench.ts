/**
 * Type-ahead's cost in a searcher worker: for each crawl (each with a merged
 * index), a one-worker `hazelnut-searcher` with `searcher.typeahead.entries`
 * 0 and then the default, the same 300 searches, then the first suggestion
 * (which starts the list) and how long until the list is complete, the
 * worker's anonymous RSS before and after, and the latency of 500
 * suggestions for prefixes of the index's own titles.
 * `TYPEAHEAD_CRAWLS=<crawl>,<crawl>` names the crawls (a generated crawl
 * of `npm run bench -- index`, or `/work/data/g100k` copied, indexed and
 * merged); without it the bench is skipped.
 * Run: TYPEAHEAD_CRAWLS=… npm run bench -- typeahead
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Conf } from '../../shared/conf.js';
import { currentIndex } from '../../shared/index/publish.js';
import { openIndex } from '../../shared/index/reader.js';
import { crawlPaths } from '../../shared/crawl-dir.js';
import { listening, rssAnonMB, workers } from './growth-searcher.js';
import type { BenchResult } from './run.js';

const SEARCHER = path.resolve(import.meta.dirname, '..', '..', 'searcher', 'hazelnut-searcher.js');
const SEARCHES = 300;
const SUGGESTIONS = 500;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Words of titles spread over the index: searched whole, suggested by a prefix (3–6 letters, or a word and the start of the next). */
async function sample(crawl: string): Promise<{ docs: number; words: string[]; prefixes: string[] }> {
  const idx = currentIndex(crawlPaths(crawl).index);
  if (!idx) throw new Error(`${crawl}: no published index (hazelnut index, then merge)`);
  const reader = await openIndex(idx.dir, { verify: false });
  try {
    const n = reader.meta.docCount;
    const words: string[] = [];
    const prefixes: string[] = [];
    for (let i = 0; i < SUGGESTIONS; i++) {
      const title = reader.doc(Math.floor((i * n) / SUGGESTIONS)).title.toLowerCase().split(/\s+/).filter((w) => /^\p{L}{3,}$/u.test(w));
      if (!title.length) continue;
      words.push(title[0]!);
      prefixes.push(i % 3 === 2 && title.length > 1 ? `${title[0]} ${title[1]!.slice(0, 2)}` : title[i % title.length]!.slice(0, 3 + (i % 4)));
    }
    return { docs: n, words, prefixes };
  } finally {
    reader.close();
  }
}

interface Run {
  entries: number;
  rssBefore: number;
  rssAfter: number;
  buildMs: number;
  p50: number;
  p99: number;
  answered: number;
}

async function measure(crawl: string, entries: number, words: string[], prefixes: string[]): Promise<Run> {
  const proc = spawn(process.execPath, [SEARCHER, '-D', `searcher.typeahead.entries=${entries}`, '-dir', crawl, '-port', '0', '-host', '127.0.0.1', '-workers', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const base = await listening(proc, 300_000);
    const get = async (p: string) => {
      const r = await fetch(base + p, { signal: AbortSignal.timeout(60_000) });
      if (r.status !== 200) throw new Error(`${p}: HTTP ${r.status}`);
      return r.json() as Promise<{ complete?: boolean; suggestions?: unknown[] }>;
    };
    for (let i = 0; i < SEARCHES; i++) await get(`/api/search?query=${encodeURIComponent(words[i % words.length]!)}`);
    const worker = workers(proc.pid!)[0]!;
    const rssBefore = rssAnonMB(worker);
    const t0 = performance.now();
    for (let i = 0; i < 36_000 && !(await get(`/api/suggest?q=${encodeURIComponent(prefixes[0]!)}`)).complete; i++) await new Promise((r) => setTimeout(r, 50));
    const buildMs = performance.now() - t0;
    const ms: number[] = [];
    let answered = 0;
    for (const q of prefixes) {
      const t = performance.now();
      if ((await get(`/api/suggest?q=${encodeURIComponent(q)}`)).suggestions?.length) answered++;
      ms.push(performance.now() - t);
    }
    return { entries, rssBefore, rssAfter: rssAnonMB(worker), buildMs, p50: percentile(ms, 50), p99: percentile(ms, 99), answered };
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await gone;
    }
  }
}

export default async function typeAheadBench(): Promise<BenchResult> {
  const title = "Type-ahead: a searcher worker's memory, the list's build time and a suggestion's latency";
  const crawls = (process.env.TYPEAHEAD_CRAWLS ?? '').split(',').filter(Boolean);
  if (!crawls.length) return { title, markdown: 'Skipped: set TYPEAHEAD_CRAWLS to crawl directories with a merged index.' };
  const entries = Conf.load().getInt('searcher.typeahead.entries');
  const f1 = (x: number) => x.toFixed(1);
  const rows: string[] = [];
  for (const crawl of crawls) {
    const { docs, words, prefixes } = await sample(crawl);
    for (const n of [0, entries]) {
      const r = await measure(crawl, n, words, prefixes);
      rows.push(
        `| ${docs.toLocaleString('en')} | ${n.toLocaleString('en')} | ${f1(r.rssBefore)} | ${f1(r.rssAfter)} | ${Math.round(r.buildMs)} | ${f1(r.p50)} / ${f1(r.p99)} | ${r.answered}/${prefixes.length} |`,
      );
    }
  }
  return {
    title,
    markdown: [
      `Each crawl served by \`hazelnut-searcher -workers 1 -D searcher.typeahead.entries=N\`; ${SEARCHES} searches of title words, then suggestions (the first one starts the list; it is polled until complete), then ${SUGGESTIONS} suggestions one at a time for prefixes of titles spread over the index. RSS is the worker's anonymous memory after the searches and after the suggestions.`,
      '',
      '| documents | entries | RSS after searches, MB | RSS after suggestions, MB | list complete after, ms | suggestion p50 / p99, ms | prefixes answered |',
      '|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  };
}
