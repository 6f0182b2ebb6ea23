/**
 * @module shared/index/postings-codec
 * One block of a term's postings as the postings file stores it (format 11):
 * up to BLOCK postings, their document-id gaps and frequency in each field
 * bit-packed, each column at the fewest bits that
 * hold its largest value in the block (as Lucene's and tantivy's block
 * postings do: a field the term is absent from costs no bits, a common
 * term's gaps a bit or two). A block is whole 32-bit words, so it is read
 * into a Uint32Array as it lies and unpacked with 32-bit integer shifts.
 * Bit-packed, a common term's postings decoded 1.6× faster than the same
 * as LEB128 varints in Node and a rare term's 8×, in 3.6 and 5.1 bytes a
 * posting against 8.0 and 9.0 (`npm run bench -- postings-codec`).
 *
 * Words of a block: [0] n | doc bits << 8 | NO_ENTRIES; [1] each field's tf
 * bits, 5 bits a field; then n doc gaps (each doc − the previous − 1; the
 * first from the previous block's last doc, or −1), n tfs per field.
 *
 * A block of formats 8–10 (without NO_ENTRIES) also holds each posting's
 * forward-index entry: entry bits << 14 in word [0], the first entry as word
 * [2], and n − 1 entry gaps after the doc gaps, passed over here. They were
 * 45 % of the postings' bytes (1.9 KB a page of a 10k growth crawl) for what
 * the forward index gives by a binary search among the few documents a query
 * reads positions or frequencies of (IndexReader.entry).
 */
import { FIELDS } from './types.js';

/** Postings a block (the last of a term's may hold fewer). */
export const BLOCK = 128;
const F = FIELDS.length;
/** Marks a block of format 11 on: no entries (bit 20 is 0 in an older block, whose entry bits end at 19). */
const NO_ENTRIES = 1 << 20;
const HEADER_WORDS = 2;
/** An older block's header: the first entry follows the tf bits. */
const OLD_HEADER_WORDS = 3;

/** Bits that hold `v` (0 for 0). */
const bitsOf = (v: number) => 32 - Math.clz32(v);

/** A block's postings, decoded: `tf[f]` beside `docs` for field f. */
export interface DecodedBlock {
  n: number;
  docs: Uint32Array;
  tf: Uint16Array[];
}

/** Room for one block's postings. */
export function blockBuffers(): DecodedBlock {
  return { n: 0, docs: new Uint32Array(BLOCK), tf: FIELDS.map(() => new Uint16Array(BLOCK)) };
}

/** Appends the first `n` of `values`, `w` bits each, to zeroed `words` at bit `bit`; returns the bit after them. */
function pack(words: Uint32Array, bit: number, n: number, w: number, values: Uint32Array | Uint16Array): number {
  if (!w) return bit;
  for (let i = 0; i < n; i++, bit += w) {
    const v = values[i]!;
    const k = bit >>> 5;
    const o = bit & 31;
    words[k]! |= v << o;
    if (o + w > 32) words[k + 1] = v >>> (32 - o);
  }
  return bit;
}

/** Reads `n` values of `w` bits from `words` at bit `bit` into `out`; returns the bit after them. */
function unpack(words: Uint32Array, bit: number, n: number, w: number, out: Uint32Array | Uint16Array): number {
  if (!w) {
    out.fill(0, 0, n);
    return bit;
  }
  const mask = w === 32 ? -1 : (1 << w) - 1;
  for (let i = 0; i < n; i++, bit += w) {
    const k = bit >>> 5;
    const o = bit & 31;
    let v = words[k]! >>> o;
    if (o + w > 32) v |= words[k + 1]! << (32 - o);
    out[i] = v & mask;
  }
  return bit;
}

/** The value of `w` bits (1–32) at bit `bit` of `words`. */
function valueAt(words: Uint32Array, bit: number, w: number): number {
  const k = bit >>> 5;
  const o = bit & 31;
  let v = words[k]! >>> o;
  if (o + w > 32) v |= words[k + 1]! << (32 - o);
  return w === 32 ? v >>> 0 : v & ((1 << w) - 1);
}

