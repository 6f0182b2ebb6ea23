/**
 * @module crawler/fetch/step
 * Fetching one URL as a stack of small steps, in the manner of undici's
 * interceptors: `FetchStep = (next: FetchCall) => FetchCall`. The transport is the
 * innermost FetchCall; robots.txt and charset detection wrap it. Scheduling
 * (politeness) is not a step: a step that waited would hold a worker that a
 * ready host could use, so queues.ts hands out only URLs whose host may be
 * asked now.
 */
import type { ContentRecord, FetchRecord } from '../../segments/segment.js';
import type { Conf } from '../../shared/conf.js';
import { DEFAULT_CHARSET, detectCharset, isTextType } from '../encoding.js';
import { ProtocolFailure } from '../../shared/plugin/protocol-failure.js';
import type { Protocols } from './protocols.js';
import { hasRobotsTxt, type RobotsCache } from './robots.js';
import { deferredOutcome, exceptionOutcome, httpOutcome, robotsDeniedOutcome, robotsUnreachableOutcome } from './status.js';

export interface FetchItem {
  url: string;
  /** The WebDB row at generate time (etag, last_modified, modified_time, …). */
  datum: Record<string, unknown>;
  /** Redirect hops taken to reach this URL (0 for a fetchlist URL). */
  hop: number;
  /** URLs of the redirect chain so far, this one included. */
  chain: string[];
}

export interface FetchOutcome {
  record: FetchRecord;
  content?: ContentRecord;
  /** Why the page was left for a later cycle, when it was. */
  deferred?: string;
  /** A transport failure (counts towards fetcher.max.exceptions.per.queue). */
  exception?: boolean;
}

export type FetchCall = (item: FetchItem) => Promise<FetchOutcome>;
export type FetchStep = (next: FetchCall) => FetchCall;

/** Wraps `inner` in `steps`, the first step outermost. */
export function compose(inner: FetchCall, ...steps: FetchStep[]): FetchCall {
  return steps.reduceRight<FetchCall>((next, step, i) => {
    const f = step(next);
    if (typeof f !== 'function') throw new TypeError(`fetch step ${i} did not return a function`);
    return f;
  }, inner);
}

function outcomeRecord(url: string, o: { status: FetchRecord['status']; protocolStatus: FetchRecord['protocolStatus'] }, message: string, meta?: Record<string, unknown>): FetchRecord {
  return { url, ...o, httpStatus: null, fetchTime: Date.now(), headers: {}, message, meta };
}

/** The validators of a refetch: Nutch sends If-Modified-Since when the page has a modified time (NUTCH-815 fixed). */
export function conditionalHeaders(datum: Record<string, unknown>): { ifModifiedSince?: string; ifNoneMatch?: string } {
  const out: { ifModifiedSince?: string; ifNoneMatch?: string } = {};
  if (typeof datum.etag === 'string' && datum.etag) out.ifNoneMatch = datum.etag;
  if (typeof datum.last_modified === 'string' && datum.last_modified) out.ifModifiedSince = datum.last_modified;
  else if (typeof datum.modified_time === 'number' && datum.modified_time > 0) out.ifModifiedSince = new Date(datum.modified_time).toUTCString();
  return out;
}

/** The transport as the innermost FetchCall: one request through the protocol plugin of the URL's scheme, its status mapped, 2xx bodies kept as content. */
export function protocolFetch(protocols: Pick<Protocols, 'get'>, signal?: AbortSignal): FetchCall {
  return async (item) => {
    const started = Date.now();
    const hopMeta = item.hop > 0 ? { hop: item.hop, redirectFrom: item.chain[item.chain.length - 2] } : {};
    try {
      const res = await protocols.get({ url: item.url, signal, ...conditionalHeaders(item.datum) });
      const outcome = httpOutcome(res.status);
      const contentType = res.headers['content-type'] ?? null;
      const record: FetchRecord = {
        url: item.url,
        ...outcome,
        httpStatus: res.status,
        fetchTime: started,
        headers: res.headers,
        contentType,
        redirectTo: null,
        message: outcome.status === 'fetch_retry' ? `Http code=${res.status}` : null,
        meta: { ...hopMeta, ms: Date.now() - started, wireBytes: res.wireBytes, ...(res.truncated ? { truncated: true } : {}) },
      };
      const content: ContentRecord | undefined =
        outcome.status === 'fetch_success' ? { url: item.url, contentType, charset: null, bytes: res.body, truncated: res.truncated } : undefined;
      return { record, content };
    } catch (e) {
      if (!(e instanceof ProtocolFailure)) throw e;
      return { record: outcomeRecord(item.url, exceptionOutcome(), e.message, { ...hopMeta, error: e.code }), exception: true };
    }
  };
}

/** Decides the charset of text content and stores the name with it. */
export function charsetStep(fallback: string): FetchStep {
  return (next) => async (item) => {
    const o = await next(item);
    if (o.content && isTextType(o.content.contentType)) {
      const c = detectCharset(o.content.bytes, o.content.contentType, fallback);
      o.content.charset = c.charset;
      o.record.meta = { ...o.record.meta, charset: c.charset, charsetSource: c.source };
    }
    return o;
  };
}

/**
 * robots.txt: a disallowed URL is never requested (fetch_gone, robots_denied);
 * an unreachable robots.txt means disallow all for now (fetch_retry); a
 * Crawl-delay above `maxCrawlDelayMs` defers the page to a later cycle
 * instead of marking it gone as Nutch did. The rules must already be known
 * (the fetch loop fetches robots.txt politely, as a request of its own).
 */
export function robotsStep(robots: RobotsCache, origin: (url: string) => string, maxCrawlDelayMs: number): FetchStep {
  return (next) => async (item) => {
    if (!hasRobotsTxt(item.url)) return next(item);
    const rules = await robots.get(origin(item.url));
    if (rules.state.status === 'disallow_all')
      return { record: outcomeRecord(item.url, robotsUnreachableOutcome(), `robots.txt unreachable (${rules.state.reason}): RFC 9309 disallows all until it answers`) };
    if (!rules.allowed(item.url)) return { record: outcomeRecord(item.url, robotsDeniedOutcome(), 'denied by robots.txt') };
    const delay = rules.crawlDelayMs;
    if (delay !== undefined && maxCrawlDelayMs >= 0 && delay > maxCrawlDelayMs) {
      const why = `Crawl-delay ${delay / 1000} s is above fetcher.max.crawl.delay ${maxCrawlDelayMs / 1000} s`;
      return { record: outcomeRecord(item.url, deferredOutcome(), why, { deferred: 'crawl-delay' }), deferred: why };
    }
    return next(item);
  };
}

/** One URL's fetch as the fetcher runs it: robots.txt (unless `robots` is null), the request, the charset. */
export function fetchSteps(conf: Conf, protocols: Protocols, robots: RobotsCache | null, signal?: AbortSignal): FetchCall {
  const maxCrawlDelay = conf.getFloat('fetcher.max.crawl.delay');
  const charset = charsetStep(conf.isDeclared('parser.character.encoding.default') ? conf.get('parser.character.encoding.default') : DEFAULT_CHARSET);
  if (!robots) return compose(protocolFetch(protocols, signal), charset);
  return compose(protocolFetch(protocols, signal), robotsStep(robots, (u) => new URL(u).origin, maxCrawlDelay < 0 ? -1 : maxCrawlDelay * 1000), charset);
}
