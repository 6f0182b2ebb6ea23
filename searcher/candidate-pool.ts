/**
 * @module searcher/candidate-pool
 * The candidate pool of a search: candidates from the index (every word
 * first, then the best partial matches, or by score bound alone; the
 * highest score bounds first, as deep as asked), the query's rules checked
 * on each (AND, OR, phrases on positions, exclusions, field restrictions,
 * filters), and each match's bound of its score, for pruning
 * (searcher/prune) to score only those that can reach the page.
 */
import { BLOCK } from '../shared/index/postings-codec.js';
import type { CandidateOptions } from '../shared/index/types.js';
import type { AnalyzedQuery } from './query/analyze.js';
import { Matcher, matchTerms } from './query/match.js';
import { idf, termBound, type TermStats } from './rank/bm25f.js';
import { DocTerms } from './rank/docterms.js';
import { linkPrior, makeScorer, readerStats, type Scorer } from './rank/score.js';
import { unitScores, type Pool } from './prune.js';
import type { Match } from './search.js';
import type { Snapshot } from './snapshot.js';

/** OR groups multiply candidate lookups; past this many combinations the rest share one lookup. */
const MAX_EXPANSIONS = 16;

/** The cross product of OR alternatives, as term lists for candidate lookups. */
function expansions(q: AnalyzedQuery): string[][] {
  let out: string[][] = [[]];
  for (const group of q.required) {
    if (out.length * group.length > MAX_EXPANSIONS) {
      out = out.map((e) => [...e, ...group.flatMap((m) => m.terms)]);
      continue;
    }
    out = out.flatMap((e) => group.map((m) => [...e, ...m.terms]));
  }
  return out.map((e) => [...new Set(e)]);
}

/** Exact tag values the index can filter candidates by (one positive value per tag). */
function candidateTags(q: AnalyzedQuery): CandidateOptions['tags'] {
  const tags: NonNullable<CandidateOptions['tags']> = {};
  for (const f of q.filters) {
    if (f.exclude) continue;
    if (f.field !== 'type' || f.value.includes('/')) tags[f.field] ??= f.value;
  }
  return tags;
}

/** The ids of several lists, each once, ascending (sorted as a typed array: no set, no comparator). */
function distinctSorted(lists: readonly number[][]): Uint32Array {
  const all = new Uint32Array(lists.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i]!;
  return all.subarray(0, n);
}

/**
 * Each posting's share of its document's score bound (its unit score times
 * its term's idf, as Scorer.bound adds them, scaled by the page's text
 * weight, with the document's link prior): a query with more matches than
 * the candidate pool holds gets those of the highest bounds among the
 * documents holding as many of its terms.
 */
export function boundWeights(snap: Snapshot, query: AnalyzedQuery, stats: TermStats = readerStats(snap.reader, snap.settings.rank)): Pick<CandidateOptions, 'weigh' | 'docWeight' | 'docWeightBound' | 'docScale'> {
  const { reader, settings } = snap;
  const units = unitScores(reader, settings.rank);
  const idfOf = new Map(query.terms.map((t) => [reader.termId(t), idf(stats.docCount, stats.docFreq(t)) * (query.weights.get(t) ?? 1)]));
  const linkWeight = settings.rank.linkWeight;
  return {
    weigh: (termId) => {
      const w = idfOf.get(termId) ?? 1;
      const out = new Float64Array(BLOCK);
      const term = units.term(termId);
      return {
        bound: (b) => (w >= 0 ? termBound(term.bound(b), w) : 0),
        withOwn: term.withOwn(w),
        needsTf: (b) => !term.known(b),
        of: (b, decoded) => {
          const u = term.block(b, decoded);
          for (let i = 0; i < u.length; i++) out[i] = termBound(u[i]!, w);
          return out;
        },
      };
    },
    docWeight: (id) => linkPrior(reader.boost(id), linkWeight),
    // The page's text weight scales its BM25F (Scorer.base).
    docScale: (id) => reader.prose(id),
    // The prior rises with the boost (falls, below zero, with a negative weight).
    docWeightBound: (boost) => (linkWeight >= 0 ? linkPrior(boost, linkWeight) : 0),
  };
}

