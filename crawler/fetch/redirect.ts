/**
 * @module crawler/fetch/redirect
 * What to do with a redirect (HTTP 3xx), decided without I/O. With
 * `http.redirect.max` 0 (Nutch's default) the target is recorded and fetched
 * in a later cycle; above 0 it is followed now, as a new queued request, so
 * every hop passes the normalizers, the URL filters, robots.txt and the
 * host's politeness delay like any other URL. Loops end at the first repeat;
 * a chain longer than the maximum leaves its next target for a later cycle
 * rather than losing it (Nutch marked that page gone).
 */
import type { UrlFilterChain } from '../plugin/chains.js';

export type RedirectDecision =
  /** Fetch the target now, at hop `hop` of the chain. */
  | { kind: 'follow'; url: string; hop: number }
  /** Store the target in the fetch record; updatedb adds it for a later cycle. */
  | { kind: 'record'; url: string; reason: string }
  /** Nothing to follow or record. */
  | { kind: 'drop'; reason: string }
  /** The target was already visited in this chain. */
  | { kind: 'loop'; url: string; chain: string[] };

export interface RedirectInput {
  /** The URL that answered with the redirect. */
  from: string;
  location: string | null | undefined;
  /** Hops already taken to reach `from` (0 for a fetchlist URL). */
  hop: number;
  /** URLs of this chain so far, `from` included. */
  chain: string[];
  /** http.redirect.max */
  maxRedirects: number;
  /** db.ignore.external.links: drop targets on another host. */
  ignoreExternal: boolean;
  /** The fetcher-scope normalizer chain; null drops the URL. */
  normalize(url: string): string | null;
  /** The URL filter chain, which also keeps a web page from leading to a local file. */
  filters: Pick<UrlFilterChain, 'rejection'>;
}

export function decideRedirect(r: RedirectInput): RedirectDecision {
  if (!r.location) return { kind: 'drop', reason: 'redirect without a Location header' };
  let target: string;
  try {
    target = new URL(r.location, r.from).href;
  } catch {
    return { kind: 'drop', reason: `bad Location ${JSON.stringify(r.location)}` };
  }
  const normalized = r.normalize(target);
  if (!normalized) return { kind: 'drop', reason: `Location ${target} dropped by the normalizers` };
  const rejected = r.filters.rejection(normalized, r.from);
  if (rejected) return { kind: 'drop', reason: `Location ${normalized} ${rejected}` };
  if (r.ignoreExternal && new URL(normalized).host !== new URL(r.from).host)
    return { kind: 'drop', reason: `Location ${normalized} is on another host (db.ignore.external.links)` };
  if (normalized === r.from || r.chain.includes(normalized))
    return { kind: 'loop', url: normalized, chain: [...r.chain, normalized] };
  if (r.maxRedirects <= 0) return { kind: 'record', url: normalized, reason: 'http.redirect.max is 0' };
  if (r.hop >= r.maxRedirects) return { kind: 'record', url: normalized, reason: `more than ${r.maxRedirects} redirects (http.redirect.max)` };
  return { kind: 'follow', url: normalized, hop: r.hop + 1 };
}
