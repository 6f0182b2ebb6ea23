/**
 * @module searcher/term-counts
 * The counts of one-word searches of common words, kept: the total, the
 * facets' counts and the best matches by weight, as deep as a first page's
 * pool takes them (searcher/counted). Queries follow Zipf's law, so a few
 * common words come back again and again, and the count of one weighs every
 * posting it has (every page, for the commonest); kept, the search ranks its
 * pool from the forward index as before, with no posting read. Kept a
 * reader and ranking parameters (the weights follow from them), the
 * commonest within the budget's share for counts
 * (shared/index/cache-budget); a pool deeper than the one kept counts
 * again.
 */
import { Lru } from '../shared/index/lru.js';
import { COUNTED_TAGS, type CountedTag, type MatchCounts, type MatchPool, type MatchWeights, type TagCounts } from '../shared/index/match-counts.js';
import type { CandidateOptions, IndexReader } from '../shared/index/types.js';
import type { RankParams } from './rank/params.js';

/** A word's count kept: its matches' total and tags, and its best `top` matches, best first, with their weights. */
interface Kept {
  full: number;
  tags: Record<CountedTag, TagCounts>;
  top: Uint32Array;
  weights: Float64Array;
}

/** Matches kept a word: a first page's pool (searcher/counted's first depth times the proximity block). */
export const KEPT_DEPTH = 800;

/** Words with fewer matches are counted again: their count costs little more than reading what would be kept. */
const COMMON = 2048;

const kept = new WeakMap<IndexReader, { params: RankParams; words: Lru<string, Kept> }>();

const bytesOf = (k: Kept) => k.top.byteLength + k.weights.byteLength + COUNTED_TAGS.reduce((n, f) => n + k.tags[f].full.byteLength + k.tags[f].some.byteLength, 0);

function wordsOf(reader: IndexReader, params: RankParams): Lru<string, Kept> {
  const known = kept.get(reader);
  if (known?.params === params) return known.words;
  const words = new Lru<string, Kept>(reader.cacheBudget.counts, bytesOf);
  kept.set(reader, { params, words });
  return words;
}

/**
 * The count of a search of `terms` (countableTerms) weighed by `weights`,
 * which follow from the reader and `params`: a common word's kept from its
 * first count on.
 */
export function countOf(reader: IndexReader, params: RankParams, terms: string[], weights: MatchWeights, stats?: CandidateOptions['stats'], groups?: readonly (readonly string[])[]): MatchCounts {
  const count = () => reader.countMatches(terms, weights, stats, groups);
  if (terms.length !== 1 || groups) return count();
  const words = wordsOf(reader, params);
  const known = words.get(terms[0]!);
  if (known) return { full: known.full, some: 0, tags: known.tags, pool: keptPool(known, count) };
  const counts = count();
  if (counts.full >= COMMON && counts.pool) {
    const top = Uint32Array.from(counts.pool.take(KEPT_DEPTH, true));
    const k = { full: counts.full, tags: counts.tags, top, weights: Float64Array.from(top, (d) => counts.pool!.weight(d)) };
    if (bytesOf(k) <= reader.cacheBudget.counts) words.set(terms[0]!, k);
  }
  return counts;
}

/** The pool of a kept count, as its first count's would take it (MatchPool.take: one word, so each match holds it); deeper, counted again. */
function keptPool(k: Kept, count: () => MatchCounts): MatchPool {
  let again: MatchCounts | undefined;
  const deeper = () => (again ??= count()).pool!;
  return {
    take(limit, byWeight, floor) {
      if (limit > k.top.length && k.top.length < k.full) return deeper().take(limit, byWeight, floor);
      const n = Math.max(0, Math.min(limit, k.top.length));
      if (k.full >= limit && limit > 0 && floor) Object.assign(floor, { count: byWeight ? 0 : 1, weight: k.weights[limit - 1]! });
      return Array.from(k.top.subarray(0, n));
    },
    weight(id) {
      const at = k.top.indexOf(id);
      return at >= 0 ? k.weights[at]! : deeper().weight(id);
    },
    release: () => again?.pool?.release(),
  };
}
