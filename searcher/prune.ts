/**
 * @module searcher/prune
 * Ranking a query's matches without scoring every one (MaxScore over the
 * index's own postings). Each entry of the index has its terms' score at idf 1
 * worked out once per index and ranking parameters (`unitScores`), so a
 * match's upper bound is a few multiplications (Scorer.bound). Matches are
 * scored in full in the order of their bounds until the ones scored above
 * every remaining bound decide the page: the proximity block, the page, and
 * what grouping by site reads from the rest of the list (which sites have
 * more, how many hits it hides). The rest keep their bounds as scores and an
 * arbitrary order below; nothing shown depends on them. The result is the
 * exhaustive ranking's, hit for hit and score for score (test/searcher/prune.test.ts).
 */
import { FIELDS, type IndexReader } from '../shared/index/types.js';
import { Bm25fQuery } from './rank/bm25f.js';
import type { RankParams } from './rank/params.js';
import { readerStats } from './rank/score.js';

const F = FIELDS.length;

const units = new WeakMap<IndexReader, { params: RankParams; scores: Float32Array }>();

/**
 * Per forward-index entry, the score of its term in its document at idf 1,
 * by the rank module's own BM25F (rounded up to a float32): memory 4 bytes an
 * entry, made once per index and ranking parameters.
 */
export function unitScores(reader: IndexReader, params: RankParams): Float32Array {
  const known = units.get(reader);
  if (known?.params === params) return known.scores;
  const query = new Bm25fQuery([1], readerStats(reader), params.bm25f.k1, params.bm25f.fields);
  const lengths = new Float64Array(reader.meta.docCount * F);
  for (let d = 0; d < reader.meta.docCount; d++) for (let f = 0; f < F; f++) lengths[d * F + f] = reader.fieldLength(d, FIELDS[f]!);
  const doc = { lengths: new Float64Array(F), tf: new Float64Array(F) };
  let size = 0;
  const terms = reader.meta.termCount;
  for (let t = 0; t < terms; t++) size += reader.postings(t).docs.length;
  const scores = new Float32Array(size);
  for (let t = 0; t < terms; t++) {
    const { docs, entries } = reader.postings(t);
    for (let i = 0; i < docs.length; i++) {
      const e = entries[i]!;
      for (let f = 0; f < F; f++) {
        doc.lengths[f] = lengths[docs[i]! * F + f]!;
        doc.tf[f] = reader.entryTf(e, f);
      }
      // float32 keeps about 7 digits: scaled up past its rounding, the stored score stays a bound.
      scores[e] = query.score(doc) * (1 + 1e-6);
    }
  }
  units.set(reader, { params, scores });
  return scores;
}

/** A match as pruning sees it. */
export interface Bounded {
  id: number;
  score: number;
  site: string;
  full: boolean;
  /** Upper bound of its score. */
  bound: number;
}

export interface PageNeeds {
  /** Hits from the top that must be exact whatever grouping does: the proximity block, the page. */
  top: number;
  hitsPerSite: number;
  /** Hits grouping never hides (groupBySite's keepTop). */
  keepTop: number;
}

const byScore = (a: Bounded, b: Bounded) => b.score - a.score || a.id - b.id;
const byBound = (a: Bounded, b: Bounded) => b.bound - a.bound || a.id - b.id;

/**
 * The matches ranked as the exhaustive ranking would rank them, as far as
 * anything shown depends on it: scores `score(hit)` in the order of the
 * bounds, and stops when the exact prefix (hits scoring above every bound
 * left) decides what `needs` says. Returns the list and how many were scored.
 */
export function rankPruned<H extends Bounded>(matches: H[], score: (hit: H) => number, needs: PageNeeds): { ranked: H[]; scored: number } {
  const byB = matches.slice().sort(byBound);
  const sites = new Set(matches.map((h) => h.site));
  const grouped = needs.hitsPerSite > 0 && sites.size > 1;
  const top = Math.min(matches.length, grouped ? Math.max(needs.top, needs.keepTop) : needs.top);
  let next = top;
  for (let j = 0; j < byB.length; j++) {
    byB[j]!.score = score(byB[j]!);
    if (j + 1 < next && j + 1 < byB.length) continue;
    const rest = j + 1 < byB.length ? byB[j + 1]!.bound : -Infinity;
    const exact = byB.slice(0, j + 1).filter((h) => h.score > rest);
    if (exact.length >= top && decided(exact, byB, sites, grouped, needs.hitsPerSite)) {
      exact.sort(byScore);
      const inExact = new Set<H>(exact);
      return { ranked: exact.concat(byB.filter((h) => !inExact.has(h))), scored: j + 1 };
    }
    // Checked again once a quarter more are scored: the checks cost O(n) each.
    next = Math.max(j + 2, Math.ceil((j + 1) * 1.25));
  }
  return { ranked: byB.sort(byScore), scored: byB.length };
}

/**
 * Whether the hits below the exact prefix change nothing shown: every site
 * has a hit in the prefix (a facet names its site by its best hit) and, when
 * grouping, every site with hits below has `hitsPerSite` in the prefix, so
 * that each hit below is hidden whichever order they come in, unless it is a
 * full match with a partial match below it (never hidden): so not both kinds below.
 */
function decided<H extends Bounded>(exact: readonly H[], all: readonly H[], sites: ReadonlySet<string>, grouped: boolean, hitsPerSite: number): boolean {
  if (exact.length === all.length) return true;
  const inPrefix = new Map<string, number>();
  for (const h of exact) inPrefix.set(h.site, (inPrefix.get(h.site) ?? 0) + 1);
  if (inPrefix.size < sites.size) return false;
  if (!grouped) return true;
  const inExact = new Set(exact);
  let full = false;
  let partial = false;
  for (const h of all) {
    if (inExact.has(h)) continue;
    if (inPrefix.get(h.site)! < hitsPerSite) return false;
    if (h.full) full = true;
    else partial = true;
  }
  return !(full && partial);
}
