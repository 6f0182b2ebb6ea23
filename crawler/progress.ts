/**
 * @module crawler/progress
 * What a long step shows while it runs. On a terminal one line is redrawn in
 * place (at most ten times a second); when output is not a terminal (a log
 * file, CI, a pipe) a plain line is written every few seconds instead, so a
 * twenty-minute fetch is never silent and never floods. The rules — rate,
 * ETA from a rate, a recent rate, ETA of a polite fetch from its per-host
 * queues and delays and of a fetch from its recent pace, durations as people
 * read them — are plain functions.
 */

/** How often a plain progress line is written when output is not a terminal. */
export const PLAIN_INTERVAL_MS = 5000;
const REDRAW_MS = 100;

/** `850 ms`, `45 s`, `3 min 20 s`, `1 h 05 min`: as precise as a reader needs. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** Items per second so far; 0 before anything is done. */
export function ratePerSec(done: number, elapsedMs: number): number {
  return done > 0 && elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
}

/** Time left at the rate so far; undefined until there is a rate or when the total is unknown. */
export function rateEta(done: number, total: number | undefined, elapsedMs: number): number | undefined {
  if (total === undefined || done <= 0 || elapsedMs <= 0) return undefined;
  return (Math.max(0, total - done) * elapsedMs) / done;
}

/** One host's queue as the fetcher sees it. */
export interface HostBacklog {
  /** URLs not yet lent. */
  waiting: number;
  /** Requests to the host at a time (fetcher.threads.per.host, 1 under a Crawl-delay). */
  slots: number;
  /** Rest after each answer (fetcher.server.delay, min.delay or the Crawl-delay). */
  delayMs: number;
}

export interface EtaOptions {
  threads: number;
  responseMs: number;
  /** fetcher.tail.max.time: the last host goes on alone at most this long once the others are done. */
  tailMaxMs?: number;
  /** Already in that tail (one host left): the time it has left. */
  tailLeftMs?: number;
}

/**
 * Time left for a polite fetch: each host works through its queue `slots` at
 * a time, resting `delayMs` after each answer, and all hosts share `threads`
 * requests. The slowest host or the thread limit decides, whichever is longer;
 * with one host at a 1 s delay, 1,000 URLs take over 16 minutes however fast
 * the server answers. The tail bound cuts the slowest host short: it stops
 * `tailMaxMs` after the next slowest is done.
 */
export function politeEta(hosts: readonly HostBacklog[], o: EtaOptions): number {
  const times: number[] = [];
  let requests = 0;
  for (const h of hosts) {
    if (h.waiting <= 0) continue;
    requests += h.waiting;
    times.push(Math.ceil(h.waiting / Math.max(1, h.slots)) * (o.responseMs + h.delayMs));
  }
  times.sort((a, b) => b - a);
  let slowest = times[0] ?? 0;
  if (times.length > 1 && o.tailMaxMs !== undefined && o.tailMaxMs >= 0) slowest = Math.min(slowest, times[1]! + o.tailMaxMs);
  if (times.length === 1 && o.tailLeftMs !== undefined) slowest = Math.min(slowest, Math.max(0, o.tailLeftMs));
  return Math.max(slowest, (requests * o.responseMs) / Math.max(1, o.threads));
}

/** A count at a moment: what a recent rate is worked out from. */
export interface RateSample {
  at: number;
  done: number;
}

/**
 * Items per second over the samples of the last `windowMs` (oldest first), or
 * undefined until they span `minSpanMs`. A recent rate, not the rate since the
 * start: a fetch's first seconds (robots.txt, slow starts, ramp-up) and its
 * changes of pace would otherwise weigh on the estimate to its end.
 */
export function recentRate(samples: readonly RateSample[], windowMs: number, minSpanMs = 1000): number | undefined {
  const last = samples.at(-1);
  const first = last && samples.find((s) => s.at >= last.at - windowMs);
  if (!last || !first || last.at - first.at < minSpanMs) return undefined;
  return ((last.done - first.done) * 1000) / (last.at - first.at);
}

/** The samples of a recent rate, the oldest dropped once they are out of its window. */
export class RecentRate {
  private samples: RateSample[] = [];

  constructor(private readonly windowMs: number) {}

  add(at: number, done: number): void {
    this.samples.push({ at, done });
    const from = this.samples.findIndex((s) => s.at >= at - this.windowMs);
    if (from > 0) this.samples = this.samples.slice(from);
  }

