/**
 * @module crawler/sitemap/processor
 * Sitemaps of the crawl's seed hosts (Nutch 1.14's SitemapProcessor, run
 * by `crawl` before its first generate): the `Sitemap:` lines of each
 * host's robots.txt, else `/sitemap.xml`; sitemap indexes are followed,
 * gzipped files unpacked. Pages a sitemap lists go into the WebDB like
 * seeds, their `changefreq` as fetch interval and `priority` as score; a
 * known page whose `lastmod` is newer than its last fetch becomes due now.
 * Everything is bounded: files per host (`sitemap.max.count`), URLs per
 * host (`sitemap.max.urls`) and bytes per file (`sitemap.max.size`). A
 * sitemap lists pages of its own host only (the protocol's rule); robots.txt
 * and the URL filters apply to the sitemaps and to what they list.
 */
import zlib from 'node:zlib';
import type { Conf } from '../../shared/conf.js';
import type { Log } from '../log.js';
import { host } from '../url/keys.js';
import { robotsAgents } from '../fetch/protocol-http.js';
import { withLoopback } from '../fetch/address.js';
import { startProtocols } from '../fetch/protocols.js';
import { RobotsCache, type RobotsTransport } from '../fetch/robots.js';
import type { CrawlerPlugins } from '../plugin/chains.js';
import { openWebDb, type Seed, type WebDb } from '../webdb/webdb.js';
import { changefreqInterval, parseSitemap, priorityScore, type SitemapEntry } from './sitemap-file.js';

export interface SitemapLimits {
  maxFiles: number;
  maxUrls: number;
  maxBytes: number;
}

export interface SitemapSummary {
  /** Sitemap files read. */
  files: number;
  /** Page URLs they listed that passed the filters. */
  urls: number;
  injected: number;
  /** Known pages made due by a newer lastmod. */
  due: number;
  /** URLs left out: another host, filtered, or past a limit. */
  skipped: number;
  /** Files that could not be read, with why. */
  problems: { url: string; reason: string }[];
}

export function sitemapLimits(conf: Conf): SitemapLimits {
  return { maxFiles: conf.getInt('sitemap.max.count'), maxUrls: conf.getInt('sitemap.max.urls'), maxBytes: conf.getInt('sitemap.max.size') };
}

/** The body of a sitemap, gunzipped when it is a .gz file rather than gzip transfer coding; bounded either way. */
export function sitemapText(body: Buffer, maxBytes: number): string {
  if (body[0] !== 0x1f || body[1] !== 0x8b) return body.toString('utf8');
  return zlib.gunzipSync(body, { maxOutputLength: maxBytes }).toString('utf8');
}

interface HostSitemaps {
  origin: string;
  entries: SitemapEntry[];
  files: number;
  skipped: number;
  problems: { url: string; reason: string }[];
}

