/**
 * @module searcher/sorted
 * A term's postings read beside a sorted list of documents, shared by their
 * entries and their pruning bounds.
 */
import { lowerBound } from '../shared/bisect.js';

/**
 * For each of `ids` (ascending) that is in `docs` (ascending) at j:
 * `out[i * stride + offset] = values[j]`; the others are left as they are.
 * Walks `docs` beside `ids`, or bisects it when it is far longer, so
 * `values` (laid out as `docs`) is read in order.
 */
export function gatherBeside(docs: ArrayLike<number>, values: ArrayLike<number>, ids: ArrayLike<number>, out: { [i: number]: number }, stride: number, offset: number): void {
  const n = ids.length;
  const search = docs.length > 16 * n;
  for (let i = 0, j = 0; i < n && j < docs.length; i++) {
    const id = ids[i]!;
    if (search) j = lowerBound(docs, id, j);
    else while (j < docs.length && docs[j]! < id) j++;
    if (j < docs.length && docs[j] === id) out[i * stride + offset] = values[j]!;
  }
}
