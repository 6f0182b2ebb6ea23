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
 */
import { FIELDS, type IndexReader } from '../../shared/index/types.js';
import type { Bm25fQuery, DocVector } from './bm25f.js';
import type { DocTerms } from './docterms.js';

const CONTENT = FIELDS.indexOf('content');
const HEADING = FIELDS.indexOf('heading');

export interface BestSection {
  /** Index among the page's sections (in page order). */
  index: number;
  /** Its length in terms. */
  length: number;
  /** Its BM25F (the query's combination of its term scores). */
  score: number;
  /** Each query term's count in it. */
  tf: Float64Array;
}

/**
 * The best-scoring section of a document, for `query`: BM25F with the
 * average section as the body's pivot, its terms in `doc`'s slots `slots`;
 * `combine` adds up its term scores as the page's are. The returned function
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
): (id: number, page: number) => BestSection | undefined {
  const T = slots.length;
  const shared = new Float64Array(T);
  const scores = new Float64Array(T);
  const tf = new Float64Array(T);
  const at = new Int32Array(T);
  const runs: number[][] = new Array<number[]>(T).fill([]);
  return (id, page) => {
    const lengths = reader.sectionLengths(id);
    if (lengths.length < 2) return undefined;
    query.sharedTf(doc, CONTENT, HEADING, shared);
    // Each term at its best in any section bounds every section: most pages are settled without walking them.
    for (let t = 0; t < T; t++) {
      const s = slots[t]!;
      const r = (runs[t] = doc.has(s) ? reader.entrySections(doc.entry(s)) : []);
      let most = 0;
      for (let i = 0; i < r.length; i += 2) most = Math.max(most, query.unitTf(CONTENT, lengths[r[i]!]!) * r[i + 1]!);
      scores[t] = query.termScore(t, shared[t]! + most);
    }
    if (combine(scores) <= page) return undefined;
    // The terms' sections walked side by side in section order.
    at.fill(0);
    let best: BestSection | undefined;
    for (;;) {
      let section = Infinity;
      for (let t = 0; t < T; t++) if (at[t]! < runs[t]!.length && runs[t]![at[t]!]! < section) section = runs[t]![at[t]!]!;
      if (section === Infinity) return best;
      const unit = query.unitTf(CONTENT, lengths[section]!);
      for (let t = 0; t < T; t++) {
        const r = runs[t]!;
        const here = at[t]! < r.length && r[at[t]!] === section;
        tf[t] = here ? r[at[t]! + 1]! : 0;
        if (here) at[t]! += 2;
        scores[t] = query.termScore(t, shared[t]! + unit * tf[t]!);
      }
      const s = combine(scores);
      if (s > page && (!best || s > best.score)) best = { index: section, length: lengths[section]!, score: s, tf: tf.slice() };
    }
  };
}

/** The section as a document of its own (its body for the page's, no headings), for /explain's factors. */
export function sectionVector(doc: DocTerms, slots: readonly number[], best: BestSection): DocVector {
  const F = FIELDS.length;
  const lengths = Float64Array.from(doc.lengths);
  const tf = Float64Array.from(doc.tf);
  lengths[CONTENT] = best.length;
  lengths[HEADING] = 0;
  slots.forEach((s, t) => {
    tf[s * F + CONTENT] = best.tf[t]!;
    tf[s * F + HEADING] = 0;
  });
  return { lengths, tf };
}
