/**
 * The crawl benchmarks' measured processes (crawl.bench.ts, realdocs.bench.ts):
 * a build of the commands with crawl-child.ts, a run of it in a child process
 * of its own, and its memory sampled from outside while it runs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ENTRIES, ensureBuild } from '../../shared/build.js';
import { builtName } from '../../shared/thread-module.js';
import type { EtaAccuracy } from './fetch-eta.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The crawl's phases, in the order a crawl reports them. */
export const CRAWL_PHASES = ['inject', 'generate', 'fetch', 'updatedb', 'invertlinks', 'linkrank', 'index', 'dedup', 'merge'];

/** A build of the commands with crawl-child.ts, so a measured crawl loads as `hazelnut crawl` does. */
export const crawlBuild = () => ensureBuild({ out: path.join(ROOT, '.bench-build'), entries: [...ENTRIES, 'test/bench/crawl-child.ts'] });

/**
 * The environment bin/hazelnut gives the commands it runs: glibc's mmap threshold, unless this
 * process's environment sets one (read from the script, so the benchmark measures what it runs).
 */
export function commandEnv(): NodeJS.ProcessEnv {
  const script = fs.readFileSync(path.join(ROOT, 'bin', 'hazelnut'), 'utf8');
  const threshold = /\$\{MALLOC_MMAP_THRESHOLD_=(\d+)\}/.exec(script)?.[1];
  if (!threshold) throw new Error('bin/hazelnut sets no MALLOC_MMAP_THRESHOLD_ default');
  return { ...process.env, MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? threshold };
}

/**
 * Runs a TypeScript file in a child process and resolves with its first stdout line, parsed; from
 * `build`, a build of the commands with it (shared/build.js), when given, as the commands run,
 * with the environment bin/hazelnut gives them.
 */
export function child<T>(file: string, arg: unknown, opts: { keep?: boolean; build?: URL } = {}): { result: Promise<T>; stop: () => void; pid: number } {
  const source = path.join(import.meta.dirname, file);
  const run = opts.build ? [fileURLToPath(new URL(builtName(path.relative(ROOT, source)), opts.build))] : ['--import', 'tsx', source];
  const p = spawn(process.execPath, [...run, JSON.stringify(arg)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: opts.build ? commandEnv() : process.env,
  });
  const result = new Promise<T>((resolve, reject) => {
    createInterface({ input: p.stdout! }).once('line', (l) => resolve(JSON.parse(l) as T));
    p.once('exit', (c) => reject(new Error(`${file} exited with ${c} before answering`)));
  });
  if (!opts.keep) p.stdin!.end();
  return { result, stop: () => p.stdin!.end(), pid: p.pid! };
}

/**
 * Samples a process's RSS every `ms` from outside (a busy main thread cannot delay it) and, at each
 * new high, its mappings by kind from /proc/<pid>/smaps; the stop function gives the highest sample (MB).
 */
export function sampleMappings(pid: number, ms: number): () => Record<string, number> {
  let high: Record<string, number> = { rss: 0 };
  const t0 = performance.now();
  const timer = setInterval(() => {
    try {
      const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
      if (!(rss > high.rss! + 2)) return;
      const kinds: Record<string, number> = { brkHeap: 0, anon: 0, files: 0 };
      let kind = 'anon';
      for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
        const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
        if (head) kind = head[1] === '[heap]' ? 'brkHeap' : head[1]!.startsWith('/') ? 'files' : 'anon';
        else if (line.startsWith('Rss:')) kinds[kind]! += Number(line.split(/\s+/)[1]) / 1024;
      }
      high = { atS: Math.round(performance.now() - t0) / 1000, rss: Math.round(rss), ...Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, Math.round(v)])) };
    } catch {
      // the process has ended
    }
  }, ms);
  return () => {
    clearInterval(timer);
    return high;
  };
}

export interface Bare {
  pages: number;
  links: number;
  ms: number;
  cpuMs: number;
  maxRssMB: number;
}
export interface Crawl {
  ms: number;
  /** User + system CPU time of the crawl's process, all its threads. */
  cpuMs: number;
  /** The main thread's heap at the highest RSS the crawl's own timer saw (crawl-child.ts). */
  sample: Record<string, number>;
  /** The highest RSS sampled from outside and the process's mappings then. */
  mappings: Record<string, number>;
  phases: Record<string, number>;
  peakRssMB: Record<string, number>;
  /** How close the fetch's ETA came in the largest round (fetch-eta.ts). */
  eta?: EtaAccuracy;
  fetched: number;
  documents: number;
  maxRssMB: number;
}
