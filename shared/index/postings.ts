/**
 * @module shared/index/postings
 * The postings file: the forward index inverted once, when the index is
 * written, so a searcher reads a term's documents from disk instead of
 * inverting the whole forward index in its heap. Per term its documents
 * ascending, each with its forward-index entry (where positions and section
 * runs are addressed from) and its frequency in each field, side by side in
 * columns: the scores a query needs for its terms' postings are read in one
 * pass per column. The inversion walks the forward file once per range of
 * terms whose postings fit the pass budget, so writing it takes bounded
 * memory whatever the index's size.
 */
import { INDEX_FILES, IndexFileColumns, PackedColumnsWriter } from './format.js';
import { FIELDS } from './types.js';

/** Postings inverted in memory a pass (18 bytes each). */
const PASS_POSTINGS = 4_000_000;
/** Documents read from the forward file at a time. */
const WINDOW_DOCS = 4096;

const bytesOf = (a: Uint16Array | Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * Writes `<dir>/postings` from `<dir>/forward` (already written): `counts[t]`
 * is term t's number of postings (documents holding it in any field).
 * `passPostings` is smaller only to exercise several passes on a small index.
 */
export function writePostings(dir: string, docCount: number, counts: Uint32Array, passPostings = PASS_POSTINGS): void {
  const T = counts.length;
  const start = new Uint32Array(T + 1);
  for (let t = 0; t < T; t++) start[t + 1] = start[t]! + counts[t]!;
  const total = start[T]!;
  const out = new PackedColumnsWriter(dir, INDEX_FILES.postings, [
    { name: 'start', type: 'u32', length: T + 1 },
    { name: 'docs', type: 'u32', length: total },
    { name: 'entries', type: 'u32', length: total },
    ...FIELDS.map((f) => ({ name: `tf.${f}`, type: 'u16' as const, length: total })),
  ]);
  const [START, DOCS, ENTRIES, TF] = [0, 1, 2, 3];
  const fwd = new IndexFileColumns(dir, INDEX_FILES.forward);
  try {
    out.append(START, bytesOf(start));
    for (let t0 = 0; t0 < T; ) {
      // The terms [t0, t1) whose postings fit one pass (at least one term).
      let t1 = t0 + 1;
      while (t1 < T && start[t1 + 1]! - start[t0]! <= passPostings) t1++;
      const base = start[t0]!;
      const n = start[t1]! - base;
      const docs = new Uint32Array(n);
      const entries = new Uint32Array(n);
      const tfs = FIELDS.map(() => new Uint16Array(n));
      const at = start.slice(t0, t1);
      for (let first = 0; first < docCount; first += WINDOW_DOCS) {
        const last = Math.min(docCount, first + WINDOW_DOCS);
        const ds = fwd.read('start', Uint32Array, first, last + 1);
        const e0 = ds[0]!;
        const term = fwd.read('term', Uint32Array, e0, ds[last - first]!);
        const tf = FIELDS.map((f) => fwd.read(`tf.${f}`, Uint16Array, e0, ds[last - first]!));
        for (let d = first; d < last; d++)
          for (let e = ds[d - first]!; e < ds[d - first + 1]!; e++) {
            const t = term[e - e0]!;
            if (t < t0 || t >= t1) continue;
            const p = at[t - t0]!++ - base;
            docs[p] = d;
            entries[p] = e;
            for (let f = 0; f < FIELDS.length; f++) tfs[f]![p] = tf[f]![e - e0]!;
          }
      }
      out.append(DOCS, bytesOf(docs));
      out.append(ENTRIES, bytesOf(entries));
      tfs.forEach((c, f) => out.append(TF + f, bytesOf(c)));
      t0 = t1;
    }
  } catch (e) {
    out.abandon();
    throw e;
  } finally {
    fwd.close();
  }
  out.close();
}
