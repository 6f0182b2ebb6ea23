/**
 * @module searcher/group
 * Hits per site (Nutch's hitsPerSite / dedupField), made to help rather
 * than hide. With one site in the results there is nothing to group: every
 * hit is listed in rank order. With several, a site's further hits are
 * listed under its first hit (indented), and past `hitsPerSite` they are
 * hidden behind "more from this site", as Nutch kept a site's best
 * `hitsPerSite` by rank. Grouping hides nothing the plain ranking puts on
 * the first page (`keepTop`), and a partial match is not lifted under its
 * site's first hit over a full match of another site. A page holding every
 * word is hidden like any other: partial matches are ranked among the full
 * ones by score (searcher/ranking's partialsJoin), so one ranked below them
 * lost on the evidence; sparing it lifted every full match of a site, down
 * to the last, over the other sites' better partial ones.
 * One walk suffices where Nutch re-queried with `-site:` clauses: over the
 * whole ranked list, or over its exact head with each site's number of
 * matches below it (`groupHead`), when that decides the page. Pure over
 * plain data.
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

/** A site's matches in a ranked list: holding every word, and only some. */
export interface SiteCount {
  full: number;
  partial: number;
}

/** `hitsPerSite` ≤ 0 shows every hit, in rank order; the best `keepTop` hits are never hidden. */
export function groupBySite<H extends RankedHit>(ranked: readonly H[], hitsPerSite: number, start: number, count: number, keepTop = 0): GroupedPage<H> {
  const severalSites = ranked.some((h) => h.site !== ranked[0]!.site);
  if (!(hitsPerSite > 0 && severalSites)) return flat(ranked, ranked.length, start, count);
  const w = walk(ranked, hitsPerSite, keepTop);
  return paged(w.entries, w.hidden, w.sitesWithMore, start, count);
}

/**
 * groupBySite of a ranked list of which only the head is known, in order,
 * with how many matches each site has in the whole list (`sites`: every
 * site with a match) and so below the head; undefined when what lies below
 * can change the page (a site on it may list a hit from below).
 */
export function groupHead<H extends RankedHit>(head: readonly H[], sites: ReadonlyMap<string, SiteCount>, hitsPerSite: number, start: number, count: number, keepTop = 0): GroupedPage<H> | undefined {
  let total = 0;
  for (const c of sites.values()) total += c.full + c.partial;
  if (!(hitsPerSite > 0 && sites.size > 1)) return head.length >= Math.min(total, start + count) ? flat(head, total, start, count) : undefined;
  if (head.length < Math.min(total, keepTop)) return undefined;
  const w = walk(head, hitsPerSite, keepTop);
  const open = new Set<Entry<H>>();
  let listedBelow = 0;
  let hidden = w.hidden;
  const inHead = new Map<string, SiteCount>();
  for (const h of head) {
    const c = inHead.get(h.site) ?? inHead.set(h.site, { full: 0, partial: 0 }).get(h.site)!;
    if (h.full) c.full++;
    else c.partial++;
  }
  for (const [site, c] of sites) {
    const seen = inHead.get(site) ?? { full: 0, partial: 0 };
    const below = c.full + c.partial - seen.full - seen.partial;
    if (below <= 0) continue;
    const known = w.bySite.get(site);
    const listed = Math.min(below, Math.max(0, hitsPerSite - (known?.count ?? 0)));
    listedBelow += listed;
    hidden += below - listed;
    if (below > listed) w.sitesWithMore.add(site);
    // A hit from below joins its site's entry (or its own, after the head's).
    if (listed > 0 && known) open.add(known.entry);
  }
  // The page must end before the first entry a hit from below may join, and below it nothing new may be listed.
  let shown = 0;
  for (const e of w.entries) {
    shown += e.items.length;
    if (shown >= start + count) break;
    if (open.has(e)) return undefined;
  }
  if (shown < start + count && listedBelow > 0) return undefined;
  const page = paged(w.entries, hidden, w.sitesWithMore, start, count);
  return { ...page, shown: page.shown + listedBelow, hasNext: page.shown + listedBelow > start + count };
}

/** Every hit listed in rank order, none hidden. */
function flat<H extends RankedHit>(ranked: readonly H[], total: number, start: number, count: number): GroupedPage<H> {
  const hits = ranked.slice(start, start + count).map((hit) => ({ hit, grouped: false }));
  return { hits, shown: total, hidden: 0, sitesWithMore: new Set<string>(), hasNext: total > start + count };
}

/** The entries (a site's first hit and those listed under it) of the hits grouped, and what is hidden. */
function walk<H extends RankedHit>(ranked: readonly H[], hitsPerSite: number, keepTop: number) {
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
    if (site.count >= hitsPerSite && i >= keepTop) {
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
  return { entries, bySite, sitesWithMore, hidden };
}

/** The hits listed in places `start` to `start + count` of the entries, how many are listed in all, and what is hidden. */
function paged<H extends RankedHit>(entries: readonly Entry<H>[], hidden: number, sitesWithMore: Set<string>, start: number, count: number): GroupedPage<H> {
  const hits: PlacedHit<H>[] = [];
  let shown = 0;
  for (const e of entries)
    for (const item of e.items) {
      if (shown >= start && shown < start + count) hits.push(item);
      shown++;
    }
  // The first hit of a page stands on its own: its site's first hit is on the page before.
  if (hits[0]?.grouped) hits[0] = { hit: hits[0].hit, grouped: false };
  return { hits, shown, hidden, sitesWithMore, hasNext: shown > start + count };
}
