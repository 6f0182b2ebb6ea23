/**
 * @module shared/index/entry-spill
 * The spill format of a document's entries (DocEntries), what the index
 * writer spills as documents are added and reads back once to write the
 * forward index: written and read side by side here. Every byte spilled is
 * a byte the kernel copies into the page cache and back, which on the growth
 * corpus was the largest single cost of an index build (the entries' spill
 * some 22 KB a page), so the arrays most documents need fewer bytes for are
 * spilled narrower: frequencies in a byte when none is past 255, where
 * positions end in 16 bits when they fit, and section runs only for a page
 * that has them.
 */
import type { DocEntries } from './entries.js';
import type { SpillSink, SpillSource } from './spill.js';
import { FIELDS } from './types.js';

const F = FIELDS.length;
/** Flags of a spilled document: frequencies in 16 bits, and where positions end in 32. */
const WIDE_TF = 1;
const WIDE_POS = 2;

/** Narrowed copies of the document at hand's arrays, reused from one document to the next. */
let narrowTf = new Uint8Array(1024 * F);
let narrowPos = new Uint16Array(1024);

/** Spills a document's entries. */
export function spillEntries(t: SpillSink, e: DocEntries): void {
  const n = e.terms.length;
  const { tf, posEnd } = e;
  let maxTf = 0;
  for (let i = 0; i < n * F; i++) maxTf |= tf[i]!;
  const flags = (maxTf > 0xff ? WIDE_TF : 0) | (n && posEnd[n - 1]! > 0xffff ? WIDE_POS : 0);
  t.u32(n);
  t.u32s(e.lengths);
  t.u32(flags);
  t.u32s(e.terms);
  if (flags & WIDE_TF) t.u16s(tf);
  else {
    narrowTf = room(narrowTf, n * F, Uint8Array);
    narrowTf.set(tf.subarray(0, n * F));
    t.raw(narrowTf.subarray(0, n * F));
  }
  if (flags & WIDE_POS) t.u32s(posEnd);
  else {
    narrowPos = room(narrowPos, n, Uint16Array);
    narrowPos.set(posEnd.subarray(0, n));
    t.u16s(narrowPos.subarray(0, n));
  }
  t.u32(e.sections.length);
  t.u32s(e.sections);
  t.u32(e.secData.length);
  if (e.secData.length) t.u32s(e.secEnd);
  t.raw(e.secData);
  t.raw(e.posData);
}

/** Grows a scratch array to hold `n`, its contents dropped. */
export function room<A extends Uint8Array | Uint16Array | Uint32Array>(a: A, n: number, ctor: new (n: number) => A): A {
  return a.length >= n ? a : new ctor(2 * n);
}

/**
 * Reads spilled documents back in order, into arrays reused from one
 * document to the next: what `next` gives is valid until it is called again.
 */
export class EntrySpillReader {
  private terms = new Uint32Array(1024);
  private tf = new Uint16Array(1024 * F);
  private posEnd = new Uint32Array(1024);
  private narrow = new Uint16Array(1024);
  private sections = new Uint32Array(1024);
  private secEnd = new Uint32Array(1024);
  /** The bytes of the document at hand's section runs, then of its positions, still to be read. */
  private secBytes = 0;
  private posBytes = 0;

  constructor(private readonly src: SpillSource) {}

  /**
   * The next document's entries, its field lengths read into `lengths`; its
   * section runs' bytes (`sectionData`) then its positions' bytes
   * (`positionData`) are to be read next.
   */
  next(lengths: Uint32Array): { terms: Uint32Array; tf: Uint16Array; posEnd: Uint32Array; sections: Uint32Array; secEnd: Uint32Array } {
    const src = this.src;
    const n = src.u32();
    src.u32sInto(F, lengths);
    const flags = src.u32();
    this.terms = room(this.terms, n, Uint32Array);
    this.tf = room(this.tf, n * F, Uint16Array);
    this.posEnd = room(this.posEnd, n, Uint32Array);
    this.secEnd = room(this.secEnd, n, Uint32Array);
    const terms = src.u32sInto(n, this.terms).subarray(0, n);
    const tf = this.tf;
    if (flags & WIDE_TF) src.u16sInto(n * F, tf);
    else tf.set(src.bytes(n * F));
    const posEnd = this.posEnd;
    if (flags & WIDE_POS) src.u32sInto(n, posEnd);
    else {
      this.narrow = room(this.narrow, n, Uint16Array);
      posEnd.set(src.u16sInto(n, this.narrow).subarray(0, n));
    }
    const sectionCount = src.u32();
    this.sections = room(this.sections, sectionCount, Uint32Array);
    const sections = src.u32sInto(sectionCount, this.sections).subarray(0, sectionCount);
    this.secBytes = src.u32();
    const secEnd = this.secEnd;
    if (this.secBytes) src.u32sInto(n, secEnd);
    else secEnd.fill(0, 0, n);
    this.posBytes = n ? posEnd[n - 1]! : 0;
    return { terms, tf, posEnd, sections, secEnd };
  }

  /** The document at hand's section runs' bytes: a view of the source's buffer until its next read. */
  sectionData(): Uint8Array {
    return this.src.bytes(this.secBytes);
  }

  /** The document at hand's positions' bytes, after its section runs': a view until the next read. */
  positionData(): Uint8Array {
    return this.src.bytes(this.posBytes);
  }
}
