/**
 * @module crawler/fetch/tool
 * `hazelnut fetch <segment>`: fetches a generated segment's fetchlist
 * politely (per-host queues, robots.txt, delays), parses inline unless
 * told not to, and marks the segment fetched (and parsed) once every URL has
 * a record. Interrupted (SIGINT) or killed, it keeps what it stored; run it
 * again to continue. The WebDB next to the segments directory, when there is
 * one, caches robots.txt per host for a day; fetch does not take the crawl
 * lock, so a generate or updatedb of another segment may run meanwhile.
 */
import type { Conf } from '../../shared/conf.js';
import { HzError, UsageError } from '../../shared/errors.js';
import type { Log } from '../../shared/log.js';
import { politeEta } from '../../shared/progress.js';
import { intOption, parseArgs, type Tool } from '../../shared/tool.js';
import { Segment } from '../../segments/segment.js';
import { loadCrawlerPlugins } from '../plugins.js';
import { runWithLog } from '../tool-run.js';
import { crawlPaths, segmentCrawlDir } from '../../shared/layout.js';
import { hasWebDb, openWebDb, type WebDb } from '../webdb/webdb.js';
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

/** The WebDB of the crawl a segment belongs to (`<crawl>/segments/<name>` → `<crawl>/webdb`), if there is one. */
function crawlWebDbDir(segmentDir: string): string | undefined {
  const dir = crawlPaths(segmentCrawlDir(segmentDir)).webdb;
  return hasWebDb(dir) ? dir : undefined;
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
  const ua = userAgent(conf);
  const settings = fetcherSettings(conf, opts);
  const segment = Segment.open(segmentDir);
  const webDbDir = crawlWebDbDir(segmentDir);
  const webdb = webDbDir ? openWebDb(webDbDir) : undefined;
  let protocols: Protocols | undefined;
  try {
    if (!segment.hasPhase('generated'))
      throw new HzError('HZ_ERR_SEGMENT_STATE', `segment ${segmentDir} was not completely generated; delete it and run generate again`);
    if (segment.hasPhase('fetched')) throw new HzError('HZ_ERR_SEGMENT_STATE', `segment ${segmentDir} is already fetched`);
    const plugins = await loadCrawlerPlugins(conf);
    opts.log?.info(`fetching ${segmentDir} as "${ua}", ${settings.threads} threads; plugins: ${plugins.active.map((p) => p.id).join(' ')}`);
    protocols = startProtocols(withLoopback(conf, seedsOnLoopback(segment, webdb)), plugins.protocols);
    const robots = new RobotsCache({ http: protocols, agents: robotsAgents(conf), webdb });
    const summary = await new Fetcher(conf, segment, plugins, robots, fetchSteps(conf, protocols, robots, opts.signal), settings, opts.log, opts.signal).run();
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
    segment.close();
    webdb?.close();
  }
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
  description: 'fetch a generated segment politely (robots.txt, per-host delays), parsing inline',
  usage: `Usage: hazelnut fetch <segment> [-threads n] [-noParsing]
  <segment>     a segment directory made by generate (<crawl>/segments/<yyyyMMddHHmmss>)
  -threads n    concurrent requests in all (default fetcher.threads.fetch)
  -noParsing    store content only; run 'hazelnut parse <segment>' later (default: fetcher.parse)
Interrupt with Ctrl-C and run the same command again to continue where it stopped.`,
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['threads'], boolean: ['noParsing'] });
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
          log,
          signal: abort.signal,
        });
        for (const d of s.deferredQueues) log.info(`deferred ${d.urls} URLs of ${d.queue}: ${d.reason}`);
        const line = summaryLine(s);
        log.info(line);
        ctx.out.write(line + '\n');
        return s.interrupted ? 130 : 0;
      } finally {
        process.off('SIGINT', onSigint);
      }
    });
  },
};

export default tool;
