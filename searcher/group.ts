/**
 * @module searcher/group
 * Hits per site (Nutch's hitsPerSite / dedupField): walking the ranked
 * list, a site that already shows `hitsPerSite` hits has its further hits
 * hidden, and the page offers "more from this site" and "show all hits".
 * hazelnut ranks the whole candidate pool, so one walk suffices where Nutch
 * re-queried with `-site:` clauses. Pure over plain data.
 */

export interface RankedHit {
  id: number;
  score: number;
  site: string;
}

export interface GroupedPage<H extends RankedHit> {
  /** The hits of the requested page. */
  hits: H[];
  /** Hits shown after grouping, over all pages. */
  shown: number;
  /** Hits hidden by grouping. */
  hidden: number;
  /** Sites that had hits hidden. */
  sitesWithMore: Set<string>;
  hasNext: boolean;
}

/** `hitsPerSite` ≤ 0 shows every hit. */
export function groupBySite<H extends RankedHit>(ranked: readonly H[], hitsPerSite: number, start: number, count: number): GroupedPage<H> {
  const kept: H[] = [];
  const perSite = new Map<string, number>();
  const sitesWithMore = new Set<string>();
  let hidden = 0;
  for (const h of ranked) {
    if (hitsPerSite > 0) {
      const n = perSite.get(h.site) ?? 0;
      if (n >= hitsPerSite) {
        hidden++;
        sitesWithMore.add(h.site);
        continue;
      }
      perSite.set(h.site, n + 1);
    }
    kept.push(h);
  }
  return {
    hits: kept.slice(start, start + count),
    shown: kept.length,
    hidden,
    sitesWithMore,
    hasNext: kept.length > start + count,
  };
}
