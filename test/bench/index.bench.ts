/**
 * The index and the searcher as the crawl grows: `npm run bench -- index
 * --sizes=10k,100k,1m` (10k and 100k by default) writes a crawl of the
 * growth corpus (growth-corpus.ts: long documentation-like pages over a
 * Zipfian vocabulary of 120,000 words) without HTTP (growth-crawl.ts), then
 * per size: `hazelnut index` and `hazelnut merge` timed and their CPU
 * counted (bash's `times` of the children), the crawl directory's bytes a
 * page by part (crawl-disk.ts), and the searcher started on it
 * (growth-searcher.ts). It drives the commands, so it measures whatever
 * index format they write; the growth column reads from the smallest size
 * to the largest. `--keep=<dir>` leaves each size's crawl in `<dir>/<size>`
 * (a million pages take hours to write and index; a kept crawl can be
 * searched again by another build).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crawlDisk, diskTable, type CrawlDisk } from './crawl-disk.js';
import { writeGrowthCrawl } from './growth-crawl.js';
import { measureSearcher, type SearcherFigures } from './growth-searcher.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const HAZELNUT = path.join(ROOT, 'crawler', 'hazelnut.js');
const SIZES: Record<string, number> = { '1k': 1_000, '10k': 10_000, '25k': 25_000, '100k': 100_000, '1m': 1_000_000 };

/** Runs `hazelnut args`; its wall time and the CPU of the processes it ran, from bash's `times`. */
function timedHazelnut(args: string[]): Promise<{ ms: number; cpuMs: number }> {
  const t0 = performance.now();
  const p = spawn('bash', ['-c', 'node "$@" >/dev/null; rc=$?; times >&2; exit $rc', 'bash', HAZELNUT, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  p.stderr.on('data', (d: Buffer) => (err += d));
  return new Promise((resolve, reject) =>
    p.on('exit', (code) => {
      const lines = err.trim().split('\n');
      // `times`: the shell's user and system time, then its children's: `1m2.345s 0m0.678s`.
      const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(lines[lines.length - 1] ?? '');
      if (code !== 0 || !m) return reject(new Error(`hazelnut ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
      resolve({ ms: performance.now() - t0, cpuMs: (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000 });
    }),
  );
}

interface Run {
  label: string;
  pages: number;
  writeMs: number;
  index: { ms: number; cpuMs: number };
  merge: { ms: number; cpuMs: number };
  disk: CrawlDisk;
  searcher: SearcherFigures;
}

async function measure(label: string, pages: number, keep: string | undefined): Promise<Run> {
  const dir = keep ? path.join(keep, label) : fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-growth-'));
  if (keep) {
    if (fs.existsSync(dir)) throw new Error(`index bench: ${dir} exists; --keep writes a new crawl there`);
    fs.mkdirSync(dir, { recursive: true });
  }
  try {
    let t0 = performance.now();
    let told = 0;
    await writeGrowthCrawl(dir, pages, (done) => {
      if (done - told >= pages / 10) process.stderr.write(`  ${label}: ${(told = done)} pages written\n`);
    });
    const writeMs = performance.now() - t0;
    process.stderr.write(`  ${label}: index …\n`);
    const index = await timedHazelnut(['index', path.join(dir, 'webdb'), '-dir', path.join(dir, 'segments')]);
    process.stderr.write(`  ${label}: merge …\n`);
    const merge = await timedHazelnut(['merge', path.join(dir, 'index'), '-dir', path.join(dir, 'segments')]);
    const disk = crawlDisk(dir);
    process.stderr.write(`  ${label}: searcher …\n`);
    t0 = performance.now();
    const searcher = await measureSearcher(dir, ROOT);
    const run = { label, pages, writeMs, index, merge, disk, searcher };
    process.stderr.write(`  ${label}: ${JSON.stringify(run)}\n`);
    return run;
  } finally {
    if (keep) process.stderr.write(`  ${label}: crawl kept in ${dir}\n`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

export default async function bench(): Promise<{ title: string; markdown: string }> {
  const asked = process.argv.find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length).split(',') ?? ['10k', '100k'];
  const unknown = asked.filter((s) => !(s in SIZES));
  if (unknown.length) throw new Error(`index bench: unknown size ${unknown.join(', ')} (sizes: ${Object.keys(SIZES).join(', ')})`);
  const keep = process.argv.find((a) => a.startsWith('--keep='))?.slice('--keep='.length);
  const load = [os.loadavg()[0]!];
  const runs: Run[] = [];
  for (const label of asked.sort((a, b) => SIZES[a]! - SIZES[b]!)) {
    runs.push(await measure(label, SIZES[label]!, keep && path.resolve(keep)));
    load.push(os.loadavg()[0]!);
  }
  return report(runs, load);
}

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

export function report(runs: Run[], load: number[]): { title: string; markdown: string } {
  const first = runs[0]!;
  const last = runs[runs.length - 1]!;
  const rows: [string, (r: Run) => number, (x: number) => string][] = [
    ['segments written without HTTP, ms a page', (r) => r.writeMs / r.pages, (x) => x.toFixed(3)],
    ['`hazelnut index`, ms a page', (r) => r.index.ms / r.pages, (x) => x.toFixed(3)],
    ['`hazelnut index`, CPU ms a page', (r) => r.index.cpuMs / r.pages, (x) => x.toFixed(3)],
    ['`hazelnut merge`, ms a page', (r) => r.merge.ms / r.pages, (x) => x.toFixed(3)],
    ['`hazelnut merge`, CPU ms a page', (r) => r.merge.cpuMs / r.pages, (x) => x.toFixed(3)],
    ['index + merge, CPU ms a page', (r) => (r.index.cpuMs + r.merge.cpuMs) / r.pages, (x) => x.toFixed(3)],
    ['disk: segments (files and their indexes), KB a page', (r) => (r.disk.segmentFiles + r.disk.segmentIndexes) / r.pages / 1024, (x) => x.toFixed(2)],
    ['disk: merged index, KB a page', (r) => r.disk.index / r.pages / 1024, (x) => x.toFixed(2)],
    ['disk: WebDB, KB a page', (r) => r.disk.webdb / r.pages / 1024, (x) => x.toFixed(2)],
    ['searcher (2 workers) to its first /healthz, ms', (r) => r.searcher.readyMs, ms],
    ['first query (the commonest word), ms', (r) => r.searcher.firstQueryMs, ms],
    ...[1, 2, 3].flatMap((k): [string, (r: Run) => number, (x: number) => string][] => [
      [`${k}-word queries, p50 ms`, (r) => r.searcher.latency[k - 1]!.p50, ms],
      [`${k}-word queries, p99 ms`, (r) => r.searcher.latency[k - 1]!.p99, ms],
    ]),
    ['anonymous RSS a worker after 1,000 queries, MB (the larger)', (r) => Math.max(...r.searcher.rssAnonMB), (x) => x.toFixed(0)],
    ['/api/search, two words, 16 connections: req/s', (r) => r.searcher.load.rps, (x) => x.toFixed(0)],
    ['… p50 / p99 ms', (r) => r.searcher.load.p50, (x) => x.toFixed(0)],
  ];
  const table = [
    `| measure | ${runs.map((r) => r.label).join(' | ')} | growth ${first.label} → ${last.label} |`,
    `|---|${runs.map(() => '---|').join('')}---|`,
    ...rows.map(([name, of, fmt]) => {
      const cells = runs.map((r) => (name.startsWith('…') ? `${fmt(of(r))} / ${fmt(r.searcher.load.p99)}` : fmt(of(r))));
      const growth = runs.length > 1 && of(first) > 0 ? `${(of(last) / of(first)).toFixed(2)}×` : '–';
      return `| ${name} | ${cells.join(' | ')} | ${growth} |`;
    }),
  ];
  return {
    title: 'Index and searcher growth: generated segments at 10k, 100k (and 1m) pages',
    markdown: [
      'Crawls of the growth corpus (test/bench/growth-corpus.ts: about 1,200 words a page in 4–10 sections, a Zipfian vocabulary of 120,000 words, 10–20 links a page) ' +
        'written without HTTP through the segment writer, 25,000 pages a segment, with a WebDB of every page, link and inlink (test/bench/growth-crawl.ts). ' +
        'Then `hazelnut index <webdb> -dir <segments>` and `hazelnut merge <index> -dir <segments>` (CPU: all their processes and threads), ' +
        'and `hazelnut-searcher -dir <crawl> -workers 2` (test/bench/growth-searcher.ts): time to its first `/healthz`, the first query, ' +
        '1,000 queries of 1–3 Zipfian words one at a time (every tenth led by the commonest word; summaries included), each worker\'s RssAnon after them, ' +
        'then two-word queries at 16 connections for 6 s (autocannon in the bench process, on the same two cores).',
      '',
      ...table,
      '',
      ...diskTable(runs.map((r) => ({ label: r.label, pages: r.pages, disk: r.disk }))),
      '',
      `Machine load (1-minute load average on ${os.cpus().length} cores) at the start and after each size: ${load.map((l) => l.toFixed(1)).join(', ')}; ` +
        'timings on a shared machine are noisy: compare the growth column and ratios measured in one run.',
      '',
      'Targets (at 100k / 1m documents): searcher ready ≤ 1 / 3 s; first query ≤ 200 / 500 ms; RSS a worker ≤ 150 / 300 MB; ' +
        'p50 / p99 ≤ 5 / 50 ms and ≤ 10 / 100 ms; ≥ 1,000 / 500 req/s; index build CPU ≤ 0.6 ms a page, growing ≤ 1.3× from 100k to 1m. ' +
        'Command: `npm run bench -- index` (`--sizes=10k,100k,1m` for the million).',
    ].join('\n'),
  };
}
