/**
 * @module crawler/fetch/fetchers
 * `crawl -fetchers n`: n local `hazelnut fetch <segment>` processes, each
 * claiming the segment's fetch partitions until none is left, as fetchers on
 * other machines would. They get the crawl's configuration as -D options and
 * report their summaries over the IPC channel; the crawl shows the progress
 * of all of them from the segment's records. An interrupt of the crawl
 * interrupts them (they keep what they fetched and give up their leases).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_FILE, type Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import type { Log } from '../log.js';
import { Segment } from '../../segments/segment.js';
import type { FetchSummary } from './fetch-summary.js';
import { addUpFetches } from './fetch-summary.js';

const HAZELNUT = path.resolve(import.meta.dirname, '..', 'hazelnut.js');
const PROGRESS_MS = 1000;

/** The properties set above the defaults (crawl-tool.xml, the site file, -D, the crawl's own), as -D options. */
export function confArgs(conf: Conf): string[] {
  return conf
    .declarations()
    .filter((d) => conf.source(d.name) !== DEFAULT_FILE && !conf.source(d.name).startsWith('plugin '))
    .flatMap((d) => ['-D', `${d.name}=${conf.get(d.name)}`]);
}

export async function fetchWithProcesses(
  conf: Conf,
  segmentDir: string,
  n: number,
  opts: { threads?: number; log: Log; signal?: AbortSignal },
): Promise<FetchSummary> {
  const started = Date.now();
  const args = [HAZELNUT, ...confArgs(conf), 'fetch', segmentDir, ...(opts.threads ? ['-threads', String(opts.threads)] : [])];
  const summaries: FetchSummary[] = [];
  const failures: string[] = [];
  const total = countRecords(segmentDir);
  const step = opts.log.step('fetch', 'pages', total.fetchlist);
  const ticker = setInterval(() => step.update(countRecords(segmentDir).fetch - total.fetch, { extra: `${n} fetchers` }), PROGRESS_MS);
  const children = Array.from({ length: n }, (_, i) => {
    // Its own process group: a Ctrl-C reaches the crawl, which passes it on once.
    const p = spawn(process.execPath, args, { env: { ...process.env, HAZELNUT_CONF_DIR: conf.confDir }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], detached: true });
    const stop = () => p.kill('SIGINT');
    opts.signal?.addEventListener('abort', stop);
    let err = '';
    p.stderr!.on('data', (b) => (err = (err + b).slice(-2000)));
    p.on('message', (m: { fetchSummary?: FetchSummary }) => {
      if (m.fetchSummary) summaries.push(m.fetchSummary);
    });
    return new Promise<void>((resolve) =>
      p.on('close', (code, signal) => {
        opts.signal?.removeEventListener('abort', stop);
        if (code !== 0 && code !== 130) {
          failures.push(`fetcher ${i + 1} of ${n} (pid ${p.pid}) ended with ${signal ?? `exit code ${code}`}: ${failureReason(err)}`);
          opts.log.warn(failures.at(-1)!);
        }
        resolve();
      }),
    );
  });
  try {
    await Promise.all(children);
  } finally {
    clearInterval(ticker);
    opts.log.clearProgress();
  }
  if (failures.length === n) throw new HzError('HZ_ERR_SEGMENT_STATE', `every fetcher of ${segmentDir} failed; the first: ${failures[0]}`);
  const s = addUpFetches(path.basename(segmentDir), summaries);
  s.elapsedMs = Date.now() - started;
  s.interrupted ||= opts.signal?.aborted ?? false;
  const seg = Segment.open(segmentDir, { readonly: true });
  try {
    s.complete = seg.hasPhase('fetched');
  } finally {
    seg.close();
  }
  if (!s.complete && !s.interrupted) opts.log.warn(`segment ${segmentDir} is not completely fetched: run the crawl again to resume its partitions`);
  return s;
}

/**
 * Why a fetcher failed, from what it wrote on stderr: its own error line
 * (`hazelnut fetch: …`) when it wrote one, else the first line of the last
 * stack trace, not its tail.
 */
export function failureReason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const own = lines.filter((l) => /^hazelnut fetch: /.test(l)).at(-1);
  if (own) return own.replace(/^hazelnut fetch: /, '');
  const error = lines.filter((l) => /^(?:\w*Error|Uncaught)\b|^\w+Error: /.test(l)).at(-1);
  return error ?? (lines.at(-1) ?? 'no message');
}

/** Fetchlist entries and fetch records of a segment so far. */
function countRecords(segmentDir: string): { fetchlist: number; fetch: number } {
  const seg = Segment.open(segmentDir, { readonly: true });
  try {
    return { fetchlist: seg.count('fetchlist'), fetch: seg.count('fetch') };
  } finally {
    seg.close();
  }
}
