/**
 * @module shared/index/postings-runs
 * The run files of the postings an index build inverts (shared/index/postings),
 * written and read side by side. A run is a batch of postings sorted by
 * term; per term present, ascending, it holds the term, its count, and its
 * postings as columns: their documents, then the frequencies of each field
 * the term has there, in a byte each when none is past 255. Most postings
 * are of one field with a small count, so a posting is about five bytes
 * rather than the sixteen it takes in the batch: every byte spilled is one
 * the kernel copies into the page cache and back.
 */
import { SpillSink, SpillSource } from './spill.js';
import { FIELDS } from './types.js';

const F = FIELDS.length;
/** Where a term's header word keeps the fields present (a bit a field) and whether they are 16 bits wide; its count is below. */
const PRESENT_SHIFT = 24;
const WIDE = 1 << (PRESENT_SHIFT + F);
const COUNT_MASK = (1 << PRESENT_SHIFT) - 1;

/**
 * Writes the run `run` holds as the batch sorts it: per term, its id, its
 * count, then its postings of `w` words each (the document, then the
 * frequencies by field, two to a word). A batch holds fewer than 2^24 postings.
 */
export function writeRun(file: string, run: Uint32Array, w: number): void {
  const tf = new Uint16Array(run.buffer, run.byteOffset, 2 * run.length);
  // No larger than the batch's form: a header of two words, and at most four bytes and F 16-bit values a posting.
  const out = new Uint8Array(run.byteLength);
  const out32 = new Uint32Array(out.buffer);
  const out16 = new Uint16Array(out.buffer);
  let b = 0;
  for (let g = 0; g < run.length; ) {
    const count = run[g + 1]!;
    if (count > COUNT_MASK) throw new RangeError(`a postings run of ${count} postings of one term: a batch holds fewer than ${COUNT_MASK + 1}`);
    const first = g + 2;
    let present = 0;
    let wide = 0;
    for (let i = 0; i < count; i++)
      for (let f = 0, at = 2 * (first + i * w + 1); f < F; f++) {
        const v = tf[at + f]!;
        present |= v ? 1 << f : 0;
        wide |= v >>> 8;
      }
    out32[b >>> 2] = run[g]!;
    out32[(b >>> 2) + 1] = count | (present << PRESENT_SHIFT) | (wide ? WIDE : 0);
    b += 8;
    for (let i = 0; i < count; i++, b += 4) out32[b >>> 2] = run[first + i * w]!;
    for (let f = 0; f < F; f++) {
      if (!(present & (1 << f))) continue;
      if (wide) for (let i = 0; i < count; i++, b += 2) out16[b >>> 1] = tf[2 * (first + i * w + 1) + f]!;
      else for (let i = 0; i < count; i++) out[b++] = tf[2 * (first + i * w + 1) + f]!;
    }
    b = (b + 3) & ~3;
    g = first + count * w;
  }
  const sink = new SpillSink(file);
  sink.raw(out.subarray(0, b));
  sink.close();
}

/** A run read back a term at a time, in order. */
export class RunReader {
  private readonly src: SpillSource;
  /** The next term's id, -1 past the last. */
  head: number;
  /** The postings `read` gave last: their documents, and frequencies by field (valid until it is called again). */
  docs = new Uint32Array(1024);
  tf = FIELDS.map(() => new Uint16Array(1024));

  constructor(file: string, readAhead: number) {
    this.src = new SpillSource(file, readAhead);
    this.head = this.src.more() ? this.src.u32() : -1;
  }

  /** Reads the head term's postings into `docs` and `tf`; returns how many, and moves to the next term. */
  read(): number {
    const s = this.src;
    const header = s.u32();
    const count = header & COUNT_MASK;
    const present = (header >>> PRESENT_SHIFT) & ((1 << F) - 1);
    const wide = (header & WIDE) !== 0;
    if (this.docs.length < count) (this.docs = new Uint32Array(2 * count)), (this.tf = FIELDS.map(() => new Uint16Array(2 * count)));
    s.u32sInto(count, this.docs);
    let bytes = 0;
    for (let f = 0; f < F; f++) {
      const col = this.tf[f]!;
      if (!(present & (1 << f))) col.fill(0, 0, count);
      else if (wide) (s.u16sInto(count, col), (bytes += 2 * count));
      else (col.set(s.bytes(count)), (bytes += count));
    }
    if (bytes & 3) s.bytes(4 - (bytes & 3));
    this.head = s.more() ? s.u32() : -1;
    return count;
  }

  close(): void {
    this.src.close();
  }
}
