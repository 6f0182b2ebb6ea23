/**
 * @module searcher/counted
 * A search of plain words (no phrase, exclusion, field or filter; a word
 * may have alternatives, a synonym or variant, or OR between words, each
 * one term): its matches are the documents holding any of its words (a
 * word held when any of its alternatives is), so the total,
 * the partial matches, the facets and each site's matches are counted from
 * the postings in one pass (shared/index/match-counts) that weighs every
 * match by its score bound too, with nothing scored; only as deep a pool as
 * the page needs is ranked: the best by score bound, taken from that pass,
 * scored until the exact head of the ranking decides the page
 * (searcher/prune, group.groupHead), taken again deeper when it cannot (a
 * site on the page with its other hits far below, say), no posting read
 * again; a common word's count is kept (searcher/term-counts). What is
 * shown is the ranking of every match (test/searcher/prune.test.ts).
 */
import { COUNTED_TAGS, MAX_GROUPS, type MatchCounts } from '../shared/index/match-counts.js';
import type { CandidateOptions, IndexReader } from '../shared/index/types.js';
import { facetsOf, noFacets, topValues, type FacetField } from './facets.js';
import { addFeedback, feedbackMemo } from './feedback.js';
import { groupHead, type GroupedPage, type SiteCount } from './group.js';
import { boundPool, boundWeights, matchPool } from './candidate-pool.js';
import { rankPruned } from './prune.js';
import { countOf } from './term-counts.js';
import type { AnalyzedQuery } from './query/analyze.js';
import { addProximity, bonusMemo, bonusOf, byScore, pageHits, partialsJoin, PROXIMITY_DEPTH, type BonusMemo } from './ranking.js';
import type { Match, Paging } from './search.js';
import type { Snapshot } from './snapshot.js';

/**
 * The distinct terms of a query of plain words, each a required word or one
 * of a required word's alternatives (a synonym, a word variant: an OR of
 * single terms); undefined for any other query.
 */
export function countableTerms(q: AnalyzedQuery): string[] | undefined {
  if (q.excluded.length || q.filters.length || q.dates.length || q.related.size) return undefined;
  if (q.required.length > MAX_GROUPS && q.required.some((g) => g.length > 1)) return undefined;
  const words = new Set<string>();
  for (const group of q.required)
    for (const m of group) {
      if (m.field !== 'default' || m.terms.length !== 1) return undefined;
      words.add(m.terms[0]!);
    }
  return words.size === q.terms.length && q.terms.every((t) => words.has(t)) ? q.terms : undefined;
}

/**
 * What a countable query is counted by: its terms, and its words as groups
 * of alternatives when a word has more than one the index holds (a synonym
 * no page says counts for nothing: without one, a common word's count is
 * kept, searcher/term-counts).
 */
function countedWords(reader: IndexReader, q: AnalyzedQuery, terms: string[]): { terms: string[]; groups?: string[][] } {
  if (q.required.every((g) => g.length === 1)) return { terms };
  const groups = q.required.map((g) => {
    const alternatives = [...new Set(g.map((m) => m.terms[0]!))];
    const held = alternatives.filter((t) => reader.termId(t) >= 0);
    // A word none of whose terms is held keeps one, which no page holds.
    return held.length ? held : alternatives.slice(0, 1);
  });
  return groups.some((g) => g.length > 1) ? { terms, groups } : { terms: [...new Set(groups.map((g) => g[0]!))] };
}

/**
 * The first pool: this many times the hits that must be ranked exactly.
 * Grouping by site reads each shown site's second hit, often a few hundred
 * deep: at 100k pages on 100 sites, a first pool of twice the proximity
 * block was taken again for most queries, and cost a third more CPU than
 * this depth.
 */
const FIRST_DEPTH = 8;
/** A pool that cannot decide the page is taken again this many times deeper. */
const GROWTH = 4;

/** The counts of the matches ranked (partial ones only when they join): by facet value, and by site. */
function tallies(counts: MatchCounts, joined: boolean) {
  const byValue = {} as Record<FacetField, Map<string, number>>;
  const sites = new Map<string, SiteCount>();
  for (const f of COUNTED_TAGS) {
    const { values, full, some } = counts.tags[f];
    const m = (byValue[f] = new Map());
    for (let v = 0; v < values.length; v++) {
      const partial = joined ? some[v]! : 0;
      if (full[v]! + partial === 0) continue;
      m.set(values[v]!, full[v]! + partial);
      if (f === 'site') sites.set(values[v]!, { full: full[v]!, partial });
    }
  }
  return { byValue, sites };
}