/** Reads one origin's sitemaps breadth-first, following indexes, within the limits. */
export async function readHostSitemaps(
  origin: string,
  deps: { http: RobotsTransport; robots: RobotsCache; limits: SitemapLimits; delayMs: number; log?: Log },
): Promise<HostSitemaps> {
  const { http, limits } = deps;
  const rules = await deps.robots.get(origin);
  const out: HostSitemaps = { origin, entries: [], files: 0, skipped: 0, problems: [] };
  const listed = rules.sitemaps.filter((u) => sameOrigin(u, origin));
  const queue = listed.length ? listed : [`${origin}/sitemap.xml`];
  const seen = new Set(queue);
  const implicit = listed.length === 0;
  while (queue.length && out.files < limits.maxFiles) {
    const url = queue.shift()!;
    if (!rules.allowed(url)) {
      out.problems.push({ url, reason: 'denied by robots.txt' });
      continue;
    }
    if (out.files > 0 && deps.delayMs > 0) await new Promise((r) => setTimeout(r, deps.delayMs));
    out.files++;
    let text: string;
    try {
      const res = await http.get({ url, limit: limits.maxBytes });
      if (res.status !== 200) {
        // No /sitemap.xml is the common case, not a problem worth a warning.
        if (!(implicit && res.status === 404)) out.problems.push({ url, reason: `HTTP ${res.status}` });
        if (implicit && res.status === 404) out.files--;
        continue;
      }
      if (res.truncated) {
        out.problems.push({ url, reason: `larger than ${limits.maxBytes} bytes (sitemap.max.size)` });
        continue;
      }
      text = sitemapText(res.body, limits.maxBytes);
    } catch (e) {
      out.problems.push({ url, reason: (e as Error).message });
      continue;
    }
    const room = limits.maxUrls - out.entries.length;
    const parsed = parseSitemap(text, Math.max(room, limits.maxFiles));
    if (parsed.kind === 'unknown') {
      out.problems.push({ url, reason: 'not a sitemap (no <urlset> or <sitemapindex>)' });
      continue;
    }
    for (const s of parsed.sitemaps)
      if (!seen.has(s.loc) && sameOrigin(s.loc, origin)) {
        seen.add(s.loc);
        queue.push(s.loc);
      }
    for (const e of parsed.urls) {
      if (!sameOrigin(e.loc, origin) || out.entries.length >= limits.maxUrls) out.skipped++;
      else out.entries.push(e);
    }
    out.skipped += parsed.overLimit;
    deps.log?.info(`sitemap ${url}: ${parsed.kind}, ${parsed.urls.length} URLs, ${parsed.sitemaps.length} sitemaps${parsed.invalid ? `, ${parsed.invalid} invalid entries` : ''}`);
  }
  if (queue.length) out.problems.push({ url: queue[0]!, reason: `${queue.length} more sitemaps not read (sitemap.max.count = ${limits.maxFiles})` });
  return out;
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** Normalized, filtered WebDB seeds for sitemap entries; the newest entry wins for a URL listed twice. */
export function sitemapSeeds(conf: Conf, plugins: Pick<CrawlerPlugins, 'normalizers' | 'filters' | 'scoring'>, entries: SitemapEntry[]): { seeds: (Seed & { lastmod?: number })[]; filtered: number } {
  const injectedScore = conf.getFloat('db.score.injected');
  const defaultInterval = Math.round(conf.getDuration('db.fetch.interval.default', 's') / 1000);
  const maxInterval = Math.round(conf.getDuration('db.fetch.interval.max', 's') / 1000);
  const byUrl = new Map<string, Seed & { lastmod?: number }>();
  let filtered = 0;
  for (const e of entries) {
    const norm = plugins.normalizers.normalize(e.loc, 'inject');
    const url = norm === null ? null : plugins.filters.filter(norm);
    if (url === null) {
      filtered++;
      continue;
    }
    const prev = byUrl.get(url);
    if (prev && (prev.lastmod ?? 0) >= (e.lastmod ?? 0)) continue;
    const seed: Seed & { lastmod?: number } = {
      url,
      host: host(url),
      score: plugins.scoring.injectedScore(url, priorityScore(e.priority, injectedScore)),
      interval: changefreqInterval(e.changefreq, defaultInterval, maxInterval),
      meta: JSON.stringify({ source: 'sitemap' }),
    };
    if (e.lastmod !== undefined) seed.lastmod = e.lastmod;
    byUrl.set(url, seed);
  }
  return { seeds: [...byUrl.values()], filtered };
}

/** Reads the sitemaps of `origins` and puts what they list into the WebDB. */
export async function injectSitemaps(
  conf: Conf,
  opts: { origins: string[]; webdb: WebDb; http: RobotsTransport; robots: RobotsCache; plugins: CrawlerPlugins; log?: Log; now?: number },
): Promise<SitemapSummary> {
  const limits = sitemapLimits(conf);
  const delayMs = conf.getDuration('fetcher.server.delay', 's');
  const s: SitemapSummary = { files: 0, urls: 0, injected: 0, due: 0, skipped: 0, problems: [] };
  // Hosts are read side by side, as many at once as the fetcher has threads; each host's files one after another.
  // Each result goes to its origin's place, so what is injected and reported follows the seeds' order, not the servers' timing.
  const hosts: HostSitemaps[] = [];
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < opts.origins.length; i = next++)
      hosts[i] = await readHostSitemaps(opts.origins[i]!, { http: opts.http, robots: opts.robots, limits, delayMs, log: opts.log });
  };
  await Promise.all(Array.from({ length: Math.min(opts.origins.length, Math.max(1, conf.getInt('fetcher.threads.fetch'))) }, reader));
  const now = opts.now ?? Date.now();
  for (const h of hosts) {
    s.files += h.files;
    s.skipped += h.skipped;
    s.problems.push(...h.problems);
    const { seeds, filtered } = sitemapSeeds(conf, opts.plugins, h.entries);
    s.skipped += filtered;
    s.urls += seeds.length;
    s.injected += opts.webdb.inject(seeds, now, false).injected;
    s.due += opts.webdb.dueIfModified(
      seeds.filter((x): x is Seed & { lastmod: number } => x.lastmod !== undefined),
      now,
    );
  }
  for (const p of s.problems) opts.log?.warn(`sitemap ${p.url}: ${p.reason}`);
  return s;
}

/** The crawl's use: the sitemaps of the seeds' hosts, read with the crawl's own HTTP client and robots.txt cache. */
export async function crawlSitemaps(conf: Conf, opts: { webdb: string; seedUrls: string[]; plugins: CrawlerPlugins; log?: Log }): Promise<SitemapSummary> {
  const origins = [...new Set(opts.seedUrls.flatMap((u) => (/^https?:\/\//i.test(u) ? [new URL(u).origin] : [])))];
  const webdb = openWebDb(opts.webdb);
  const http = startProtocols(withLoopback(conf, webdb.seedsOnLoopback()), opts.plugins.protocols);
  try {
    const robots = new RobotsCache({ http, agents: robotsAgents(conf), webdb });
    return await injectSitemaps(conf, { origins, webdb, http, robots, plugins: opts.plugins, log: opts.log });
  } finally {
    webdb.close();
    await http.close();
  }
}
