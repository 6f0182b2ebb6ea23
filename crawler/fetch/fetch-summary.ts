/**
 * @module crawler/fetch/fetch-summary
 * What a fetch reports (FetchSummary, kept up by the fetch loop as it
 * stores each record): one summary for the fetches of a segment's
 * partitions (by one fetcher or many), and its summary line.
 */
import type { FetchStatus } from '../../shared/page-status.js';

export interface FetchSummary {
  segment: string;
  /** URLs in the fetchlist. */
  total: number;
  /** Fetchlist URLs that already had a record when this run started (a resumed fetch). */
  resumed: number;
  /** Records written by this run, redirect hops included. */
  fetched: number;
  redirectsFollowed: number;
  byStatus: Partial<Record<FetchStatus, number>>;
  /** Pages left for a later cycle (Crawl-delay too long, time limit, long tail). */
  deferred: number;
  /** Pages robots.txt forbids (recorded as gone). */
  robotsDenied: number;
  /** Queues whose rest was left for the next cycle, with why. */
  deferredQueues: { queue: string; urls: number; reason: string }[];
  bytes: number;
  parsed: number;
  errors: number;
  /** Every fetchlist URL has a record: the segment is marked fetched. */
  complete: boolean;
  interrupted: boolean;
  elapsedMs: number;
}

/** The summary of a fetch of `total` fetchlist URLs before it has fetched any. */
export function emptyFetchSummary(segment: string, total: number): FetchSummary {
  return {
    segment,
    total,
    resumed: 0,
    fetched: 0,
    redirectsFollowed: 0,
    byStatus: {},
    deferred: 0,
    robotsDenied: 0,
    deferredQueues: [],
    bytes: 0,
    parsed: 0,
    errors: 0,
    complete: false,
    interrupted: false,
    elapsedMs: 0,
  };
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
