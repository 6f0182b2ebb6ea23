/**
 * @module crawler/fetch/fetcher
 * The fetch loop (Nutch's Fetcher): fetchlist URLs go into per-host queues,
 * N workers take whichever URL is ready, run it through the fetch steps,
 * decide redirects and hand each result to the writer threads, which parse
 * it (inline parse) and store it in group commits — so a host's next
 * request leaves as soon as an answer is in, a killed run keeps every
 * committed page and a rerun continues with the rest. A monitor redraws
 * progress and ends the long tail (one slow host left after the others are
 * done) and the time limit by leaving the remaining URLs for the next cycle,
 * recorded as deferred.
 */
import type { Conf } from '../../shared/conf.js';
import type { Log } from '../log.js';
import { fetchEta, politeEta, progressLine, ratePerSec, RecentRate } from '../progress.js';
import type { FetchStatus } from '../../shared/page-status.js';
import type { ContentRecord, FetchRecord, ParseRecord, Segment } from '../../segments/segment.js';
import { parseContent } from '../parse/parse-content.js';
import type { CrawlerPlugins } from '../plugin/chains.js';
import { SegmentWriter, type WriterThreads } from '../../segments/segment-writer.js';
import { emptyFetchSummary, type FetchSummary } from './fetch-summary.js';
import type { FetcherSettings } from './fetcher-settings.js';
import { QueueIds } from './queue-id.js';
import { FetchQueues, type Lease } from './queues.js';
import { decideRedirect } from './redirect.js';
import { hasRobotsTxt, type RobotsCache } from './robots.js';
import { deferredOutcome, exceptionOutcome, redirectExceededOutcome } from './status.js';
import type { FetchCall, FetchItem, FetchOutcome } from './step.js';

const INTERRUPTED = 'the fetch was interrupted';

const isRedirect = (s: FetchStatus) => s === 'fetch_redir_perm' || s === 'fetch_redir_temp';

export class Fetcher {
  readonly summary: FetchSummary;
  private readonly queues: FetchQueues<FetchItem>;
  private readonly queueIds: QueueIds;
  /** URLs that are in the fetchlist, already recorded or queued as a redirect hop: never queued twice. */
  private readonly known = new Set<string>();
  private readonly started = Date.now();
  private tailSince: number | undefined;
  /** Per-URL log lines, written in one go by the monitor. */
  private logLines: { at: number; msg: string }[] = [];
  private maxActive = 0;
  /** Time spent waiting for answers, for the ETA: a host's pace is its delay plus its answer time. */
  private responses = { n: 0, ms: 0 };
  /** Answers of the last 10 s, for the ETA: the pace the fetch really goes at. */
  private readonly answers = new RecentRate(10_000);
  /** Stores what is fetched from a worker thread; made in run(), closed (flushed) when it ends. */
  private writer!: SegmentWriter;

  constructor(
    private readonly conf: Conf,
    private readonly segment: Segment,
    private readonly plugins: CrawlerPlugins,
    private readonly robots: RobotsCache,
    private readonly fetchOne: FetchCall,
    private readonly s: FetcherSettings,
    private readonly log: Log | undefined,
    private readonly signal: AbortSignal | undefined,
    /** Store and, when the fetch parses, parse each page (settings.parse needs threads that parse); default: a thread of the run's own that only stores. */
    private readonly writers?: WriterThreads,
  ) {
    this.queues = new FetchQueues({ maxPerQueue: s.perHost, delayMs: s.delayMs, minDelayMs: s.minDelayMs });
    this.queueIds = new QueueIds(s.byIp);
    this.summary = emptyFetchSummary(segment.name, segment.count('fetchlist'));
  }

  async run(): Promise<FetchSummary> {
    // When the parse is the limit, this thread parses too whenever the fetch loop would wait for the parse threads.
    const parseHere = this.s.parse ? (rec: FetchRecord, c: ContentRecord) => parseContent(this.plugins, this.conf, c, rec) : undefined;
    this.writer = new SegmentWriter(this.segment, this.writers, parseHere);
    try {
      await this.fetchAll();
    } finally {
      await this.writer.close();
    }
    this.summary.interrupted = this.signal?.aborted ?? false;
    if ((!this.summary.interrupted || this.s.deferOnAbort) && this.s.parse) await this.parseLeftovers();
    this.summary.elapsedMs = Date.now() - this.started;
    this.progress(true);
    this.log?.clearProgress();
    return this.summary;
  }

