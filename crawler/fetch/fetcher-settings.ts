/**
 * @module crawler/fetch/fetcher-settings
 * A fetch's options and the settings the fetch loop runs by, worked out
 * from the configuration before it fetches anything (so a bad value stops a
 * crawl early), the threads that parse and store, and the least time a
 * fetch will take.
 */
import type { Conf } from '../../shared/conf.js';
import { HzError, UsageError } from '../../shared/errors.js';
import type { Log } from '../log.js';
import { politeEta } from '../progress.js';
import { Segment } from '../../segments/segment.js';
import { WriterThreads } from '../../segments/segment-writer.js';
import { PARSE_THREAD_MODULE } from '../parse/thread.js';
import { FetchQueues } from './queues.js';

export interface FetcherSettings {
  threads: number;
  perHost: number;
  byIp: boolean;
  delayMs: number;
  minDelayMs: number;
  maxRedirects: number;
  ignoreExternal: boolean;
  /** fetcher.timelimit.mins in ms; negative: none. */
  timeLimitMs: number;
  /** fetcher.max.exceptions.per.queue; negative: none. */
  maxExceptions: number;
  /** fetcher.tail.max.time in ms; negative: none. */
  tailMaxMs: number;
  parse: boolean;
  storeContent: boolean;
  /**
   * On an interrupt, record the URLs not fetched as deferred (as the time
   * limit does), so the segment is complete and what was fetched can be
   * indexed at once; otherwise they stay unrecorded for a rerun to fetch.
   */
  deferOnAbort?: boolean;
}

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
export function atLeast(conf: Conf, name: string, value: number, min: number, shown: string | number = value): number {
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
