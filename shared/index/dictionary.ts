/**
 * @module shared/index/dictionary
 * The term dictionary as a reader holds it: the terms file's `words` bytes
 * as they lie (UTF-8, a newline between terms, sorted as JavaScript compares
 * strings) and where each term starts, a term found by binary search over
 * the bytes. No string is made a term: at 100k pages the 321k terms as
 * strings, an array and a Map of them were some 40 MB of every searcher
 * worker's heap, where the bytes and their offsets are 3.5 MB.
 */

const NEWLINE = 0x0a;

/**
 * The order of two different bytes at the first place two UTF-8 strings
 * differ, as JavaScript orders the strings (by UTF-16 code units): UTF-8
 * orders by code point, which agrees except that UTF-16 puts characters
 * past U+FFFF (4-byte leads F0–F4, surrogates in UTF-16) before U+E000–U+FFFF
 * (leads EE, EF). Bytes that differ at the same place after the same prefix
 * are both lead bytes or both continuations, and continuations are < 0xEE.
 */
export const utf16Order = (x: number, y: number): number => (x >= 0xee && y >= 0xee && x >= 0xf0 !== y >= 0xf0 ? (x >= 0xf0 ? -1 : 1) : x - y);

export class TermDictionary {
  private readonly bytes: Buffer;
  /** Term `i` is bytes `starts[i]` to `starts[i + 1] - 1` (its newline excluded); n + 1 entries. */
  private readonly starts: Uint32Array;

  /** The terms file's `words` column, kept as it is (not copied). */
  constructor(words: Uint8Array) {
    this.bytes = Buffer.from(words.buffer, words.byteOffset, words.length);
    let n = words.length ? 1 : 0;
    for (let i = words.indexOf(NEWLINE); i >= 0; i = words.indexOf(NEWLINE, i + 1)) n++;
    this.starts = new Uint32Array(n + 1);
    let t = 1;
    for (let i = words.indexOf(NEWLINE); i >= 0; i = words.indexOf(NEWLINE, i + 1)) this.starts[t++] = i + 1;
    this.starts[n] = words.length + 1;
  }

  get size(): number {
    return this.starts.length - 1;
  }

  /** The term of an id (0 ≤ id < size). */
  term(id: number): string {
    if (!(id >= 0 && id < this.size)) throw new RangeError(`no term ${id} in a dictionary of ${this.size}`);
    return this.bytes.toString('utf8', this.starts[id]!, this.starts[id + 1]! - 1);
  }

  /** A term's id, or -1 when the dictionary lacks it. */
  id(term: string): number {
    const q = Buffer.from(term, 'utf8');
    const { bytes, starts } = this;
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const a = starts[mid]!;
      const len = starts[mid + 1]! - 1 - a;
      const n = Math.min(len, q.length);
      let c = 0;
      for (let i = 0; i < n && c === 0; i++) if (bytes[a + i] !== q[i]) c = utf16Order(bytes[a + i]!, q[i]!);
      if (c === 0) c = len - q.length;
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** Every term as a string, in id order: for walks of the whole dictionary (merge), made anew each call. */
  all(): string[] {
    return this.size ? this.bytes.toString('utf8').split('\n') : [];
  }
}
