/**
 * @module crawler/fetch/tool
 * `hazelnut fetch <segment>`: fetches a generated segment's fetchlist
 * politely (per-host queues, robots.txt, delays), parses inline unless
 * told not to, and marks the segment fetched (and parsed) once every URL has
 * a record. Interrupted (SIGINT) or killed, it keeps what it stored; run it
 * again to continue. The WebDB next to the segments directory, when there is
 * one, caches robots.txt per host for a day; fetch does not take the crawl
 * lock, so a generate or updatedb of another segment may run meanwhile.
 *
 * A segment split into fetch partitions (generate -numFetchers) is fetched a
 * partition at a time, each into its own file: the fetcher claims a
 * partition's lease in the WebDB, renews it while it fetches, and claims the
 * next until every partition is done (`-part i`: that one only), waiting
 * while the rest are held by other fetchers. A fetcher that dies leaves its
 * lease to run out; a waiting fetcher then claims the partition and resumes it.
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Conf } from '../../shared/conf.js';
import { HzError, UsageError } from '../../shared/errors.js';
import type { Log } from '../log.js';
import { politeEta } from '../progress.js';
import { intOption, parseArgs, type Tool } from '../../shared/command.js';
import { Segment } from '../../segments/segment.js';
import { WriterThreads } from '../../segments/writer.js';
import { PARSE_THREAD_MODULE } from '../parse/thread.js';
import { loadCrawlerPlugins } from '../plugin/chains.js';
import { runWithLog } from '../tool-run.js';
import { crawlPaths, segmentCrawlDir } from '../../shared/crawl-dir.js';
import { hasWebDb, openWebDb, type Partition, type WebDb } from '../webdb/webdb.js';
import type { FetchStatus } from '../../shared/page-status.js';
import { isLoopbackHost, withLoopback } from './address.js';
import { Fetcher, type FetcherSettings, type FetchSummary } from './fetcher.js';
import { FetchQueues } from './queues.js';
import { robotsAgents, userAgent } from './protocol-http.js';
import { startProtocols, type Protocols } from './protocols.js';
import { RobotsCache } from './robots.js';
import { fetchSteps } from './step.js';

export type { FetchSummary } from './fetcher.js';

export interface FetchOptions {
  /** -threads: concurrent requests in all (fetcher.threads.fetch). */
  threads?: number;
  /** false for -noParsing; default fetcher.parse. */
  parse?: boolean;
  log?: Log;
  /** Aborting stops the fetch cleanly (SIGINT): what is stored stays, the rest is fetched by a rerun. */
  signal?: AbortSignal;
  /** On abort, record the rest as deferred and complete the segment, so what was fetched can be indexed now (the crawl). */
  deferOnAbort?: boolean;
  /** -part: the one fetch partition to fetch. */
  part?: number;
  /** The threads that parse and store (parseThreads()), kept across a crawl's rounds; default: started for this fetch. */
  writers?: WriterThreads;
}

/**
 * The threads that parse a fetch's pages as `conf` says and store them
 * (fetcher.parse.threads), so the fetch loop only fetches: `opts.writers`
 * when given (a crawl keeps its threads for all its rounds), else new ones;
 * none when the fetch does not parse (its writer then stores on a thread of its own).
 */
export function parseThreads(conf: Conf, opts: FetchOptions = {}): WriterThreads | undefined {
  if (!fetcherSettings(conf, opts).parse) return undefined;
  if (opts.writers) return opts.writers;
  const threads = atLeast(conf, 'fetcher.parse.threads', conf.getInt('fetcher.parse.threads'), 1);
  return new WriterThreads({ threads, parse: { module: PARSE_THREAD_MODULE, data: conf.snapshot() }, youngGenerationMb: conf.getInt('worker.young.generation.mb') });
}

/** A property's value when it is at least `min`; else an error naming where it was set. */
function atLeast(conf: Conf, name: string, value: number, min: number, shown: string | number = value): number {
  if (!(value >= min)) throw new HzError('HZ_ERR_CONF_PROPERTY', `property ${name} in ${conf.source(name)} must be at least ${min}, not ${shown}`);
  return value;
}

