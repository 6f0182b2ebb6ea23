/**
 * @module shared/index/term-ids
 * The forward index's term ids bit-packed (format 8 to 11; format 12 groups them, forward-ids, and packs the groups' first ids so): each entry's id in as many bits
 * as the index's largest id needs (13 for a dictionary of 8,192 terms)
 * rather than 32, in a `term.packed` column of 32-bit words, least
 * significant bits first, with the width in `term.bits`. A fixed width keeps
 * each entry's id a constant-time read, so a document's sorted ids are still
 * binary searched in place, and makes the column's length known from the
 * number of entries before any is written. An index of an older layout has
 * a plain `term` column of 32-bit ids; the reader takes whichever it finds.
 */
import type { IndexFileColumns } from './format.js';

/** The column of packed ids: an index without it has a plain `term` column. */
export const TERM_PACKED = 'term.packed';

/** The bits an id of a dictionary of `terms` terms needs (at least one). */
export function termBits(terms: number): number {
  return Math.max(1, 32 - Math.clz32(Math.max(0, terms - 1)));
}

/** Words that hold `entries` ids of `bits` bits. */
const wordsFor = (entries: number, bits: number) => Math.ceil((entries * bits) / 32);

/** The id at entry `e` of ids packed `bits` wide, its words read by `word(i)`. */
export function packedId(word: (i: number) => number, e: number, bits: number): number {
  const at = e * bits;
  const w = Math.floor(at / 32);
  const s = at % 32;
  let v = word(w) >>> s;
  if (s + bits > 32) v |= word(w + 1) << (32 - s);
  return bits === 32 ? v >>> 0 : v & ((1 << bits) - 1);
}

/** Packs ids `bits` wide a run at a time; each full word goes to `out`. */
export class TermPacker {
  private acc = 0;
  /** Bits of `acc` filled. */
  private used = 0;
  private words = new Uint32Array(1024);

  constructor(
    private readonly bits: number,
    private readonly out: (words: Uint32Array) => void,
  ) {}

  append(ids: Uint32Array): void {
    const { bits } = this;
    if (this.words.length < ids.length + 1) this.words = new Uint32Array(2 * ids.length + 2);
    const words = this.words;
    let n = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (bits < 32 && id >>> bits) throw new Error(`term id ${id} does not fit ${bits} bits`);
      this.acc |= id << this.used;
      this.used += bits;
      if (this.used >= 32) {
        words[n++] = this.acc;
        this.used -= 32;
        // The id's bits past the word just filled (none when it ended exactly there).
        this.acc = this.used ? id >>> (bits - this.used) : 0;
      }
    }
    if (n) this.out(words.subarray(0, n));
  }

  /** Writes the last, partly filled word. */
  close(): void {
    if (this.used) this.out(Uint32Array.of(this.acc));
    this.used = 0;
  }
}

/** The ids of entries `e0..e1` read from a forward index file being walked, whichever layout it has. */
export function readTermIds(cols: IndexFileColumns, e0: number, e1: number): Uint32Array {
  if (!cols.length('term.bits')) return cols.read('term', Uint32Array, e0, e1);
  const bits = cols.read('term.bits', Uint8Array, 0, 1)[0]!;
  const w0 = Math.floor((e0 * bits) / 32);
  const words = cols.read(TERM_PACKED, Uint32Array, w0, wordsFor(e1, bits));
  const out = new Uint32Array(e1 - e0);
  const word = (i: number) => words[i - w0]!;
  for (let e = e0; e < e1; e++) out[e - e0] = packedId(word, e, bits);
  return out;
}
