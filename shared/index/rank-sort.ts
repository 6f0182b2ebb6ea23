/**
 * @module shared/index/rank-sort
 * A document's entries put in dictionary order as the forward index is
 * written: each entry's term id has a rank (its place in the sorted
 * dictionary), and the entries are wanted by rank ascending, with where
 * each came from. A radix sort of (rank, entry) pairs, a few bits of the
 * rank a pass: a document has hundreds of entries whose ranks are spread
 * over the whole dictionary, and a comparison sort of the ranks, then a
 * table of the dictionary's size to find each entry again (a likely cache
 * miss an entry), took 2.5 times as long on pages like the growth corpus's.
 */

/** The most bits of the rank sorted on a pass: the ranks' bits are shared evenly among as few passes as that allows. */
const MAX_DIGIT = 11;
/** Below this many entries, an insertion sort costs less than clearing and summing the buckets. */
const SMALL = 64;

export class RankSort {
  private keys = new Uint32Array(1024);
  private from = new Uint32Array(1024);
  private keys2 = new Uint32Array(1024);
  private from2 = new Uint32Array(1024);
  /** Bits a pass sorts on. */
  private readonly digit: number;
  private readonly count: Uint32Array;

  /** `bits`: the bits of the largest rank (term-ids' termBits of the dictionary's size). */
  constructor(private readonly bits: number) {
    this.digit = Math.ceil(bits / Math.ceil(bits / MAX_DIGIT));
    this.count = new Uint32Array(1 << this.digit);
  }

  /**
   * The ranks of `terms` (`rank[term]`, each term once) ascending, and
   * `order[j]`: the index in `terms` of the j-th; both valid until the next call.
   */
  sort(terms: Uint32Array, rank: Uint32Array): { sorted: Uint32Array; order: Uint32Array } {
    const n = terms.length;
    if (this.keys.length < n) for (const k of ['keys', 'from', 'keys2', 'from2'] as const) this[k] = new Uint32Array(2 * n);
    let { keys, from, keys2, from2 } = this;
    if (n < SMALL) {
      for (let k = 0; k < n; k++) {
        const r = rank[terms[k]!]!;
        let j = k;
        for (; j > 0 && keys[j - 1]! > r; j--) (keys[j] = keys[j - 1]!), (from[j] = from[j - 1]!);
        keys[j] = r;
        from[j] = k;
      }
      return { sorted: keys.subarray(0, n), order: from };
    }
    // Merge adds a segment's entries with their ranks ascending already: those need no pass.
    let ascending = true;
    for (let k = 0; k < n; k++) {
      const r = (keys[k] = rank[terms[k]!]!);
      from[k] = k;
      if (k && r < keys[k - 1]!) ascending = false;
    }
    if (ascending) return { sorted: keys.subarray(0, n), order: from };
    const { count, digit } = this;
    const mask = count.length - 1;
    for (let shift = 0; shift < this.bits; shift += digit) {
      count.fill(0);
      for (let i = 0; i < n; i++) count[(keys[i]! >>> shift) & mask]!++;
      for (let b = 0, sum = 0; b < count.length; b++) {
        const c = count[b]!;
        count[b] = sum;
        sum += c;
      }
      for (let i = 0; i < n; i++) {
        const key = keys[i]!;
        const at = count[(key >>> shift) & mask]!++;
        keys2[at] = key;
        from2[at] = from[i]!;
      }
      [keys, keys2, from, from2] = [keys2, keys, from2, from];
    }
    return { sorted: keys.subarray(0, n), order: from };
  }
}
