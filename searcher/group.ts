/**
 * @module searcher/group
 * Hits per site (Nutch's hitsPerSite / dedupField), made to help rather
 * than hide. With one site in the results there is nothing to group: every
 * hit is listed in rank order. With several, a site's further hits are
 * listed under its first hit (indented), and past `hitsPerSite` they are
 * hidden behind "more from this site". Grouping hides nothing the plain
 * ranking puts on the first page (`keepTop`), and never puts a page holding
 * every query word behind one holding only some: such a page is not hidden
 * while partial matches rank below it, and a partial match is not lifted
 * under its site's first hit over a full match of another site.
 * hazelnut ranks the whole candidate pool, so one walk suffices where Nutch
 * re-queried with `-site:` clauses. Pure over plain data.
 */

export interface RankedHit {
  id: number;
  score: number;
  site: string;
  /** Holds every query word (not a partial match). */
  full: boolean;
}

export interface PlacedHit<H> {
  hit: H;
  /** Listed under its site's first hit. */
  grouped: boolean;
}

export interface GroupedPage<H extends RankedHit> {
  /** The hits of the requested page, in display order. */
  hits: PlacedHit<H>[];
  /** Hits shown after grouping, over all pages. */
  shown: number;
  /** Hits hidden by grouping. */
  hidden: number;
  /** Sites that had hits hidden. */
  sitesWithMore: Set<string>;
  hasNext: boolean;
}

interface Entry<H> {
  /** Rank of the entry's first hit: where the entry stands in the list. */
  head: number;
  items: PlacedHit<H>[];
}

/** `hitsPerSite` ≤ 0 shows every hit, in rank order; the best `keepTop` hits are never hidden. */
export function groupBySite<H extends RankedHit>(ranked: readonly H[], hitsPerSite: number, start: number, count: number, keepTop = 0): GroupedPage<H> {
  const severalSites = ranked.some((h) => h.site !== ranked[0]!.site);
  const flat =
    hitsPerSite > 0 && severalSites
      ? group(ranked, hitsPerSite, keepTop, start, count)
      : { page: ranked.slice(start, start + count).map((hit) => ({ hit, grouped: false })), shown: ranked.length, hidden: 0, sitesWithMore: new Set<string>() };
  const hits = flat.page;
  // The first hit of a page stands on its own: its site's first hit is on the page before.
  if (hits[0]?.grouped) hits[0] = { hit: hits[0].hit, grouped: false };
  return { hits, shown: flat.shown, hidden: flat.hidden, sitesWithMore: flat.sitesWithMore, hasNext: flat.shown > start + count };
}

/** The hits listed in places `start` to `start + count` once grouped, how many are listed in all, and what is hidden. */
function group<H extends RankedHit>(ranked: readonly H[], hitsPerSite: number, keepTop: number, start: number, count: number) {
  // partialBelow[i]: a partial match ranks below hit i.
  const partialBelow: boolean[] = new Array(ranked.length);
  for (let i = ranked.length - 1, seen = false; i >= 0; i--) {
    partialBelow[i] = seen;
    seen ||= !ranked[i]!.full;
  }
  const bySite = new Map<string, { entry: Entry<H>; count: number }>();
  const entries: Entry<H>[] = [];
  const sitesWithMore = new Set<string>();
  let hidden = 0;
  /** The lowest place (entry head) at which a full match is listed so far. */
  let lastFullHead = -1;
  ranked.forEach((hit, i) => {
    const site = bySite.get(hit.site);
    if (!site) {
      const entry = { head: i, items: [{ hit, grouped: false }] };
      entries.push(entry);
      bySite.set(hit.site, { entry, count: 1 });
      if (hit.full) lastFullHead = i;
      return;
    }
    if (site.count >= hitsPerSite && i >= keepTop && !(hit.full && partialBelow[i])) {
      hidden++;
      sitesWithMore.add(hit.site);
      return;
    }
    site.count++;
    if (!hit.full && lastFullHead > site.entry.head) {
      // Listed under its site's first hit, this partial match would pass a full match: it keeps its own place.
      entries.push({ head: i, items: [{ hit, grouped: false }] });
      return;
    }
    site.entry.items.push({ hit, grouped: true });
    if (hit.full) lastFullHead = Math.max(lastFullHead, site.entry.head);
  });
  const page: PlacedHit<H>[] = [];
  let shown = 0;
  for (const e of entries)
    for (const item of e.items) {
      if (shown >= start && shown < start + count) page.push(item);
      shown++;
    }
  return { page, shown, hidden, sitesWithMore };
}
