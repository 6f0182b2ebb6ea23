/**
 * @module crawler/fetch/segment-fetch
 * Fetching one segment file (a whole segment or one partition's) with the
 * crawl's WebDB beside it: the protocols, robots.txt cached in the WebDB,
 * the fetch loop, and the segment marked fetched once every URL has a record.
 */
import type { Conf } from '../../shared/conf.js';
import { crawlPaths, segmentCrawlDir } from '../../shared/crawl-dir.js';
import { Segment } from '../../segments/segment.js';
import { loadCrawlerPlugins } from '../plugin/chains.js';
import { hasWebDb, type WebDb } from '../webdb/webdb.js';
import { isLoopbackHost, withLoopback } from './address.js';
import { Fetcher } from './fetcher.js';
import type { FetchSummary } from './fetch-summary.js';
import { robotsAgents, userAgent } from './protocol-http.js';
import { startProtocols, type Protocols } from './protocols.js';
import { RobotsCache } from './robots.js';
import { fetcherSettings, parseThreads, type FetchOptions } from './fetcher-settings.js';
import { fetchSteps } from './step.js';

/**
 * The WebDB of the crawl a segment belongs to: on a server (webdb.url), shared
 * by fetchers on every machine, else `<crawl>/webdb` beside `<crawl>/segments/<name>`, if there is one.
 */
export function crawlWebDb(conf: Conf, segmentDir: string): string | undefined {
  const dir = crawlPaths(segmentCrawlDir(segmentDir)).webdb;
  return conf.get('webdb.url') || (hasWebDb(dir) ? dir : undefined);
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

/** Fetches what `segment` (a whole segment or a partition's) has not fetched yet, and marks it fetched once all is; closes it. */
export async function fetchInto(conf: Conf, segment: Segment, webdb: WebDb | undefined, opts: FetchOptions): Promise<FetchSummary> {
  const ua = userAgent(conf);
  const settings = fetcherSettings(conf, opts);
  let protocols: Protocols | undefined;
  const writers = parseThreads(conf, opts);
  try {
    const plugins = await loadCrawlerPlugins(conf);
    opts.log?.info(`fetching ${segment.dir} as "${ua}", ${settings.threads} threads; plugins: ${plugins.active.map((p) => p.id).join(' ')}`);
    protocols = startProtocols(withLoopback(conf, seedsOnLoopback(segment, webdb)), plugins.protocols);
    const robots = new RobotsCache({ http: protocols, agents: robotsAgents(conf), webdb });
    const summary = await new Fetcher(conf, segment, plugins, robots, fetchSteps(conf, protocols, robots, opts.signal), settings, opts.log, opts.signal, writers).run();
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
    if (writers !== opts.writers) await writers?.close();
    segment.close();
  }
}
