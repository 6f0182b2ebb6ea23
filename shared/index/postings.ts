/**
 * @module shared/index/postings
 * The postings file: the forward index inverted as it is written, so a
 * searcher reads a term's documents from disk instead of inverting the whole
 * forward index in its heap. Per term its documents ascending, each with its
 * forward-index entry (where positions and section runs are addressed from)
 * and its frequency in each field, side by side in columns: the scores a
 * query needs for its terms' postings are read in one pass per column.
 * Documents come in id order; a batch of postings is sorted by term (a
 * counting sort keeps each term's documents ascending) and written to a run
 * file, and `write` takes each term's slices from the runs in order: memory
 * holds one batch whatever the index's size, and every posting is written
 * and read twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { INDEX_FILES, PackedColumnsWriter } from './format.js';
import { SpillSink, SpillSource } from './spill.js';
import { FIELDS } from './types.js';

/** Postings held before a batch is written to a run (18 bytes each, and as many for the sort). */
const BATCH_POSTINGS = 2_000_000;
const F = FIELDS.length;

const bytesOf = (a: Uint16Array | Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export class PostingsBuilder {
  /** The batch, grown by doubling up to `batch` postings. */
  private term = new Uint32Array(1024);
  private doc = new Uint32Array(1024);
  private entry = new Uint32Array(1024);
  /** Field f of posting i at `tf[i * F + f]`. */
  private tf = new Uint16Array(1024 * F);
  private held = 0;
  private readonly runs: string[] = [];

  /** `batch` is smaller only to exercise several runs on a small index. */
  constructor(
    private readonly spillDir: string,
    private readonly batch = BATCH_POSTINGS,
  ) {}

  /** Room for `n` postings in the batch (at most `batch`). */
  private room(n: number): void {
    if (this.held + n <= this.term.length) return;
    const size = Math.min(this.batch, Math.max(2 * this.term.length, this.held + n));
    const grow = <A extends Uint16Array | Uint32Array>(a: A, k: number): A => {
      const b = new (a.constructor as new (n: number) => A)(size * k);
      b.set(a.subarray(0, this.held * k));
      return b;
    };
    [this.term, this.doc, this.entry, this.tf] = [grow(this.term, 1), grow(this.doc, 1), grow(this.entry, 1), grow(this.tf, F)];
  }

  /**
   * Adds document `doc`'s postings (documents in ascending order): its terms
   * `terms` (ascending), the first of its entries `firstEntry` (entry j is
   * terms[j]'s), and `tf(f)[j]`, term j's frequency in field f.
   */
  add(doc: number, terms: Uint32Array, firstEntry: number, tf: (f: number) => Uint16Array): void {
    for (let from = 0; from < terms.length; ) {
      const n = Math.min(terms.length - from, this.batch - this.held);
      this.room(n);
      const h = this.held;
      this.term.set(terms.subarray(from, from + n), h);
      this.doc.fill(doc, h, h + n);
      for (let j = 0; j < n; j++) this.entry[h + j] = firstEntry + from + j;
      for (let f = 0; f < F; f++) {
        const col = tf(f);
        for (let j = 0; j < n; j++) this.tf[(h + j) * F + f] = col[from + j]!;
      }
      this.held += n;
      from += n;
      if (this.held === this.batch) this.spill();
    }
  }

  /** Writes the batch as a run: per term present, ascending, its count, documents, entries and frequencies by field. */
  private spill(): void {
    if (!this.held) return;
    const n = this.held;
    let maxTerm = 0;
    for (let i = 0; i < n; i++) if (this.term[i]! > maxTerm) maxTerm = this.term[i]!;
    const start = new Uint32Array(maxTerm + 2);
    for (let i = 0; i < n; i++) start[this.term[i]! + 1]!++;
    for (let t = 0; t <= maxTerm; t++) start[t + 1]! += start[t]!;
    const at = start.slice(0, maxTerm + 1);
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[at[this.term[i]!]!++] = i;
    const sink = new SpillSink(path.join(this.spillDir, `postings-${this.runs.length}`));
    const docs = new Uint32Array(n);
    const entries = new Uint32Array(n);
    const tfs = new Uint16Array(n * F);
    for (let t = 0; t <= maxTerm; t++) {
      const a = start[t]!;
      const b = start[t + 1]!;
      if (a === b) continue;
      for (let k = a; k < b; k++) {
        const i = order[k]!;
        docs[k] = this.doc[i]!;
        entries[k] = this.entry[i]!;
        for (let f = 0; f < F; f++) tfs[f * n + k] = this.tf[i * F + f]!;
      }
      sink.u32(t);
      sink.u32(b - a);
      sink.u32s(docs.subarray(a, b));
      sink.u32s(entries.subarray(a, b));
      for (let f = 0; f < F; f++) sink.u16s(tfs.subarray(f * n + a, f * n + b));
    }
    sink.close();
    this.runs.push(sink.file);
    this.held = 0;
  }

  /** Writes `<dir>/postings`; `counts[t]` is term t's number of postings, over every document added. */
  write(dir: string, counts: Uint32Array): void {
    this.spill();
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
    const sources = this.runs.map((f) => new SpillSource(f));
    try {
      out.append(START, bytesOf(start));
      const heads = sources.map((s) => (s.more() ? s.u32() : -1));
      for (;;) {
        let term = -1;
        for (const h of heads) if (h >= 0 && (term < 0 || h < term)) term = h;
        if (term < 0) break;
        // Runs in the order written: documents ascending within the term.
        sources.forEach((s, k) => {
          if (heads[k] !== term) return;
          const n = s.u32();
          out.append(DOCS, s.bytes(4 * n));
          out.append(ENTRIES, s.bytes(4 * n));
          for (let f = 0; f < F; f++) out.append(TF + f, s.bytes(2 * n));
          heads[k] = s.more() ? s.u32() : -1;
        });
      }
    } catch (e) {
      out.abandon();
      throw e;
    } finally {
      for (const s of sources) s.close();
      for (const f of this.runs) fs.rmSync(f, { force: true });
    }
    out.close();
  }
}