/**
 * A page of a query of plain words (`terms`, countableTerms), exact;
 * `blocks` counts the postings blocks its counting pass decoded, `bonuses`
 * holds the bonuses its pools worked out.
 */
export function searchCounted(snap: Snapshot, query: AnalyzedQuery, terms: string[], paging: Paging, blocks?: CandidateOptions['stats'], bonuses: BonusMemo = bonusMemo()) {
  const counted = countedWords(snap.reader, query, terms);
  const counts = countOf(snap.reader, snap.settings.rank, counted.terms, boundWeights(snap, query), blocks, counted.groups);
  try {
    return pageOfCounted(snap, query, terms, counted.groups?.length ?? counted.terms.length, paging, counts, bonuses);
  } finally {
    counts.pool?.release();
  }
}

/**
 * The page of a count whose matches were weighed: pools taken from them,
 * each deeper than the last, until one decides it. A deeper pool's scorer
 * gives a page the bonuses the last one's did, so they are worked out once
 * (`bonuses`).
 */
function pageOfCounted(snap: Snapshot, query: AnalyzedQuery, terms: string[], words: number, paging: Paging, counts: MatchCounts, bonuses: BonusMemo) {
  const { reader, settings } = snap;
  const joined = partialsJoin(counts.full, settings.partialBelow);
  const partial = joined ? counts.some : 0;
  const total = counts.full + partial;
  if (total === 0) return { hits: [], total, partial, hidden: 0, hasNext: false, facets: noFacets() };
  const { byValue, sites } = tallies(counts, joined);
  const facetSites = topValues(byValue.site).map((v) => v.value);
  const need = Math.min(total, Math.max(PROXIMITY_DEPTH, paging.start + paging.hitsPerPage));
  const docOf = (h: Match) => reader.doc(h.id);
  const feedback = feedbackMemo();
  for (let limit = Math.ceil(need * FIRST_DEPTH); ; limit *= GROWTH) {
    // Not filled, the pool holds every match; filled, none left out scores above the worst taken.
    const floor = { count: -1, weight: 0 };
    const pm = matchPool(snap, query, { limit, byWeight: joined, floor, taken: counts.pool!.take(limit, joined, floor) });
    const ranked = joined ? pm.matches : pm.matches.filter((m) => m.hit.full);
    const outside = floor.count < 0 || (!joined && floor.count < words) ? undefined : floor.weight + Math.abs(floor.weight) * 1e-9;
    const pool = boundPool(snap, query, ranked, pm);
    const bonus = bonusOf(pm.scorer, bonuses);
    let done: { page: GroupedPage<Match>; first: Map<string, Match> } | undefined;
    // The exact head ranked as the whole list would be: decided when it holds the proximity block, each facet's site and the grouped page.
    const decide = (exact: readonly number[], scores: Float64Array) => {
      if (exact.length < need) return false;
      const hits = exact.map((i) => ({ ...ranked[i]!.hit, score: scores[i]! })).sort(byScore);
      addProximity(hits, bonus);
      addFeedback(reader, snap.analyzer, query, hits, settings, feedback);
      const first = new Map<string, Match>();
      for (const h of hits) if (!first.has(h.site)) first.set(h.site, h);
      if (facetSites.some((s) => !first.has(s))) return false;
      const page = groupHead(hits, sites, paging.hitsPerSite, paging.start, paging.hitsPerPage, paging.hitsPerPage);
      if (page) done = { page, first };
      return page !== undefined;
    };
    // A deeper pool holds the last one's pages: their base scores are not worked out again.
    const score = (i: number) => {
      const id = pool.id[i]!;
      let s = bonuses.base.get(id);
      if (s === undefined) {
        pm.docTerms.selectAt(ranked[i]!.row, id);
        bonuses.base.set(id, (s = pm.scorer.base(id)));
        bonuses.scored++;
      }
      return s;
    };
    const r = rankPruned(pool, score, { top: need, hitsPerSite: paging.hitsPerSite, keepTop: paging.hitsPerPage, outside, decide });
    if (r.decided && done) {
      const { page, first } = done;
      return { hits: pageHits(page, docOf), total, partial, hidden: page.hidden, hasNext: page.hasNext, facets: facetsOf(byValue, (site) => docOf(first.get(site)!)) };
    }
    if (outside === undefined) throw new Error(`the ranking of every match of "${terms.join(' ')}" did not decide its page`);
  }
}
