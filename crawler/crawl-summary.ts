/**
 * @module crawler/crawl-summary
 * What a crawl did, as it tells its user: the pages per outcome, each counted
 * once, the links left out, the segments, the index and the time each phase
 * took. Pure over the summary the crawl's steps fill in.
 */
import type { FetchStatus } from '../shared/page-status.js';
import type { FetchSummary } from './fetch/tool.js';
import type { OutlinksDropped } from './parse/parse-content.js';
import type { SitemapSummary } from './sitemap/processor.js';

export interface CrawlSummary {
  dir: string;
  injected: number;
  /** What the seed hosts' sitemaps added (crawl.sitemaps). */
  sitemaps?: SitemapSummary;
  /** Segments made or resumed by this run. */
  segments: string[];
  /** Pages fetched by this run, by fetch status. */
  byStatus: Partial<Record<FetchStatus, number>>;
  robotsDenied: number;
  /** Links of the fetched pages that a cap or filter left out. */
  linksDropped: OutlinksDropped;
  deferred: number;
  /** Due URLs left for the next crawl when every round ran, and why (crawler/waiting). */
  waiting?: string;
  documents: number;
  /** Nothing new to index: the merged index was left as it was (`documents` is what it holds). */
  indexUnchanged?: boolean;
  duplicates: number;
  /** Why the depth loop ended before -depth, if it did. */
  stoppedEarly?: string;
  interrupted: boolean;
  /** Milliseconds per phase, summed over the depth loop. */
  phases: Record<string, number>;
  /** The process's peak resident memory (MB) when each phase last ended: which phase raised it. */
  peakRssMB?: Record<string, number>;
}

/** A crawl's summary before it has done anything. */
export function emptySummary(dir: string): CrawlSummary {
  return {
    dir,
    injected: 0,
    segments: [],
    byStatus: {},
    robotsDenied: 0,
    linksDropped: { cap: 0, filtered: 0, external: 0 },
    deferred: 0,
    documents: 0,
    duplicates: 0,
    interrupted: false,
    phases: {},
  };
}

/** Adds a fetch's outcomes to the crawl's. */
export function tally(s: CrawlSummary, f: FetchSummary): void {
  for (const [k, v] of Object.entries(f.byStatus) as [FetchStatus, number][]) s.byStatus[k] = (s.byStatus[k] ?? 0) + v;
  s.deferred += f.deferred;
  s.robotsDenied += f.robotsDenied;
}

/** Each URL the run tried, counted once under its outcome: robots-denied pages are not also gone, nor gone ones fetched. */
export function outcomes(s: Pick<CrawlSummary, 'byStatus' | 'robotsDenied' | 'deferred'>) {
  const n = (k: FetchStatus) => s.byStatus[k] ?? 0;
  return {
    fetched: n('fetch_success') + n('fetch_notmodified'),
    ok: n('fetch_success'),
    notModified: n('fetch_notmodified'),
    failed: n('fetch_retry') - s.deferred,
    gone: n('fetch_gone') - s.robotsDenied,
    redirected: n('fetch_redir_perm') + n('fetch_redir_temp'),
    robotsDenied: s.robotsDenied,
    deferred: s.deferred,
  };
}

function linksDropped(d: OutlinksDropped): string {
  const parts = [
    d.cap ? `${d.cap} over db.max.outlinks.per.page` : '',
    d.filtered ? `${d.filtered} by URL filters` : '',
    d.external ? `${d.external} external (db.ignore.external.links)` : '',
  ].filter(Boolean);
  return `${d.cap + d.filtered + d.external}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

const seconds = (ms: number, digits = 1) => `${(ms / 1000).toFixed(digits)} s`;

/** The time spent since `before` (phase totals), in all and per phase: `2.31 s: generate 0.05 s, fetch 1.82 s, updatedb 0.44 s`. */
export function phaseTimes(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): string {
  const spent = Object.entries(after)
    .map(([k, v]) => [k, v - (before[k] ?? 0)] as const)
    .filter(([, ms]) => ms > 0);
  return `${seconds(spent.reduce((n, [, ms]) => n + ms, 0), 2)}: ${spent.map(([k, ms]) => `${k} ${seconds(ms, 2)}`).join(', ')}`;
}

export function formatSummary(s: CrawlSummary): string {
  const o = outcomes(s);
  const lines = [
    `crawl: ${s.dir}${s.interrupted ? ' (interrupted: what was fetched is indexed; run the same command again to fetch the rest)' : ''}`,
    ...(s.stoppedEarly ? [`  ${s.stoppedEarly}`] : []),
    `  pages fetched      ${o.fetched} (${o.ok} ok, ${o.notModified} not modified)`,
    `  failed             ${o.failed} (will be retried)`,
    `  gone               ${o.gone}`,
    `  redirected         ${o.redirected}`,
    `  robots-denied      ${o.robotsDenied}`,
    ...(s.sitemaps?.files ? [`  from sitemaps      ${s.sitemaps.injected} new, ${s.sitemaps.due} due by lastmod (${s.sitemaps.urls} URLs in ${s.sitemaps.files} files)`] : []),
    `  links dropped      ${linksDropped(s.linksDropped)}`,
    ...(o.deferred ? [`  deferred           ${o.deferred} (left for the next crawl)`] : []),
    ...(s.waiting ? [`  waiting            ${s.waiting}`] : []),
    `  segments           ${s.segments.length}${s.segments.length ? ` (${s.segments.join(', ')})` : ''}`,
    ...(s.indexUnchanged
      ? [`  index unchanged    ${s.documents} documents`]
      : [`  documents indexed  ${s.documents}`, `  duplicates removed ${s.duplicates}`]),
    `  time per phase     ${Object.entries(s.phases)
      .map(([k, v]) => `${k} ${seconds(v)}`)
      .join(', ')}`,
  ];
  return lines.join('\n');
}