/** The candidate pool's matches, before scoring: each with its row among the located documents. */
export interface PoolMatches {
  matches: { hit: Match; row: number }[];
  /** False when a lookup filled the pool, so more documents may match. */
  exact: boolean;
  scorer: Scorer;
  docTerms: DocTerms;
}

/**
 * How deep a pool is and how its candidates are taken (CandidateOptions);
 * `stats`, the collection statistics scores are computed with; `taken`, the
 * candidates when taken already (from a count's weighed matches).
 */
export type PoolDepth = Pick<CandidateOptions, 'limit' | 'byWeight' | 'floor'> & { stats?: TermStats; blocks?: CandidateOptions['stats']; taken?: number[] };

/**
 * Candidates from the index and the query's rules checked on each; every
 * candidate's entries are found at once from the terms' postings.
 */
export function matchPool(snap: Snapshot, query: AnalyzedQuery, depth: PoolDepth): PoolMatches {
  const { reader, settings } = snap;
  const { limit, byWeight, floor, stats, blocks, taken } = depth;
  const tags = candidateTags(query);
  const weights = taken ? undefined : boundWeights(snap, query, stats);
  const found = taken ? [taken] : expansions(query).map((terms) => reader.candidates(terms, { limit, tags, ...weights, stats: blocks, byWeight, floor }));
  const exact = found.every((ids) => ids.length < limit);

  // Matcher and scorer share the candidate's forward-index entries: found once per term.
  const docTerms = new DocTerms(reader, matchTerms(query));
  const matcher = new Matcher(reader, query, docTerms);
  const scorer = makeScorer(reader, query.terms, settings.rank, docTerms, query.weights, query.alternatives, stats);
  const ids = distinctSorted(found);
  docTerms.locate(ids);
  const matches: PoolMatches['matches'] = [];
  for (let row = 0; row < ids.length; row++) {
    const id = ids[row]!;
    if (reader.isDeleted(id)) continue;
    docTerms.selectAt(row, id);
    const kind = matcher.matchOf(id);
    if (kind === 'none') continue;
    const hit = { id, score: 0, site: reader.tag(id, 'site'), type: reader.tag(id, 'type'), lang: reader.tag(id, 'lang'), full: kind === 'all' };
    matches.push({ hit, row });
  }
  return { matches, exact, scorer, docTerms };
}

/** The matches to rank as pruning sees them: each one's bound from its postings' unit scores, and its site. */
export function boundPool(snap: Snapshot, query: AnalyzedQuery, ranked: PoolMatches['matches'], pm: PoolMatches): Pool {
  const { scorer, docTerms } = pm;
  const S = query.terms.length;
  const termUnits = new Float64Array(S);
  const units = unitScores(snap.reader, snap.settings.rank);
  const unitOf = query.terms.map((t) => units.term(snap.reader.termId(t)));
  const slots = query.terms.map((t) => docTerms.slot(t));
  const n = ranked.length;
  const pool = { bound: new Float64Array(n), id: new Uint32Array(n), site: new Int32Array(n), sites: 0 };
  const siteIndex = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const { hit, row } = ranked[i]!;
    for (let t = 0; t < S; t++) termUnits[t] = unitOf[t]!.at(docTerms.postingAt(row, slots[t]!));
    // Scorer.bound leaves out the text weight (at most 1) that scales the BM25F part, above the link prior.
    const bound = scorer.bound(hit.id, termUnits);
    const prior = linkPrior(snap.reader.boost(hit.id), snap.settings.rank.linkWeight);
    pool.bound[i] = bound > prior ? Math.min(bound, prior + snap.reader.prose(hit.id) * (bound - prior) + Math.abs(bound) * 1e-12) : bound;
    pool.id[i] = hit.id;
    let site = siteIndex.get(hit.site);
    if (site === undefined) siteIndex.set(hit.site, (site = siteIndex.size));
    pool.site[i] = site;
  }
  pool.sites = siteIndex.size;
  return pool;
}
