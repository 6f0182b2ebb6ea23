/**
 * @module crawler/fetch/queues
 * Politeness, in one place (Nutch's FetchItemQueues). URLs wait in one queue
 * per host (or per IP address); a queue lends at most `maxPerQueue` URLs at a
 * time and, after each answer, rests for its delay before lending the next:
 * `fetcher.server.delay`, or `fetcher.server.min.delay` when a host may have
 * several requests in flight, raised by the host's robots Crawl-delay. The
 * fetch loop's workers ask `next()` for any ready URL, so a slow host never
 * holds a worker that another host could use. No other file sleeps.
 */

import type { HostBacklog } from '../progress.js';

export interface QueueOptions {
  /** fetcher.threads.per.host */
  maxPerQueue: number;
  /** fetcher.server.delay (ms): rest after each answer when maxPerQueue is 1. */
  delayMs: number;
  /** fetcher.server.min.delay (ms): rest after each answer when maxPerQueue > 1. */
  minDelayMs: number;
  now?: () => number;
}

interface Queue<T> {
  key: string;
  items: T[];
  inFlight: number;
  /** No URL is lent before this time. */
  nextTime: number;
  /** Crawl-delay from robots.txt (ms); makes the queue one-at-a-time. */
  crawlDelayMs?: number;
  exceptions: number;
}

export interface Lease<T> {
  key: string;
  item: T;
}

export class FetchQueues<T> {
  private readonly queues = new Map<string, Queue<T>>();
  private order: string[] = [];
  private cursor = 0;
  private waiters: (() => void)[] = [];
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly opts: QueueOptions) {
    if (!(opts.maxPerQueue >= 1)) throw new Error(`fetcher.threads.per.host must be at least 1, not ${opts.maxPerQueue}`);
    if (!(opts.delayMs >= 0)) throw new Error(`fetcher.server.delay must not be negative, not ${opts.delayMs / 1000}`);
    if (!(opts.minDelayMs >= 0)) throw new Error(`fetcher.server.min.delay must not be negative, not ${opts.minDelayMs / 1000}`);
    this.now = opts.now ?? Date.now;
  }

  add(key: string, item: T, opts: { front?: boolean } = {}): void {
    let q = this.queues.get(key);
    if (!q) {
      q = { key, items: [], inFlight: 0, nextTime: 0, exceptions: 0 };
      this.queues.set(key, q);
      this.order.push(key);
    }
    if (opts.front) q.items.unshift(item);
    else q.items.push(item);
    this.wakeOne();
  }

  /** Raises a queue's rest to a robots Crawl-delay and makes it one request at a time. */
  setCrawlDelay(key: string, ms: number): void {
    const q = this.queues.get(key);
    if (q) q.crawlDelayMs = ms;
  }

  /** The rest a queue takes after each answer. */
  delayOf(key: string): number {
    const q = this.queues.get(key);
    const base = this.opts.maxPerQueue > 1 && q?.crawlDelayMs === undefined ? this.opts.minDelayMs : this.opts.delayMs;
    return Math.max(base, q?.crawlDelayMs ?? 0);
  }

  private limitOf(q: Queue<T>): number {
    return q.crawlDelayMs === undefined ? this.opts.maxPerQueue : 1;
  }

  /** A ready URL, or the time until one may be, or 'done' when nothing is queued or in flight. */
  take(): Lease<T> | { waitMs: number } | 'done' {
    const now = this.now();
    let wait = Infinity;
    let busy = false;
    const n = this.order.length;
    for (let i = 0; i < n; i++) {
      const key = this.order[(this.cursor + i) % n]!;
      const q = this.queues.get(key)!;
      if (q.inFlight > 0) busy = true;
      if (q.items.length === 0) continue;
      if (q.inFlight >= this.limitOf(q)) continue;
      if (q.nextTime > now) {
        wait = Math.min(wait, q.nextTime - now);
        continue;
      }
      q.inFlight++;
      this.cursor = (this.cursor + i + 1) % n;
      return { key, item: q.items.shift()! };
    }
    this.reap();
    if (wait === Infinity && !busy) return 'done';
    return { waitMs: wait };
  }

  /** Waits for a ready URL; undefined when every queue is empty and idle, or after close(). */
  async next(): Promise<Lease<T> | undefined> {
    for (;;) {
      if (this.closed) return undefined;
      const r = this.take();
      if (r === 'done') {
        this.wake(); // every other waiter is done too
        return undefined;
      }
      if ('item' in r) return r;
      await new Promise<void>((resolve) => {
        const done = () => {
          if (t) clearTimeout(t);
          // A waiter woken by its timer leaves the list, so wakeOne never spends a wake on it.
          const i = this.waiters.indexOf(done);
          if (i >= 0) this.waiters.splice(i, 1);
          resolve();
        };
        const t = r.waitMs === Infinity ? undefined : setTimeout(done, r.waitMs);
        this.waiters.push(done);
      });
    }
  }

  /** Returns a lease. The queue rests for its delay from now; `asap` skips the rest (nothing was requested). */
  finish(key: string, opts: { asap?: boolean; exception?: boolean } = {}): void {
    const q = this.queues.get(key);
    if (!q) return;
    q.inFlight--;
    if (opts.exception) q.exceptions++;
    if (!opts.asap) q.nextTime = Math.max(q.nextTime, this.now() + this.delayOf(key));
    // One slot came free: one waiter is enough (waking every worker on every answer cost more than the answer).
    this.wakeOne();
  }

  exceptions(key: string): number {
    return this.queues.get(key)?.exceptions ?? 0;
  }

  /** Removes and returns the URLs still waiting in one queue (or in all). */
  purge(key?: string): Lease<T>[] {
    const out: Lease<T>[] = [];
    for (const q of key === undefined ? this.queues.values() : [this.queues.get(key)].filter((x) => x !== undefined)) {
      for (const item of q.items) out.push({ key: q.key, item });
      q.items = [];
    }
    this.wake();
    return out;
  }

  /** Queues that still have URLs waiting or in flight. */
  activeKeys(): string[] {
    return this.order.filter((k) => {
      const q = this.queues.get(k)!;
      return q.items.length > 0 || q.inFlight > 0;
    });
  }

  /** What each queue still has to do, and at what pace: the fetch's ETA. */
  backlog(): HostBacklog[] {
    return this.waitingKeys().map((k) => {
      const q = this.queues.get(k)!;
      return { waiting: q.items.length, slots: this.limitOf(q), delayMs: this.delayOf(k) };
    });
  }

  /** Queues with URLs still waiting. */
  waitingKeys(): string[] {
    return this.order.filter((k) => this.queues.get(k)!.items.length > 0);
  }

  size(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.items.length;
    return n;
  }

  /** Ends every next() with undefined (SIGINT). */
  close(): void {
    this.closed = true;
    this.wake();
  }

  private wakeOne(): void {
    this.waiters.shift()?.();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private reap(): void {
    if (this.order.length < 64) return;
    const live = this.order.filter((k) => {
      const q = this.queues.get(k)!;
      const keep = q.items.length > 0 || q.inFlight > 0 || q.nextTime > this.now();
      if (!keep && q.crawlDelayMs === undefined && q.exceptions === 0) this.queues.delete(k);
      return this.queues.has(k);
    });
    if (live.length !== this.order.length) {
      this.order = live;
      this.cursor = 0;
    }
  }
}