  rate(): number | undefined {
    return recentRate(this.samples, this.windowMs);
  }
}

/**
 * Time left for a fetch: the runnable work left (URLs waiting in the queues,
 * none of those already left for the next cycle) at the recent rate of
 * answers, but never less than politeness allows (politeEta: a host's delays,
 * the last host's tail). Without a rate yet, politeness alone. The rate
 * catches what the polite model cannot see: a fetch held back by parsing and
 * storing, or by a loaded machine, goes at the pace it really goes.
 */
export function fetchEta(o: { remaining: number; rate: number | undefined; politeMs: number }): number {
  return o.rate && o.rate > 0 ? Math.max(o.politeMs, (Math.max(0, o.remaining) * 1000) / o.rate) : o.politeMs;
}

export interface StepState {
  /** `fetch`, `updatedb`, … */
  step: string;
  done: number;
  total?: number;
  /** What is counted: `pages`, `URLs`, `documents`. */
  unit: string;
  elapsedMs: number;
  errors?: number;
  /** Overrides the ETA at the rate so far (the fetch knows better). */
  etaMs?: number;
  /** Overrides done/elapsed (a resumed fetch counts what it found done, not what it did). */
  rate?: number;
  /** Step-specific counts, shown after the rest. */
  extra?: string;
}

/** `fetch 120/1146 pages · 1.0/s · 0 errors · ETA 17 min 6 s · 1 host`. */
export function progressLine(p: StepState): string {
  const rate = p.rate ?? ratePerSec(p.done, p.elapsedMs);
  const eta = p.etaMs ?? rateEta(p.done, p.total, p.elapsedMs);
  return [
    `${p.step} ${p.done}${p.total !== undefined ? `/${p.total}` : ''} ${p.unit}`,
    `${rate >= 10 ? Math.round(rate) : rate.toFixed(1)}/s`,
    ...(p.errors !== undefined ? [`${p.errors} error${p.errors === 1 ? '' : 's'}`] : []),
    ...(eta !== undefined && p.total !== undefined ? [`ETA ${formatDuration(eta)}`] : []),
    ...(p.extra ? [p.extra] : []),
  ].join(' · ');
}

export interface DisplayOptions {
  err?: NodeJS.WritableStream;
  tty?: boolean;
  intervalMs?: number;
  now?: () => number;
}

/** The one progress line of a run: redrawn on a terminal, a plain line every few seconds elsewhere. */
export class ProgressDisplay {
  private shown = false;
  private lastDraw = -Infinity;
  private lastPlain: number;
  private readonly now: () => number;

  constructor(private readonly o: DisplayOptions) {
    this.now = o.now ?? Date.now;
    this.lastPlain = this.now();
  }

  /** `force` redraws a terminal line at once (a stage change); plain output keeps its pace. */
  show(line: string, force = false): void {
    const err = this.o.err;
    if (!err) return;
    const now = this.now();
    if (this.o.tty) {
      if (!force && now - this.lastDraw < REDRAW_MS) return;
      this.lastDraw = now;
      const cols = (err as NodeJS.WriteStream).columns ?? 100;
      err.write(`\r\x1b[2K${line.slice(0, cols - 1)}`);
      this.shown = true;
    } else if (now - this.lastPlain >= (this.o.intervalMs ?? PLAIN_INTERVAL_MS)) {
      this.lastPlain = now;
      err.write(`${line}\n`);
    }
  }

  /** Removes the terminal line before other output is written. */
  clear(): void {
    if (this.shown) {
      this.o.err?.write('\r\x1b[2K');
      this.shown = false;
    }
  }
}

/** Progress of one step with a count: rate and ETA worked out from the counts as they come. */
export class StepProgress {
  private readonly started: number;
  private last = -Infinity;

  constructor(
    private readonly show: (line: string, force?: boolean) => void,
    private readonly step: string,
    private readonly unit: string,
    private total?: number,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  update(done: number, o: { errors?: number; extra?: string; total?: number; etaMs?: number; force?: boolean } = {}): void {
    if (o.total !== undefined) this.total = o.total;
    // Called per item: the line is only worked out as often as a terminal redraws.
    const now = this.now();
    if (!o.force && now - this.last < REDRAW_MS) return;
    this.last = now;
    const state = { step: this.step, done, total: this.total, unit: this.unit, elapsedMs: now - this.started };
    this.show(progressLine({ ...state, errors: o.errors, extra: o.extra, etaMs: o.etaMs }), o.force);
  }
}