/** The fetcher's settings; a crawl works them out before it writes anything, so a bad value stops it early. */
export function fetcherSettings(conf: Conf, opts: FetchOptions = {}): FetcherSettings {
  const threads = opts.threads ?? atLeast(conf, 'fetcher.threads.fetch', conf.getInt('fetcher.threads.fetch'), 1);
  if (threads < 1) throw new UsageError(`-threads must be at least 1, not ${threads}`);
  const limitMins = conf.getFloat('fetcher.timelimit.mins');
  const delay = (name: string) => atLeast(conf, name, conf.getDuration(name, 's'), 0, conf.get(name));
  return {
    threads,
    perHost: atLeast(conf, 'fetcher.threads.per.host', conf.getInt('fetcher.threads.per.host'), 1),
    byIp: conf.getBoolean('fetcher.threads.per.host.by.ip'),
    delayMs: delay('fetcher.server.delay'),
    minDelayMs: delay('fetcher.server.min.delay'),
    maxRedirects: conf.getInt('http.redirect.max'),
    ignoreExternal: conf.getBoolean('db.ignore.external.links'),
    timeLimitMs: limitMins < 0 ? -1 : limitMins * 60_000,
    maxExceptions: conf.getInt('fetcher.max.exceptions.per.queue'),
    tailMaxMs: conf.getDuration('fetcher.tail.max.time', 's'),
    parse: opts.parse ?? conf.getBoolean('fetcher.parse'),
    storeContent: conf.getBoolean('fetcher.store.content'),
    deferOnAbort: opts.deferOnAbort,
  };
}

export interface FetchEstimate {
  urls: number;
  hosts: number;
  /** The rest after each request to a host, as the queues will apply it. */
  delayMs: number;
  /** Lower bound on the fetch time: delays and robots.txt, answers taken as instant. */
  etaMs: number;
}

/** How long fetching a generated segment will take at least, from its URLs per host and the politeness settings. */
export function fetchEstimate(conf: Conf, segmentDir: string, opts: FetchOptions = {}): FetchEstimate {
  const settings = fetcherSettings(conf, opts);
  const queues = new FetchQueues<string>({ maxPerQueue: settings.perHost, delayMs: settings.delayMs, minDelayMs: settings.minDelayMs });
  const seg = Segment.open(segmentDir, { readonly: true });
  const origins = new Set<string>();
  let urls = 0;
  try {
    for (const e of seg.fetchlist()) {
      const origin = new URL(e.url).origin;
      // robots.txt is a request of its own, the first on each host.
      if (!origins.has(origin)) queues.add(origin, `${origin}/robots.txt`);
      origins.add(origin);
      queues.add(origin, e.url);
      urls++;
    }
  } finally {
    seg.close();
  }
  const backlog = queues.backlog();
  return { urls, hosts: backlog.length, delayMs: backlog[0]?.delayMs ?? settings.delayMs, etaMs: politeEta(backlog, { threads: settings.threads, responseMs: 0, tailMaxMs: settings.tailMaxMs }) };
}

/**
 * The WebDB of the crawl a segment belongs to: on a server (webdb.url), shared
 * by fetchers on every machine, else `<crawl>/webdb` beside `<crawl>/segments/<name>`, if there is one.
 */
function crawlWebDb(conf: Conf, segmentDir: string): string | undefined {
  const dir = crawlPaths(segmentCrawlDir(segmentDir)).webdb;
  return conf.get('webdb.url') || (hasWebDb(dir) ? dir : undefined);
}

/**
 * Whether the crawl's seeds are on loopback: inject notes it in the WebDB. A
 * segment fetched without its WebDB has no other seeds than its fetchlist.
 */
function seedsOnLoopback(segment: Segment, webdb: WebDb | undefined): boolean {
  if (webdb) return webdb.seedsOnLoopback();
  for (const e of segment.fetchlist()) if (isLoopbackHost(new URL(e.url).hostname)) return true;
  return false;
}

