/**
 * @module searcher/rank/sections
 * Section-level evidence for long pages. A reference page answers many
 * questions, each in a section of its own; scored whole, its length hides
 * the one section about the query, and a short page that repeats the words
 * wins. So a page of two sections or more (its headings cut its whole text,
 * past indexer.max.tokens too) also scores as each section: the section's
 * term counts and length as the body, against the average section's length
 * as BM25's pivot, with the page's title, anchors and URL (what names the
 * page names each of its parts) and no heading field (the section's heading
 * is in its body; the page's headings name other sections). The page keeps
 * the better of its own score and its best section's; the scorer adds the
 * difference, the section lift.
 *
 * A section shorter than half the average section is scored as if it were
 * that long (SHORTEST_SECTION). BM25's length normalisation, carried down to
 * a few words, multiplies their counts several times over: a glossary entry
 * or an index line of ten words naming a term would outscore the section
 * that explains it, though it is no more about the word than an ordinary
 * section using it as often.
 */
import { FIELDS, type IndexReader } from '../../shared/index/types.js';
import type { Bm25fQuery, DocVector } from './bm25f.js';
import type { DocTerms } from './docterms.js';

const CONTENT = FIELDS.indexOf('content');
const HEADING = FIELDS.indexOf('heading');

/** The shortest a section is scored as, in average sections. */
export const SHORTEST_SECTION = 0.5;

/** The length a section of `length` terms is scored at, given the average section's. */
export const scoredLength = (length: number, avgSection: number) => Math.max(length, SHORTEST_SECTION * avgSection);

export interface BestSection {
  /** Index among the page's sections (in page order). */
  index: number;
  /** Its length in terms. */
  length: number;
  /** The length it is scored at (scoredLength). */
  scoredLength: number;
  /** Its BM25F (the query's combination of its term scores). */
  score: number;
  /** Each query term's count in it. */
  tf: Float64Array;
}

/**
 * The best-scoring section of a document, for `query`: BM25F with the
 * average section as the body's pivot, its terms in `doc`'s slots `slots`;
 * `combine` adds up its term scores as the page's are; `avgSection` the
 * average section's length (short sections are scored at scoredLength). The returned function
 * takes `id`, the document at hand in `doc` (loaded), and `page`, the page's
 * own BM25F, and answers the best section when it scores above `page`, else
 * undefined (also when the page has fewer than two sections or none holds a
 * query term). Its working arrays are made once here: the top candidates of
 * every search pass through it.
 */
export function sectionScorer(
  reader: IndexReader,
  doc: DocTerms,
  query: Bm25fQuery,
  slots: readonly number[],
  combine: (scores: Float64Array) => number,
  avgSection: number,
): (id: number, page: number) => BestSection | undefined {
  const T = slots.length;
  const shared = new Float64Array(T);
  const absent = new Float64Array(T);
  const scores = new Float64Array(T);
  const tf = new Float64Array(T);
  const at = new Int32Array(T);
  const runs: number[][] = Array.from({ length: T }, () => []);
  let gain = new Float64Array(64);
  return (id, page) => {
    const lengths = reader.sectionLengths(id);
    const n = lengths.length;
    if (n < 2) return undefined;
    query.sharedTf(doc, CONTENT, HEADING, shared);
    // A term not in a section scores as its shared part alone.
    let none = 0;
    for (let t = 0; t < T; t++) none += absent[t] = query.termScore(t, shared[t]!);
    // A section's score is at most the sum of its terms' scores (exactly that without synonyms), so one pass over
    // the terms' sections bounds each section that holds one: the page is settled by it, or only sections that can
    // win are scored.
    if (gain.length < n) gain = new Float64Array(Math.max(n, 2 * gain.length));
    gain.fill(-Infinity, 0, n);
    let most = -Infinity;
    for (let t = 0; t < T; t++) {
      const s = slots[t]!;
      const r = runs[t]!;
      if (doc.has(s)) reader.entrySections(doc.entry(s), r);
      else r.length = 0;
      for (let i = 0; i < r.length; i += 2) {
        const section = r[i]!;
        const g = query.termScore(t, shared[t]! + query.unitTf(CONTENT, scoredLength(lengths[section]!, avgSection)) * r[i + 1]!) - absent[t]!;
        const had = gain[section]!;
        const sum = had === -Infinity ? g : had + g;
        gain[section] = sum;
        if (sum > most) most = sum;
      }
    }
    if (beaten(none + most, page)) return undefined;
    at.fill(0);
    let best: BestSection | undefined;
    for (let section = 0; section < n; section++) {
      const g = gain[section]!;
      if (g === -Infinity || beaten(none + g, best ? best.score : page)) continue;
      const unit = query.unitTf(CONTENT, scoredLength(lengths[section]!, avgSection));
      for (let t = 0; t < T; t++) {
        const r = runs[t]!;
        let a = at[t]!;
        while (a < r.length && r[a]! < section) a += 2;
        at[t] = a;
        if (a < r.length && r[a] === section) {
          tf[t] = r[a + 1]!;
          scores[t] = query.termScore(t, shared[t]! + unit * tf[t]!);
        } else {
          tf[t] = 0;
          scores[t] = absent[t]!;
        }
      }
      const s = combine(scores);
      if (s > page && (!best || s > best.score)) best = { index: section, length: lengths[section]!, scoredLength: scoredLength(lengths[section]!, avgSection), score: s, tf: tf.slice() };
    }
    return best;
  };
}

/** Whether a bound, summed in another order than the score it bounds, still cannot pass `bar` (with room for rounding). */
const beaten = (bound: number, bar: number) => bound + Math.abs(bound) * 1e-9 <= bar;

/** The section as a document of its own (its body, at the length it is scored at, for the page's; no headings), for /explain's factors. */
export function sectionVector(doc: DocTerms, slots: readonly number[], best: BestSection): DocVector {
  const F = FIELDS.length;
  const lengths = Float64Array.from(doc.lengths);
  const tf = Float64Array.from(doc.tf);
  lengths[CONTENT] = best.scoredLength;
  lengths[HEADING] = 0;
  slots.forEach((s, t) => {
    tf[s * F + CONTENT] = best.tf[t]!;
    tf[s * F + HEADING] = 0;
  });
  return { lengths, tf };
}
