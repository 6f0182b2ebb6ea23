/**
 * @module crawler/fetch/status
 * What one HTTP answer means for the page (Nutch's HttpBase + Fetcher
 * mapping, reference §4.8): the fetch status updatedb merges and the
 * protocol status that says why. Pure, so the table test is the spec.
 */
import type { FetchStatus, ProtocolStatus } from '../../shared/page-status.js';

export interface StatusOutcome {
  status: FetchStatus;
  protocolStatus: ProtocolStatus;
}

/** The outcome of an HTTP status code. */
export function httpOutcome(code: number): StatusOutcome {
  if (code >= 200 && code < 300) return { status: 'fetch_success', protocolStatus: 'success' };
  if (code === 304) return { status: 'fetch_notmodified', protocolStatus: 'notmodified' };
  if (code === 302 || code === 303 || code === 307) return { status: 'fetch_redir_temp', protocolStatus: 'temp_moved' };
  // 301, 308 and the other 3xx (300, 305) are permanent, as in Nutch.
  if (code >= 300 && code < 400) return { status: 'fetch_redir_perm', protocolStatus: 'moved' };
  if (code === 404) return { status: 'fetch_gone', protocolStatus: 'notfound' };
  if (code === 400 || code === 410) return { status: 'fetch_gone', protocolStatus: 'gone' };
  if (code === 401) return { status: 'fetch_gone', protocolStatus: 'access_denied' };
  // 403, 429, 5xx and anything unexpected: maybe temporary, retried (db.fetch.retry.max before gone).
  return { status: 'fetch_retry', protocolStatus: 'exception' };
}

/** A transport failure (timeout, refused, reset, DNS): retried later. */
export function exceptionOutcome(): StatusOutcome {
  return { status: 'fetch_retry', protocolStatus: 'exception' };
}

/** robots.txt forbids the URL: never fetched, gone (Nutch's ROBOTS_DENIED). */
export function robotsDeniedOutcome(): StatusOutcome {
  return { status: 'fetch_gone', protocolStatus: 'robots_denied' };
}

/**
 * Left for a later cycle without counting as a failure: the host asks for a
 * Crawl-delay above fetcher.max.crawl.delay, or the fetch stopped at its time
 * limit or long-tail bound. updatedb reschedules `blocked` like a retry but
 * does not count it towards db.fetch.retry.max.
 */
export function deferredOutcome(): StatusOutcome {
  return { status: 'fetch_retry', protocolStatus: 'blocked' };
}

/** robots.txt unreachable (5xx, 429, network): RFC 9309 says disallow all, so the page waits and is retried. */
export function robotsUnreachableOutcome(): StatusOutcome {
  return { status: 'fetch_retry', protocolStatus: 'retry' };
}

/** Too many redirect hops or a redirect loop. */
export function redirectExceededOutcome(): StatusOutcome {
  return { status: 'fetch_gone', protocolStatus: 'redir_exceeded' };
}