export async function fetch(conf: Conf, segmentDir: string, opts: FetchOptions = {}): Promise<FetchSummary> {
  const whole = Segment.open(segmentDir, { readonly: true });
  let parts: number;
  try {
    if (!whole.hasPhase('generated'))
      throw new HzError('HZ_ERR_SEGMENT_STATE', `segment ${segmentDir} was not completely generated; delete it and run generate again`);
    if (whole.hasPhase('fetched')) throw new HzError('HZ_ERR_SEGMENT_STATE', `segment ${segmentDir} is already fetched`);
    parts = whole.partCount();
  } finally {
    whole.close();
  }
  if (parts > 0) return fetchPartitions(conf, segmentDir, opts);
  if (opts.part !== undefined) throw new UsageError(`-part: segment ${segmentDir} has no fetch partitions (generate -numFetchers makes them)`);
  const webDbDir = crawlWebDb(conf, segmentDir);
  const webdb = webDbDir ? openWebDb(webDbDir) : undefined;
  try {
    return await fetchInto(conf, Segment.open(segmentDir), webdb, opts);
  } finally {
    webdb?.close();
  }
}

/** Fetches what `segment` (a whole segment or a partition's) has not fetched yet, and marks it fetched once all is; closes it. */
async function fetchInto(conf: Conf, segment: Segment, webdb: WebDb | undefined, opts: FetchOptions): Promise<FetchSummary> {
  const ua = userAgent(conf);
  const settings = fetcherSettings(conf, opts);
  let protocols: Protocols | undefined;
  const writers = parseThreads(conf, opts);
  try {
    const plugins = await loadCrawlerPlugins(conf);
    opts.log?.info(`fetching ${segment.dir} as "${ua}", ${settings.threads} threads; plugins: ${plugins.active.map((p) => p.id).join(' ')}`);
    protocols = startProtocols(withLoopback(conf, seedsOnLoopback(segment, webdb)), plugins.protocols);
    const robots = new RobotsCache({ http: protocols, agents: robotsAgents(conf), webdb });
    const summary = await new Fetcher(conf, segment, plugins, robots, fetchSteps(conf, protocols, robots, opts.signal), settings, opts.log, opts.signal, writers).run();
    if (!summary.interrupted || settings.deferOnAbort) {
      summary.complete = segment.unfetchedCount() === 0;
      if (summary.complete) {
        segment.markPhase('fetched');
        if (settings.parse && segment.unparsedContents().next().done) segment.markPhase('parsed');
      }
    }
    return summary;
  } finally {
    await protocols?.close();
    if (writers !== opts.writers) await writers?.close();
    segment.close();
  }
}

const WAIT_POLL_MS = 1000;