  private async fetchAll(): Promise<void> {
    const done = this.segment.fetchedUrls();
    for (const u of done) this.known.add(u);
    for (const e of this.segment.fetchlist()) {
      if (done.has(e.url)) {
        this.summary.resumed++;
        continue;
      }
      this.known.add(e.url);
      await this.enqueue({ url: e.url, datum: e.datum, hop: 0, chain: [e.url] });
    }
    // A followed redirect whose target was not stored before a kill is queued again.
    for (const r of this.segment.fetches())
      if (r.meta?.redirect === 'followed' && r.redirectTo && !this.known.has(r.redirectTo)) {
        this.known.add(r.redirectTo);
        await this.enqueue({ url: r.redirectTo, datum: {}, hop: Number(r.meta.hop ?? 0) + 1, chain: [r.url, r.redirectTo] });
      }
    this.maxActive = this.queues.activeKeys().length;
    const onAbort = () => this.queues.close();
    this.signal?.addEventListener('abort', onAbort);
    const monitor = setInterval(() => this.watch(), 200);
    try {
      await Promise.all(Array.from({ length: Math.max(1, this.s.threads) }, () => this.worker()));
      if (this.signal?.aborted && this.s.deferOnAbort) this.deferQueue(undefined, INTERRUPTED, 'interrupted');
    } finally {
      clearInterval(monitor);
      this.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async enqueue(item: FetchItem): Promise<void> {
    const key = await this.queueIds.of(item.url);
    if (key) this.queues.add(key, item);
    else this.store({ record: { ...this.bare(item.url, exceptionOutcome()), message: 'unknown host (DNS lookup failed)' }, exception: true });
  }

  private async worker(): Promise<void> {
    for (;;) {
      await this.writer.ready();
      const lease = await this.queues.next();
      if (!lease) return;
      await this.process(lease);
    }
  }

  private async process({ key, item }: Lease<FetchItem>): Promise<void> {
    const origin = new URL(item.url).origin;
    if (hasRobotsTxt(item.url) && !this.robots.known(origin)) {
      // robots.txt is a request of its own: it takes the host's turn and its rest.
      const rules = await this.robots.get(origin);
      this.log?.info(`robots ${origin}: ${rules.state.status} (${rules.state.reason})`);
      if (rules.crawlDelayMs !== undefined) this.queues.setCrawlDelay(key, rules.crawlDelayMs);
      this.queues.add(key, item, { front: true });
      this.queues.finish(key, { asap: rules.state.reason === 'cached' });
      return;
    }
    const t0 = Date.now();
    const o = await this.fetchOne(item);
    this.responses.n++;
    this.responses.ms += Date.now() - t0;
    if (this.signal?.aborted && o.exception) {
      // Cut off by the interrupt: left unrecorded so the rerun fetches it, or deferred to the next cycle.
      if (this.s.deferOnAbort) this.store({ record: { ...this.bare(item.url, deferredOutcome()), message: INTERRUPTED, meta: { deferred: 'interrupted' } } });
      this.queues.finish(key, { asap: true });
      return;
    }
    if (isRedirect(o.record.status)) await this.redirect(item, o);
    // Parsed in a writer thread: the host's next request need not wait for it.
    this.store(o, o.content && this.s.parse ? 'in-thread' : undefined);
    const requested = o.record.httpStatus !== null || o.exception === true;
    this.queues.finish(key, { asap: !requested, exception: o.exception });
    if (o.deferred) this.deferQueue(key, o.deferred, 'crawl-delay');
    else if (this.s.maxExceptions > 0 && this.queues.exceptions(key) >= this.s.maxExceptions)
      for (const l of this.queues.purge(key))
        this.store({
          record: { ...this.bare(l.item.url, exceptionOutcome()), message: `not fetched: ${this.s.maxExceptions} failures on ${key} (fetcher.max.exceptions.per.queue)` },
        });
  }

  private async redirect(item: FetchItem, o: FetchOutcome): Promise<void> {
    const d = decideRedirect({
      from: item.url,
      location: o.record.headers.location,
      hop: item.hop,
      chain: item.chain,
      maxRedirects: this.s.maxRedirects,
      ignoreExternal: this.s.ignoreExternal,
      normalize: (u) => this.plugins.normalizers.normalize(u, 'fetcher'),
      filters: this.plugins.filters,
    });
    const r = o.record;
    if (d.kind === 'drop') r.message = d.reason;
    else if (d.kind === 'loop') Object.assign(r, redirectExceededOutcome(), { redirectTo: d.url, message: `redirect loop: ${d.chain.join(' -> ')}` });
    else {
      r.redirectTo = d.url;
      r.meta = { ...r.meta, redirect: d.kind === 'follow' ? 'followed' : 'recorded' };
      if (d.kind === 'record') r.message = d.reason;
      if (d.kind === 'follow' && !this.known.has(d.url)) {
        this.known.add(d.url);
        this.summary.redirectsFollowed++;
        const datum = { score: item.datum.score, fetch_interval: item.datum.fetch_interval };
        await this.enqueue({ url: d.url, datum, hop: d.hop, chain: [...item.chain, d.url] });
      }
    }
  }

  private bare(url: string, o: Pick<FetchRecord, 'status' | 'protocolStatus'>): FetchRecord {
    return { url, ...o, httpStatus: null, fetchTime: Date.now(), headers: {} };
  }

  private store(o: FetchOutcome, parse?: 'in-thread'): void {
    const { record, content } = o;
    const s = this.summary;
    // Counted before put(), which may hand the body's memory to the thread.
    if (content) s.bytes += content.bytes.length;
    if (parse) s.parsed++;
    this.writer.put(record, content, parse, this.s.storeContent);
    s.fetched++;
    s.byStatus[record.status] = (s.byStatus[record.status] ?? 0) + 1;
    if (o.exception) s.errors++;
    if (record.protocolStatus === 'blocked') s.deferred++;
    if (record.protocolStatus === 'robots_denied') s.robotsDenied++;
    if (this.log) this.logLines.push({ at: Date.now(), msg: `${record.status} ${record.httpStatus ?? '-'} ${record.url}${record.message ? ` (${record.message})` : ''}` });
  }

  /** Parses stored content that has no parse yet: left by a run killed before its parse was committed, or by one without parsing. */
  private async parseLeftovers(): Promise<void> {
    const batch: ParseRecord[] = [];
    for (const c of this.segment.unparsedContents()) {
      const rec = this.segment.getFetch(c.url);
      if (!rec) continue;
      this.summary.parsed++;
      batch.push(await parseContent(this.plugins, this.conf, c, rec));
    }
    if (batch.length) this.segment.putParses(batch);
  }

  /** Leaves the rest of a queue for the next cycle. */
  private deferQueue(key: string | undefined, why: string, kind: string): void {
    const purged = this.queues.purge(key);
    const byQueue = new Map<string, number>();
    for (const l of purged) {
      this.store({ record: { ...this.bare(l.item.url, deferredOutcome()), message: why, meta: { deferred: kind } } });
      byQueue.set(l.key, (byQueue.get(l.key) ?? 0) + 1);
    }
    for (const [queue, urls] of byQueue) {
      this.summary.deferredQueues.push({ queue, urls, reason: why });
      this.log?.warn(`${urls} URLs of ${queue} left for the next cycle: ${why}`);
    }
  }

  private watch(): void {
    const now = Date.now();
    const elapsed = now - this.started;
    if (this.s.timeLimitMs >= 0 && elapsed > this.s.timeLimitMs && this.queues.size() > 0)
      this.deferQueue(undefined, `time limit of ${this.s.timeLimitMs / 60000} min reached (fetcher.timelimit.mins)`, 'timelimit');
    this.answers.add(now, this.responses.n);
    const active = this.queues.activeKeys();
    this.maxActive = Math.max(this.maxActive, active.length);
    // A tail is one host left after others finished; a single-host fetch has no tail.
    if (active.length === 1 && this.maxActive > 1 && this.s.tailMaxMs >= 0) {
      this.tailSince ??= now;
      if (now - this.tailSince > this.s.tailMaxMs && this.queues.size() > 0)
        this.deferQueue(active[0], `the only host left after ${(now - this.tailSince) / 1000} s (fetcher.tail.max.time)`, 'long-tail');
    } else this.tailSince = undefined;
    this.progress(false);
  }

  private progress(force: boolean): void {
    if (!this.log) return;
    this.log.infoLines(this.logLines);
    this.logLines = [];
    const s = this.summary;
    const elapsedMs = Date.now() - this.started;
    const responseMs = this.responses.n ? this.responses.ms / this.responses.n : 0;
    const hosts = this.queues.activeKeys().length;
    this.log.progress(
      progressLine({
        step: 'fetch',
        done: s.resumed + s.fetched,
        total: s.total + s.redirectsFollowed,
        unit: 'pages',
        elapsedMs,
        rate: ratePerSec(s.fetched, elapsedMs),
        errors: s.errors,
        etaMs: fetchEta({
          remaining: this.queues.size(),
          rate: this.answers.rate(),
          politeMs: politeEta(this.queues.backlog(), {
            threads: this.s.threads,
            responseMs,
            tailMaxMs: this.s.tailMaxMs,
            tailLeftMs: this.tailSince === undefined || this.s.tailMaxMs < 0 ? undefined : this.s.tailMaxMs - (Date.now() - this.tailSince),
          }),
        }),
        extra: `${(s.bytes / Math.max(1, elapsedMs) / 1.024).toFixed(0)} KiB/s · ${hosts} host${hosts === 1 ? '' : 's'} active`,
      }),
      force,
    );
  }
}
