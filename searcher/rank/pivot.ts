/**
 * @module searcher/rank/pivot
 * The body length BM25F normalises against. A body longer than the body
 * window (searcher.bm25f.content.window) is normalised as a window's worth of
 * text, so it counts as a window's length in the average too: a few
 * all-in-one pages of hundreds of thousands of words would otherwise raise
 * the pivot for every page, and every page past the average would weigh its
 * words more than before.
 */
import { FIELDS, type IndexReader } from '../../shared/index/types.js';

const F = FIELDS.length;
const CONTENT = FIELDS.indexOf('content');

/** Per reader, the pivot of each window asked for: a pass over every document's length, once. */
const pivots = new WeakMap<IndexReader, Map<number, number>>();

/** The mean of the bodies' lengths, each at most `window` terms (the index's own mean when the window is infinite). */
export function bodyPivot(reader: IndexReader, window: number): number {
  if (!Number.isFinite(window)) return reader.meta.avgFieldLength.content;
  let known = pivots.get(reader);
  if (!known) pivots.set(reader, (known = new Map()));
  let pivot = known.get(window);
  if (pivot === undefined) {
    const n = reader.meta.docCount;
    const lengths = reader.fieldLengths();
    let sum = 0;
    for (let d = 0; d < n; d++) sum += Math.min(lengths[d * F + CONTENT]!, window);
    known.set(window, (pivot = n ? sum / n : 0));
  }
  return pivot;
}