/** Claims, fetches and finishes fetch partitions of `segmentDir` until all are done (or `opts.part` only). */
async function fetchPartitions(conf: Conf, segmentDir: string, opts: FetchOptions): Promise<FetchSummary> {
  const webDbDir = crawlWebDb(conf, segmentDir);
  if (!webDbDir)
    throw new HzError(
      'HZ_ERR_NOT_FOUND',
      `segment ${segmentDir} is split into fetch partitions, which fetchers claim in the crawl's WebDB, and there is no WebDB at ${crawlPaths(segmentCrawlDir(segmentDir)).webdb} (nor a webdb.url)`,
    );
  const leaseMs = atLeast(conf, 'fetcher.partition.lease', conf.getDuration('fetcher.partition.lease', 's'), 1000, conf.get('fetcher.partition.lease'));
  const owner = `${os.hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
  const started = Date.now();
  const webdb = openWebDb(webDbDir);
  const whole = Segment.open(segmentDir, { readonly: true });
  const name = whole.name;
  const done: FetchSummary[] = [];
  const fetchedHere = new Set<number>();
  // The same parsing threads for every partition: they take about a second to start.
  const writers = parseThreads(conf, opts);
  let waiting = false;
  try {
    while (!opts.signal?.aborted) {
      const part = webdb.claimPartition(name, owner, leaseMs, Date.now(), opts.part);
      if (part === undefined) {
        if (opts.part !== undefined) throw unclaimable(segmentDir, opts.part, webdb.partitions(name));
        const held = webdb.partitions(name).filter((p) => p.done === null);
        if (held.length === 0) break;
        if (!waiting)
          opts.log?.notice(`fetch partitions ${held.map((p) => p.part).join(', ')} of ${segmentDir} are held by other fetchers: waiting for them to finish or give up`);
        waiting = true;
        // Looked at every second: a fetcher of the same crawl round waits for the last partition no longer than that.
        const expires = Math.min(...held.map((p) => p.leaseUntil ?? 0));
        await sleep(Math.max(50, Math.min(WAIT_POLL_MS, expires - Date.now() + 10)), undefined, { signal: opts.signal }).catch(() => {});
        continue;
      }
      // A partition this fetcher could not complete (it gave the lease up) is left to another one.
      if (fetchedHere.has(part)) {
        webdb.renewPartition(name, part, owner, 0, Date.now());
        break;
      }
      fetchedHere.add(part);
      waiting = false;
      opts.log?.info(`fetch partition ${part} of ${segmentDir}: claimed by ${owner}`);
      // Stops this partition's fetch when the fetch is interrupted or the lease is lost.
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      opts.signal?.addEventListener('abort', onAbort);
      let lost = false;
      const renew = setInterval(() => {
        if (webdb.renewPartition(name, part, owner, leaseMs, Date.now())) return;
        lost = true;
        opts.log?.warn(`fetch partition ${part} of ${segmentDir}: the lease ran out and another fetcher took it; stopping`);
        stop.abort();
      }, leaseMs / 3);
      try {
        // Never deferred on abort: after a lost lease the partition's file is the new holder's to complete.
        const s = await fetchInto(conf, whole.openPart(part), webdb, { ...opts, deferOnAbort: false, signal: stop.signal, writers });
        done.push(s);
        if (s.complete) webdb.finishPartition(name, part, owner, Date.now());
        // Interrupted, the lease is given up at once so that a rerun resumes the partition without waiting.
        else if (!lost) webdb.renewPartition(name, part, owner, 0, Date.now());
        if (lost) break;
      } finally {
        clearInterval(renew);
        opts.signal?.removeEventListener('abort', onAbort);
      }
      if (opts.part !== undefined) break;
    }
  } finally {
    whole.close();
    webdb.close();
    if (writers !== opts.writers) await writers?.close();
  }
  const total = addUpFetches(name, done);
  total.elapsedMs = Date.now() - started;
  total.interrupted ||= opts.signal?.aborted ?? false;
  const after = Segment.open(segmentDir, { readonly: true });
  try {
    total.complete = opts.part !== undefined ? done[0]?.complete === true : after.hasPhase('fetched');
  } finally {
    after.close();
  }
  return total;
}

/** Why `-part i` cannot be claimed now. */
function unclaimable(segmentDir: string, part: number, all: Partition[]): HzError {
  const p = all.find((x) => x.part === part);
  if (!p) return new UsageError(`-part ${part}: segment ${segmentDir} has fetch partitions 0 to ${all.length - 1}`);
  if (p.done !== null) return new HzError('HZ_ERR_SEGMENT_STATE', `fetch partition ${part} of ${segmentDir} is already fetched`);
  return new HzError(
    'HZ_ERR_LOCKED',
    `fetch partition ${part} of ${segmentDir} is being fetched by ${p.owner} (lease until ${new Date(p.leaseUntil ?? 0).toISOString()}); run it again after that if that fetcher died`,
  );
}

/** One summary for several fetches of one segment's partitions. */
export function addUpFetches(segment: string, list: readonly FetchSummary[]): FetchSummary {
  const sum = (k: 'total' | 'resumed' | 'fetched' | 'redirectsFollowed' | 'deferred' | 'robotsDenied' | 'bytes' | 'parsed' | 'errors') =>
    list.reduce((n, s) => n + s[k], 0);
  const byStatus: FetchSummary['byStatus'] = {};
  for (const s of list) for (const [k, v] of Object.entries(s.byStatus) as [FetchStatus, number][]) byStatus[k] = (byStatus[k] ?? 0) + v;
  return {
    segment,
    total: sum('total'),
    resumed: sum('resumed'),
    fetched: sum('fetched'),
    redirectsFollowed: sum('redirectsFollowed'),
    byStatus,
    deferred: sum('deferred'),
    robotsDenied: sum('robotsDenied'),
    deferredQueues: list.flatMap((s) => s.deferredQueues),
    bytes: sum('bytes'),
    parsed: sum('parsed'),
    errors: sum('errors'),
    complete: false,
    interrupted: list.some((s) => s.interrupted),
    elapsedMs: 0,
  };
}

/** The summary line: what was fetched, what was left and how fast. */
export function summaryLine(s: FetchSummary): string {
  const st = s.byStatus;
  const n = (k: keyof typeof st) => st[k] ?? 0;
  const parts = [
    `${n('fetch_success')} ok`,
    `${n('fetch_notmodified')} not modified`,
    `${n('fetch_redir_perm') + n('fetch_redir_temp')} redirects`,
    `${n('fetch_gone')} gone`,
    `${n('fetch_retry') - s.deferred} to retry`,
    `${s.deferred} deferred`,
  ];
  const secs = s.elapsedMs / 1000;
  return (
    `fetch ${s.segment}: ${s.fetched} fetched (${parts.join(', ')})` +
    (s.resumed ? `, ${s.resumed} already done` : '') +
    `, ${(s.bytes / 1048576).toFixed(1)} MiB in ${secs.toFixed(1)} s (${(s.fetched / Math.max(secs, 0.001)).toFixed(1)} pages/s)` +
    (s.interrupted ? '; interrupted: run the same command again to continue' : s.complete ? '' : '; incomplete')
  );
}

const tool: Tool = {
  name: 'fetch',
  usage: `Usage: hazelnut fetch <segment> [-threads n] [-noParsing] [-part i]
  <segment>     a segment directory made by generate (<crawl>/segments/<yyyyMMddHHmmss>)
  -threads n    concurrent requests in all (default fetcher.threads.fetch)
  -noParsing    store content only; run 'hazelnut parse <segment>' later (default: fetcher.parse)
  -part i       fetch only fetch partition i of a segment made with generate -numFetchers
                (without it, such a segment's partitions are claimed one after another until all are done,
                waiting while other fetchers hold the rest)
Interrupt with Ctrl-C and run the same command again to continue where it stopped.`,
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['threads', 'part'], boolean: ['noParsing'] });
    if (a._.length !== 1) throw new UsageError(a._.length ? 'too many arguments' : 'missing <segment>');
    const segmentDir = a._[0]!;
    return runWithLog(ctx, { tool: 'fetch', crawlDir: segmentCrawlDir(segmentDir) }, async (log) => {
      const abort = new AbortController();
      const onSigint = () => {
        log.warn('interrupted: finishing the requests in flight, keeping what is fetched');
        abort.abort();
      };
      process.once('SIGINT', onSigint);
      try {
        const s = await fetch(ctx.conf, segmentDir, {
          threads: intOption(a.threads, 'threads'),
          parse: a.noParsing ? false : undefined,
          part: intOption(a.part, 'part'),
          log,
          signal: abort.signal,
        });
        for (const d of s.deferredQueues) log.info(`deferred ${d.urls} URLs of ${d.queue}: ${d.reason}`);
        const line = summaryLine(s);
        log.info(line);
        ctx.out.write(line + '\n');
        // A fetcher started by 'crawl -fetchers' tells the crawl what it fetched.
        process.send?.({ fetchSummary: s });
        return s.interrupted ? 130 : 0;
      } finally {
        process.off('SIGINT', onSigint);
      }
    });
  },
};

export default tool;