/** A block's document gaps as encodeBlock packs them. */
const GAPS = new Uint32Array(BLOCK);

/** The most words a block takes: every gap and frequency at 32 bits. */
export const MAX_BLOCK_WORDS = HEADER_WORDS + BLOCK * (1 + F);

/**
 * Encodes postings `b.docs`, `b.tf` (the first `b.n`) as a block after a
 * block ending at document `prevDoc` (−1 for a term's first): the block's
 * words, at the start of `into` (MAX_BLOCK_WORDS long) when given, else a fresh array.
 */
export function encodeBlock(b: DecodedBlock, prevDoc: number, into?: Uint32Array): Uint32Array {
  const { n, docs, tf } = b;
  let maxGap = 0;
  for (let i = 0, prev = prevDoc; i < n; prev = docs[i++]!) maxGap |= GAPS[i] = docs[i]! - prev - 1;
  const docW = bitsOf(maxGap);
  let bits = n * docW;
  let tfWidths = 0;
  for (let f = 0; f < F; f++) {
    const col = tf[f]!;
    let m = 0;
    for (let i = 0; i < n; i++) m |= col[i]!;
    const w = bitsOf(m);
    bits += n * w;
    tfWidths |= w << (5 * f);
  }
  const size = HEADER_WORDS + Math.ceil(bits / 32);
  const words = into ? into.subarray(0, size).fill(0) : new Uint32Array(size);
  words[0] = n | (docW << 8) | NO_ENTRIES;
  words[1] = tfWidths;
  let bit = pack(words, HEADER_WORDS * 32, n, docW, GAPS);
  for (let f = 0; f < F; f++) bit = pack(words, bit, n, (tfWidths >>> (5 * f)) & 31, tf[f]!);
  return words;
}

/**
 * Decodes the block at word `at` of `words` (after a block ending at
 * `prevDoc`) into `out`, its tfs only with `withTf` (a count of the
 * documents needs none); returns its postings. An older block's entries are
 * passed over.
 */
export function decodeBlock(words: Uint32Array, at: number, prevDoc: number, out: DecodedBlock, withTf = true): number {
  const h = words[at]!;
  const n = h & 0xff;
  const docW = (h >>> 8) & 63;
  const old = !(h & NO_ENTRIES);
  const docs = out.docs;
  let bit = unpack(words, (at + (old ? OLD_HEADER_WORDS : HEADER_WORDS)) * 32, n, docW, docs);
  for (let i = 0, prev = prevDoc; i < n; i++) prev = docs[i] = docs[i]! + prev + 1;
  if (old) bit += (n - 1) * ((h >>> 14) & 63);
  if (withTf) {
    const tfW = words[at + 1]!;
    for (let f = 0; f < F; f++) {
      const w = (tfW >>> (5 * f)) & 31;
      bit = unpack(words, bit, n, w, out.tf[f]!);
    }
  }
  out.n = n;
  return n;
}

/**
 * The frequencies of the postings at `places` (the first `k`, ascending) of
 * the block at word `at` of `words`, into `out` (the j-th place's at index
 * j), where decodeBlock gave its documents without them: a frequency,
 * fixed-width, is read where it stands. A block looked into for a few of its
 * documents (a pool's, DocTerms.locate) is not unpacked whole: its four
 * frequency columns are most of its values.
 */
export function decodePlaces(words: Uint32Array, at: number, places: ArrayLike<number>, k: number, out: DecodedBlock): void {
  const h = words[at]!;
  const n = h & 0xff;
  const old = !(h & NO_ENTRIES);
  let bit = (at + (old ? OLD_HEADER_WORDS : HEADER_WORDS)) * 32 + n * ((h >>> 8) & 63);
  if (old) bit += (n - 1) * ((h >>> 14) & 63);
  const tfW = words[at + 1]!;
  for (let f = 0; f < F; f++) {
    const w = (tfW >>> (5 * f)) & 31;
    const tf = out.tf[f]!;
    for (let j = 0; j < k; j++) tf[j] = w ? valueAt(words, bit + places[j]! * w, w) : 0;
    bit += n * w;
  }
}
