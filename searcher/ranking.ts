/**
 * @module searcher/ranking
 * The rules a ranked list follows wherever it is made (one index, a pool
 * grown on demand, a broker's merge of shards): full matches first unless
 * too few, the proximity and section bonuses for the best by base score,
 * and the hits of a grouped page.
 */
import type { GroupedPage, RankedHit } from './group.js';
import type { Scorer } from './rank/score.js';

/** Candidates (by BM25F + link prior) that get the proximity bonus (reference/ranking.md: over the top 100). */
export const PROXIMITY_DEPTH = 100;

/**
 * Candidates (by BM25F + link prior) whose best section can lift them
 * (searcher/rank/sections): a lift raises a page, so the first pages' worth
 * are where it can change what is shown; scoring every section of the top
 * 100 cost a third of a search on devweb and moved no first hit more there.
 */
export const SECTION_DEPTH = 20;

export const byScore = (a: RankedHit, b: RankedHit) => b.score - a.score || a.id - b.id;

/**
 * Whether partial matches are ranked with the full ones: when too few pages
 * hold every word, ranked together (a strict "all words first" order
 * measured worse on questions), and the page says so.
 */
export const partialsJoin = (full: number, partialBelow: number) => full < partialBelow;

/**
 * Full matches ranked by base score, partial ones among them when too few
 * pages hold every word.
 */
export function rankByBase<H extends RankedHit>(full: H[], some: H[], partialBelow: number): { ranked: H[]; partial: number } {
  const partial = partialsJoin(full.length, partialBelow) ? some : [];
  const ranked = partial.length ? full.concat(partial) : full.slice();
  ranked.sort(byScore);
  return { ranked, partial: partial.length };
}

/**
 * Adds the bonuses (proximity; the section lift for the first SECTION_DEPTH)
 * to the best PROXIMITY_DEPTH of a list ranked by base score (in place):
 * decoding positions and section runs dominates the cost. A bonus is never
 * negative, so they stay ahead of the rest and only they need sorting again.
 */
export function addProximity<H extends RankedHit>(ranked: H[], bonus: (hit: H, rank: number) => number): void {
  const top = Math.min(PROXIMITY_DEPTH, ranked.length);
  for (let i = 0; i < top; i++) ranked[i]!.score += bonus(ranked[i]!, i);
  ranked.splice(0, top, ...ranked.slice(0, top).sort(byScore));
}

/**
 * What bonusOf has computed, by document: kept across the pools of one
 * search (searcher/counted takes a deeper pool when the first cannot decide
 * the page), whose scorers give a page the same bonuses, and the same base
 * score (`base`, `scored` of them worked out). `computed` counts the
 * bonuses worked out, each a page's positions or sections decoded.
 */
export interface BonusMemo {
  proximity: Map<number, number>;
  lift: Map<number, number>;
  computed: number;
  base: Map<number, number>;
  scored: number;
}

export const bonusMemo = (): BonusMemo => ({ proximity: new Map(), lift: new Map(), computed: 0, base: new Map(), scored: 0 });

/**
 * The bonus addProximity adds to a hit at `rank`: its proximity, and its
 * section lift when it ranks in the first SECTION_DEPTH. Each is computed
 * once a page (once a search with a `memo` its pools share), and the rank
 * applied at every call, as a pool grown on demand asks again after a
 * page's rank has moved.
 */
export function bonusOf(scorer: Pick<Scorer, 'proximity' | 'sectionLift'>, memo: BonusMemo = bonusMemo()): (hit: RankedHit, rank: number) => number {
  const once = (seen: Map<number, number>, id: number, of: (id: number) => number) => {
    let v = seen.get(id);
    if (v === undefined) {
      seen.set(id, (v = of(id)));
      memo.computed++;
    }
    return v;
  };
  return (hit, rank) => once(memo.proximity, hit.id, (id) => scorer.proximity(id)) + (rank < SECTION_DEPTH ? once(memo.lift, hit.id, (id) => scorer.sectionLift(id)) : 0);
}

/** A grouped page's hits with their stored fields (`docOf`, read for these alone) and where they stand. */
export function pageHits<H extends RankedHit, D>(page: GroupedPage<H>, docOf: (hit: H) => D) {
  return page.hits.map(({ hit, grouped }) => ({ ...hit, doc: docOf(hit), grouped, moreFromSite: page.sitesWithMore.has(hit.site) }));
}
