/**
 * hazelnut as a user runs it: `hazelnut crawl` over the served corpus
 * (inject → generate/fetch/updatedb → invertlinks → linkrank → index → dedup
 * → merge, all with the shipped defaults except the crawler's name and no
 * politeness delay on loopback), then the searcher's `search()` on the
 * published index with the shipped searcher settings: as served (two hits
 * per site, searcher.hits.per.site), ungrouped (a flat list like the
 * baselines'), and ungrouped with every word required (no partial matches),
 * the query semantics of the baselines' defaults.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Conf } from '../../../shared/conf.js';
import { search } from '../../../searcher/search.js';
import { searchSettings } from '../../../searcher/settings.js';
import { CrawlSnapshots } from '../../../searcher/snapshot.js';
import { runOk } from './exec.js';
import type { EngineSetup } from './engine.js';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const HAZELNUT = path.join(root, 'crawler', 'hazelnut.js');
const CRAWL_ARGS = ['-D', 'http.agent.name=hazelnutBench', '-D', 'fetcher.server.delay=0', 'crawl'];

/** The top 10 URLs of a query on the current snapshot, with the shipped settings or some overridden. */
export function topUrls(snaps: CrawlSnapshots) {
  return (q: string, hitsPerSite?: number, overrides?: Record<string, string>): string[] => {
    const lease = snaps.acquire();
    try {
      const snap = overrides ? { ...lease.snapshot, settings: searchSettings(Conf.load({ overrides })) } : lease.snapshot;
      return search(snap, { query: q, hitsPerPage: 10, hitsPerSite }).hits.map((h) => h.doc.url);
    } finally {
      lease.release();
    }
  };
}

export async function setupHazelnut(tmp: string, seeds: string[]): Promise<EngineSetup> {
  const seedFile = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seedFile, seeds.join('\n') + '\n');
  const dir = path.join(tmp, 'crawl');
  const t0 = Date.now();
  await runOk(process.execPath, [HAZELNUT, ...CRAWL_ARGS, seedFile, '-dir', dir, '-depth', '2'], { cwd: root, timeoutMs: 300_000 });
  const indexMs = Date.now() - t0;
  const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()));
  const top10 = topUrls(snaps);
  const rank = (hitsPerSite?: number, overrides?: Record<string, string>) => async (q: string) => top10(q, hitsPerSite, overrides);
  return {
    indexMs,
    docs: snaps.current.reader.meta.docCount,
    commands: [
      `node crawler/hazelnut.js ${CRAWL_ARGS.join(' ')} <tmp>/seeds.txt -dir <tmp>/crawl -depth 2   # seeds: every page URL`,
      `search(snapshot, { query, hitsPerPage: 10 [, hitsPerSite: 0] })   # searcher/search.ts on the published index, shipped settings [or -D searcher.partial.below=0]`,
    ],
    variants: [
      { label: 'hazelnut (as served: 2 hits per site)', rank: rank() },
      { label: 'hazelnut (ungrouped)', rank: rank(0) },
      { label: 'hazelnut (ungrouped, strict AND: searcher.partial.below=0)', rank: rank(0, { 'searcher.partial.below': '0' }) },
    ],
    close: () => snaps.close(),
  };
}
