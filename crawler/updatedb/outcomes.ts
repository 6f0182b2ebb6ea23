/**
 * @module crawler/updatedb/outcomes
 * What one segment tells the WebDB, a fetched page at a time: its fetch
 * datum, the cash the scoring plugin hands each URL it links to (outlinks,
 * HTTP redirect targets recorded with http.redirect.max = 0, meta refresh
 * targets), and its new outlink rows when its links changed. A meta refresh
 * makes the page a redirect, temporary below five seconds as in Nutch's
 * Fetcher (PERM_REFRESH_TIME), permanent otherwise; a redirect is kept in the
 * link graph as one link, so link scores flow through it to its target.
 */
import type { NormalizerScope, ScoringFilter } from '../../shared/plugin/extension-points.js';
import type { FetchStatus } from '../../shared/page-status.js';
import type { Outlink, ParseLinks, Segment } from '../../segments/segment.js';
import type { CrawlerPlugins } from '../plugin/chains.js';
import { memoByUrl } from '../url-memo.js';
import type { FetchDatum } from '../webdb/interface.js';

/** A meta refresh this many seconds or longer counts as a permanent redirect. */
export const PERM_REFRESH_TIME = 5;

/** One fetched page of a segment, keyed as the WebDB keys it. */
export interface PageUpdate {
  url: string;
  fetch: FetchDatum;
  /** The page's outlinks replacing its rows in `links` (an empty list deletes them); undefined leaves them. */
  outlinks: Outlink[] | undefined;
  /** [target, cash] for every URL the page links to, in the order the cash was handed out. */
  cash: [string, number][];
}

export interface CollectOptions {
  /** Normalize URLs (scope `crawldb`) before they key the WebDB. */
  normalize: boolean;
  /** Drop URLs the URL filters reject. */
  filter: boolean;
}

type Plugins = Pick<CrawlerPlugins, 'normalizers' | 'filters'> & { scoring: Pick<ScoringFilter, 'distributeScoreToOutlinks'> };

function lastModified(headers: Record<string, string>): number {
  const t = Date.parse(headers['last-modified'] ?? '');
  return Number.isFinite(t) ? t : 0;
}

/** The effective fetch status and redirect target of a fetch and its parse. */
function redirectOf(status: FetchStatus, redirectTo: string | null | undefined, parse: ParseLinks | undefined) {
  if ((status === 'fetch_redir_temp' || status === 'fetch_redir_perm') && redirectTo) return { status, target: redirectTo };
  const refresh = status === 'fetch_success' && parse?.status === 'success' ? parse.meta.refresh : undefined;
  if (refresh) return { status: (refresh.delay < PERM_REFRESH_TIME ? 'fetch_redir_temp' : 'fetch_redir_perm') as FetchStatus, target: refresh.url };
  return { status, target: undefined };
}

/** The segment's fetched pages in fetch order; `scoreOf` gives the score of a page not in the fetchlist. */
export function* collectPages(seg: Segment, plugins: Plugins, o: CollectOptions, scoreOf: (url: string) => number | undefined): Generator<PageUpdate> {
  const keyIn = (scope: NormalizerScope) => (url: string): string | null => {
    const n = o.normalize ? plugins.normalizers.normalize(url, scope) : url;
    return n !== null && o.filter ? plugins.filters.filter(n) : n;
  };
  const key = memoByUrl(keyIn('crawldb'));
  const redirectKey = keyIn('fetcher');
  for (const { fetch: f, parse, gen } of seg.fetchUpdates()) {
    const url = key(f.url);
    if (url === null) continue;
    const { status, target: rawTarget } = redirectOf(f.status, f.redirectTo, parse);
    const score = gen?.score ?? scoreOf(url) ?? 0;
    const datum: FetchDatum = {
      status,
      fetchTime: f.fetchTime,
      signature: parse?.signature ?? null,
      modifiedTime: lastModified(f.headers),
      protocolStatus: f.protocolStatus,
      etag: f.headers.etag ?? null,
      lastModified: f.headers['last-modified'] ?? null,
    };
    if (gen) {
      const d = gen.datum;
      datum.generated = {
        score: gen.score,
        ...(typeof d.fetch_interval === 'number' ? { fetch_interval: d.fetch_interval } : {}),
        ...(typeof d.retries === 'number' ? { retries: d.retries } : {}),
      };
    }

    // The page's outlinks, keyed as the WebDB keys them.
    const outlinks: Outlink[] = [];
    const seen = new Set<string>();
    if (parse?.status === 'success')
      for (const l of parse.outlinks) {
        const t = key(l.url);
        if (t === null || t === url || seen.has(`${t}\n${l.anchor}`)) continue;
        seen.add(`${t}\n${l.anchor}`);
        outlinks.push(l.nav ? { url: t, anchor: l.anchor, nav: true } : { url: t, anchor: l.anchor });
      }
    const target = rawTarget === undefined ? null : redirectKey(rawTarget);
    if (target !== null && target !== url && !seen.has(`${target}\n`)) outlinks.push({ url: target, anchor: '' });
    const replaces = status === 'fetch_success' || target !== null || status === 'fetch_redir_temp' || status === 'fetch_redir_perm' || status === 'fetch_gone';

    const targets = [...new Set(outlinks.map((l) => l.url))];
    const allCount = typeof parse?.meta.outlinkCount === 'number' ? parse.meta.outlinkCount + (target !== null ? 1 : 0) : targets.length;
    const cash: [string, number][] = [];
    const paid = new Set<string>();
    for (const [to, c] of plugins.scoring.distributeScoreToOutlinks(url, score, targets, allCount)) {
      if (to === url) datum.scoreAdjust = (datum.scoreAdjust ?? 0) + c;
      else {
        cash.push([to, c]);
        paid.add(to);
      }
    }
    // Every target is linked, even when the scoring plugin hands it no cash.
    for (const to of targets) if (!paid.has(to)) cash.push([to, 0]);
    yield { url, fetch: datum, outlinks: replaces ? (status === 'fetch_gone' ? [] : outlinks) : undefined, cash };
  }
}
