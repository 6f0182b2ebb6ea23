/**
 * @module shared/index/dictionary
 * The term dictionary as a reader holds it: the terms file's `words` bytes
 * as they lie (UTF-8, a newline between terms, sorted as JavaScript compares
 * strings) and where every sixteenth term starts, a term found by binary
 * search over those and a short read on. No string is made a term: at 100k
 * pages the 321k terms as strings, an array and a Map of them were some
 * 40 MB of every searcher worker's heap, where the bytes are 3 MB.
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

/** Terms a kept start covers: a lookup binary-searches the kept starts' terms, then reads on through at most this many. */
const EVERY = 16;
const EVERY_SHIFT = 4;

export class TermDictionary {
  private readonly bytes: Buffer;
  private readonly count: number;
  /**
   * Where every sixteenth term starts (term `k · 16`), as Lucene's terms
   * index keeps every so many terms of a block: a start for every term was
   * 8 MB of every searcher worker at a million pages' 2.1 million terms.
   */
  private readonly starts: Uint32Array;

  /**
   * The terms file's `words` column, kept as it is (not copied). One pass over its bytes, not an indexOf a
   * term: at a million pages' 2.1 million terms (20 MB) two passes of indexOf took some 125 ms of a
   * searcher's start, the loop 30.
   */
  constructor(words: Uint8Array) {
    this.bytes = Buffer.from(words.buffer, words.byteOffset, words.length);
    const kept: number[] = words.length ? [0] : [];
    let newlines = 0;
    for (let i = 0; i < words.length; i++) if (words[i] === NEWLINE && (++newlines & (EVERY - 1)) === 0) kept.push(i + 1);
    this.count = words.length ? newlines + 1 : 0;
    this.starts = Uint32Array.from(kept);
  }

  get size(): number {
    return this.count;
  }

  /** Where the term after the one starting at `a` starts. */
  private next(a: number): number {
    return this.bytes.indexOf(NEWLINE, a) + 1;
  }

  /** The term of an id (0 ≤ id < size). */
  term(id: number): string {
    if (!(id >= 0 && id < this.size)) throw new RangeError(`no term ${id} in a dictionary of ${this.size}`);
    let a = this.starts[id >>> EVERY_SHIFT]!;
    for (let k = id & (EVERY - 1); k > 0; k--) a = this.next(a);
    const end = this.bytes.indexOf(NEWLINE, a);
    return this.bytes.toString('utf8', a, end < 0 ? this.bytes.length : end);
  }

  /** The order of the term starting at `a` against `q` (< 0: the term sorts first). */
  private compare(a: number, q: Uint8Array): number {
    const { bytes } = this;
    for (let i = 0; ; i++) {
      const b = a + i < bytes.length ? bytes[a + i]! : NEWLINE;
      if (b === NEWLINE) return i - q.length;
      if (i === q.length) return 1;
      if (b !== q[i]) return utf16Order(b, q[i]!);
    }
  }

  /** A term's id, or -1 when the dictionary lacks it. */
  id(term: string): number {
    const q = Buffer.from(term, 'utf8');
    const { starts } = this;
    // The last kept term at or before `term`, then the terms after it.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compare(starts[mid]!, q);
      if (c === 0) return mid << EVERY_SHIFT;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return -1;
    const first = (lo - 1) << EVERY_SHIFT;
    let a = starts[lo - 1]!;
    for (let id = first + 1; id < Math.min(first + EVERY, this.count); id++) {
      a = this.next(a);
      const c = this.compare(a, q);
      if (c === 0) return id;
      if (c > 0) return -1;
    }
    return -1;
  }

  /** Every term as a string, in id order: for walks of the whole dictionary (merge), made anew each call. */
  all(): string[] {
    return this.size ? this.bytes.toString('utf8').split('\n') : [];
  }
}
