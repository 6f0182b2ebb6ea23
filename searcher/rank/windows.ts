/**
 * @module searcher/rank/windows
 * Window-level evidence for a page longer than the body window
 * (searcher.bm25f.content.window). Scored whole, such a page counts its
 * occurrences as if spread evenly (bm25f's lengthNorm: the window's share of
 * them at the window's length), so words scattered over megabytes do not add
 * up to a match. A page about the query in one place gets its due here: its
 * opening window (the first `window` terms: the overview a reader meets
 * first, and all Nutch's indexer.max.tokens kept of it) and its best window
 * (any `window` consecutive terms: fixed-length passages, the most reliable
 * passages in retrieval studies) are each scored with their counts as the
 * body's at the window's length, with the page's title, anchors and URL (not
 * its headings: they name every part of the page, as for sections). The
 * opening counts in full; the best window, a cut nobody made, counts half
 * its gain over the whole page — the mean of the two, as Callan combined a
 * document's score with its best passage's.
 */
import { FIELDS, type IndexReader } from '../../shared/index/types.js';
import type { Bm25fQuery } from './bm25f.js';
import type { DocTerms } from './docterms.js';
import { lowerBound } from '../../shared/bisect.js';

const CONTENT = FIELDS.indexOf('content');
const HEADING = FIELDS.indexOf('heading');

/** The share of the best window's gain over the whole page that counts. */
export const WINDOW_SHARE = 0.5;

export interface BestWindow {
  /** Position of its first term in the page's body (0 = the body's first term). */
  start: number;
  /** Its length in terms (the window). */
  length: number;
  /** Its BM25F (the query's combination of its term scores). */
  score: number;
  /** Each query term's count in it. */
  tf: Float64Array;
}

export interface LongPage {
  /** BM25F of the opening window. */
  opening: number;
  /** The best window (the opening, when none is better). */
  best: BestWindow;
}

/**
 * The query terms' occurrences in a body, by position: each `at` a body
 * position, `term` the query term's index there. Merged from the terms'
 * sorted lists of stream positions, those before `from` (the title's) left out.
 */
export function mergeOccurrences(lists: readonly (readonly number[])[], from: number): { at: Float64Array; term: Int32Array } {
  const next = lists.map((l) => lowerBound(l, from));
  let n = 0;
  lists.forEach((l, t) => (n += l.length - next[t]!));
  const at = new Float64Array(n);
  const term = new Int32Array(n);
  // A merge of the sorted lists (a query has a few terms: the least head found by a scan); ties by term.
  for (let i = 0; i < n; i++) {
    let least = -1;
    for (let t = 0; t < lists.length; t++) if (next[t]! < lists[t]!.length && (least < 0 || lists[t]![next[t]!]! < lists[least]![next[least]!]!)) least = t;
    at[i] = lists[least]![next[least]!++]! - from;
    term[i] = least;
  }
  return { at, term };
}

/**
 * The opening and the best run of `window` consecutive body terms over the
 * occurrences given (mergeOccurrences), each scored by `score(counts)`:
 * every window that starts at an occurrence is tried (a best window can
 * always be moved to start at one). Undefined when there is no occurrence.
 */
export function bestRun(
  occ: { at: ArrayLike<number>; term: ArrayLike<number> },
  terms: number,
  window: number,
  score: (counts: Float64Array) => number,
): { opening: number; start: number; score: number; counts: Float64Array } | undefined {
  if (occ.at.length === 0) return undefined;
  const counts = new Float64Array(terms);
  for (let i = 0; i < occ.at.length && occ.at[i]! < window; i++) counts[occ.term[i]!]!++;
  const opening = score(counts);
  let best = { opening, start: 0, score: opening, counts: counts.slice() };
  counts.fill(0);
  let end = 0;
  for (let i = 0; i < occ.at.length; i++) {
    const start = occ.at[i]!;
    while (end < occ.at.length && occ.at[end]! < start + window) counts[occ.term[end++]!]!++;
    // Windows starting at one position hold the same counts: scored once.
    if (i === 0 || occ.at[i - 1] !== start) {
      const s = score(counts);
      if (s > best.score) best = { opening, start, score: s, counts: counts.slice() };
    }
    counts[occ.term[i]!]!--;
  }
  return best;
}

/**
 * The text score of a page whole and from its windows combined: the best
 * of the page's own BM25F `page`, its opening's and half way to its best
 * window's (WINDOW_SHARE).
 */
export function windowText(page: number, long: Pick<LongPage, 'opening'> & { best: Pick<BestWindow, 'score'> }): number {
  return Math.max(page, long.opening, page + WINDOW_SHARE * (long.best.score - page));
}

/**
 * The windows of a document for `query`, its terms in `doc`'s slots
 * `slots`; `combine` adds up term scores as the page's are. The returned
 * function takes `id` (loaded in `doc`) and answers its opening and best
 * window when its body is longer than `window`, else undefined (also when
 * the body holds no query term). Positions are decoded in full: for the best
 * candidates only.
 */
export function windowScorer(
  reader: IndexReader,
  doc: DocTerms,
  query: Bm25fQuery,
  slots: readonly number[],
  combine: (scores: Float64Array) => number,
  window: number,
): (id: number) => LongPage | undefined {
  const T = slots.length;
  const shared = new Float64Array(T);
  const scores = new Float64Array(T);
  return (id) => {
    if (!(reader.fieldLength(id, 'content') > window)) return undefined;
    query.sharedTf(doc, CONTENT, HEADING, shared);
    const unit = query.unitTf(CONTENT, window);
    const occ = mergeOccurrences(
      slots.map((s) => doc.positions(s)),
      reader.fieldLength(id, 'title'),
    );
    const run = bestRun(occ, T, window, (counts) => {
      for (let t = 0; t < T; t++) scores[t] = query.termScore(t, shared[t]! + unit * counts[t]!);
      return combine(scores);
    });
    return run && { opening: run.opening, best: { start: run.start, length: window, score: run.score, tf: run.counts } };
  };
}
