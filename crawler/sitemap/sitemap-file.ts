/**
 * @module crawler/sitemap/sitemap-file
 * Reading one sitemap file per the sitemaps.org protocol: a `<urlset>` of
 * `<url>` entries (loc, lastmod, changefreq, priority), a `<sitemapindex>`
 * of further sitemaps, or a plain-text list of URLs. The XML reader of the
 * configuration reads it as a stream of events, forgivingly, so a huge file
 * costs no tree and a broken one gives the entries it has; entries past the
 * bound are counted, not kept. Nothing in a file makes this throw.
 */
import { readXml } from '../../shared/xml.js';

export type ChangeFreq = 'always' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'never';
const CHANGEFREQS = new Set<string>(['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never']);

export interface SitemapEntry {
  loc: string;
  /** ms since the epoch. */
  lastmod?: number;
  changefreq?: ChangeFreq;
  /** 0.0–1.0. */
  priority?: number;
}

export interface ParsedSitemap {
  kind: 'urlset' | 'sitemapindex' | 'text' | 'unknown';
  /** Page entries (urlset, text). */
  urls: SitemapEntry[];
  /** Further sitemaps (sitemapindex). */
  sitemaps: SitemapEntry[];
  /** Entries past `maxEntries`. */
  overLimit: number;
  /** Entries without a valid absolute http(s) loc. */
  invalid: number;
}

const localName = (n: string) => n.slice(n.indexOf(':') + 1).toLowerCase();

function absoluteHttp(s: string): string | undefined {
  try {
    const u = new URL(s.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** W3C datetime (a date, or a date and time with a zone) to ms; undefined when it does not parse. */
export function parseLastmod(s: string): number | undefined {
  const t = s.trim();
  if (!/^\d{4}(-\d{2}(-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/.test(t)) return undefined;
  const ms = Date.parse(/^\d{4}(-\d{2})?$/.test(t) ? `${t.length === 4 ? `${t}-01` : t}-01` : t);
  return Number.isFinite(ms) ? ms : undefined;
}

export function parseSitemap(text: string, maxEntries: number): ParsedSitemap {
  const out: ParsedSitemap = { kind: 'unknown', urls: [], sitemaps: [], overLimit: 0, invalid: 0 };
  const body = text.replace(/^\uFEFF/, '');
  if (!/^\s*</.test(body)) return parseTextSitemap(body, maxEntries, out);

  let entry: Record<string, string> | null = null;
  let field: string | null = null;
  const add = (list: SitemapEntry[], e: Record<string, string>) => {
    const loc = e.loc === undefined ? undefined : absoluteHttp(e.loc);
    if (!loc) return void out.invalid++;
    if (out.urls.length + out.sitemaps.length >= maxEntries) return void out.overLimit++;
    const x: SitemapEntry = { loc };
    const lastmod = e.lastmod === undefined ? undefined : parseLastmod(e.lastmod);
    if (lastmod !== undefined) x.lastmod = lastmod;
    const cf = e.changefreq?.trim().toLowerCase();
    if (cf && CHANGEFREQS.has(cf)) x.changefreq = cf as ChangeFreq;
    const p = e.priority === undefined ? NaN : Number(e.priority.trim());
    if (e.priority?.trim() && Number.isFinite(p) && p >= 0 && p <= 1) x.priority = p;
    list.push(x);
  };
  readXml(
    body,
    {
      open(name) {
        const n = localName(name);
        if (out.kind === 'unknown' && (n === 'urlset' || n === 'sitemapindex')) out.kind = n;
        else if ((n === 'url' && out.kind === 'urlset') || (n === 'sitemap' && out.kind === 'sitemapindex')) entry = {};
        else if (entry && ['loc', 'lastmod', 'changefreq', 'priority'].includes(n)) (field = n), (entry[n] = '');
      },
      text(t) {
        if (entry && field) entry[field] += t;
      },
      close(name, implied) {
        const n = localName(name);
        if (n === field) field = null;
        // A file cut off mid-entry closes it implicitly: its loc may be cut too.
        else if (entry && (n === 'url' || n === 'sitemap')) {
          if (!implied) add(n === 'url' ? out.urls : out.sitemaps, entry);
          entry = null;
        }
      },
    },
    { forgiving: true },
  );
  return out;
}

/** The protocol's text form: one URL per line, nothing else. */
function parseTextSitemap(body: string, maxEntries: number, out: ParsedSitemap): ParsedSitemap {
  out.kind = 'text';
  for (const line of body.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const loc = absoluteHttp(line);
    if (!loc) out.invalid++;
    else if (out.urls.length >= maxEntries) out.overLimit++;
    else out.urls.push({ loc });
  }
  return out;
}

const HOUR = 3600;
const INTERVALS: Record<ChangeFreq, number> = {
  // "always" changes on every access: an hour is as often as a polite crawl asks.
  always: HOUR,
  hourly: HOUR,
  daily: 24 * HOUR,
  weekly: 7 * 24 * HOUR,
  monthly: 30 * 24 * HOUR,
  yearly: 365 * 24 * HOUR,
  never: 365 * 24 * HOUR,
};

/** Fetch interval in seconds for a changefreq, within [1 h, maxInterval]; the default without one. */
export function changefreqInterval(cf: ChangeFreq | undefined, defaultInterval: number, maxInterval: number): number {
  return cf ? Math.min(INTERVALS[cf], maxInterval) : defaultInterval;
}

/** Score from priority: the protocol's default 0.5 gives the injected score, 1.0 twice that, 0.0 nothing. */
export function priorityScore(priority: number | undefined, injectedScore: number): number {
  return priority === undefined ? injectedScore : (injectedScore * priority) / 0.5;
}
