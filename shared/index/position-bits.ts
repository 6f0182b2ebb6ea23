/**
 * @module shared/index/position-bits
 * Positions of an index of format 13: an entry's first position in its
 * document's `width` of bits (enough for its title+content length), in a
 * bitstream of their own (`first`), and its later ones as LEB128 varints of
 * the gaps (`data`), as all of them were before. A first position is the
 * term's first occurrence, anywhere in the page: as a varint it took two
 * bytes past the 128th term, about 11 bits here; most entries of a page have
 * no other. The gaps stay varints: the occurrences of a frequent word
 * are near one another, a byte each, less than a width (on pages of real
 * sites, most of the positions). Every entry has a first position (0 when it
 * has none, a term of the anchors or URL only), so where an entry's is
 * follows from every 64th entry's bit offset (a mark) and the widths of the
 * documents of the entries between; its gaps from every 16th entry's byte
 * offset, by skipping the gaps of the entries between, their counts being
 * the forward index's frequencies. Spill and merge carry positions as
 * varints of gaps (entries): the writer takes each entry's first varint out,
 * merge's walk puts it back.
 */
import { lowerBound } from '../bisect.js';
import { HzError } from '../errors.js';
import { putVarint, type DocEntries } from './entries.js';
import type { ColumnShape, IndexFileColumns, PackedColumnsWriter } from './format.js';
import type { PagedColumn, PagedFile } from './paged.js';
import { markCount, MarksWriter, PagedMarks } from './position-marks.js';
import { readWide, wide } from './run-starts.js';
import { FIELDS } from './types.js';

const TITLE = FIELDS.indexOf('title');
const CONTENT = FIELDS.indexOf('content');
/**
 * The first positions' marks every 64th entry: every entry has one (0 for an entry with no position), so a read
 * adds up the widths of the entries before its own, by documents, with no counts. The gaps' every 16th: a read of
 * an entry of more than one position counts the positions of at most 15 entries before it, as format 12 did.
 */
const FIRST_SHIFT = 6;
const GAP_SHIFT = 4;
const GAP_MARK = 1 << GAP_SHIFT;
/** The first positions' column, which a positions file of format 13 has; its marks are `first.mark`, the gaps' `gap.mark` (each `…64` in two words past 2^32). */
export const FIRSTS = 'first';
const FIRST_MARKS = 'first.mark';
const GAP_MARKS = 'gap.mark';
const POW2 = Array.from({ length: 41 }, (_, i) => 2 ** i);

/** The bits a first position of a document of `length` title+content terms takes. */
export const positionWidth = (length: number): number => (length > 1 ? 32 - Math.clz32(length - 1) : 0);

/** What a document's positions take: the bits of its entries' first positions, and the bytes of its gaps (each entry's varints but its first). */
export function positionSizes(e: Pick<DocEntries, 'posData' | 'posEnd' | 'lengths'>): { bits: number; bytes: number } {
  const { posData, posEnd } = e;
  let firstBytes = 0;
  for (let k = 0, p = 0; k < posEnd.length; p = posEnd[k++]!) {
    if (p === posEnd[k]) continue;
    while (posData[p++]! >= 0x80) firstBytes++;
    firstBytes++;
  }
  return { bits: posEnd.length * positionWidth(e.lengths[TITLE]! + e.lengths[CONTENT]!), bytes: posData.length - firstBytes };
}

/** The columns of a positions file of `entries` entries, `bits` of first positions and `bytes` of gaps, in the order PositionsWriter appends. */
export function positionColumns(entries: number, bits: number, bytes: number): ColumnShape[] {
  const marks = (name: string, end: number, shift: number): ColumnShape => ({ name: wide(end) ? `${name}64` : name, type: 'u32', length: (wide(end) ? 2 : 1) * markCount(entries, shift) });
  return [marks(FIRST_MARKS, bits, FIRST_SHIFT), marks(GAP_MARKS, bytes, GAP_SHIFT), { name: FIRSTS, type: 'u8', length: Math.ceil(bits / 8) }, { name: 'data', type: 'u8', length: bytes }];
}

/** Writes the positions file positionColumns laid out, a document at a time. */
export class PositionsWriter {
  private readonly firstMarks: MarksWriter;
  private readonly gapMarks: MarksWriter;
  private acc = 0;
  /** Bits in `acc`, fewer than 8 between documents. */
  private pending = 0;
  private bits = 0;
  private bytes = 0;
  /** Bytes of first positions of the document at hand. */
  private fb = 0;
  private firstOut = new Uint8Array(1024);
  private gapOut: Uint8Array = new Uint8Array(4096);
  private firstAt = new Float64Array(1024);
  private gapAt = new Float64Array(1024);

  constructor(
    private readonly w: PackedColumnsWriter,
    entries: number,
    bits: number,
    bytes: number,
    private readonly file: string,
  ) {
    this.firstMarks = new MarksWriter(w, 0, entries, bits, FIRST_SHIFT);
    this.gapMarks = new MarksWriter(w, 1, entries, bytes, GAP_SHIFT);
  }

  /**
   * Appends a document's `n` entries of `length` title+content terms: entry j's positions (varints of gaps) are
   * spilled entry `order[j]`'s, `data` up to `posEnd[order[j]]` from where the one before it ends.
   */
  add(n: number, length: number, data: Uint8Array, posEnd: Uint32Array, order: Uint32Array): void {
    const width = positionWidth(length);
    const limit = POW2[width]!;
    if (this.firstAt.length < n) (this.firstAt = new Float64Array(2 * n)), (this.gapAt = new Float64Array(2 * n));
    const room = Math.ceil((n * width) / 8) + 8;
    if (this.firstOut.length < room) this.firstOut = new Uint8Array(2 * room);
    this.fb = 0;
    let gb = 0;
    for (let j = 0; j < n; j++) {
      this.firstAt[j] = this.bits;
      this.gapAt[j] = this.bytes + gb;
      const k = order[j]!;
      let p = k ? posEnd[k - 1]! : 0;
      const end = posEnd[k]!;
      let v = 0;
      if (p < end) {
        let b = data[p++]!;
        v = b & 0x7f;
        for (let scale = 128; b & 0x80; scale *= 128) v += ((b = data[p++]!) & 0x7f) * scale;
      }
      if (v >= limit) throw new HzError('HZ_ERR_INDEX_FORMAT', `${this.file}: position ${v} is past its document's ${length} terms`);
      // Fewer than 8 bits wait in `acc`: 24 more still fit 31 bits.
      if (width <= 24) this.put(v, width);
      else (this.put(v % 0x10000, 16), this.put(Math.floor(v / 0x10000), width - 16));
      this.bits += width;
      if (this.gapOut.length < gb + end - p) this.gapOut = grow(this.gapOut, gb + end - p);
      for (; p < end; p++) this.gapOut[gb++] = data[p]!;
    }
    this.bytes += gb;
    this.w.append(2, this.firstOut.subarray(0, this.fb));
    this.w.append(3, this.gapOut.subarray(0, gb));
    this.firstMarks.append(this.firstAt.subarray(0, n));
    this.gapMarks.append(this.gapAt.subarray(0, n));
  }

  /** Appends `v`, `width` bits (at most 24), to the first positions' bytes. */
  private put(v: number, width: number): void {
    let acc = this.acc | (v << this.pending);
    let pending = this.pending + width;
    for (; pending >= 8; pending -= 8, acc >>>= 8) this.firstOut[this.fb++] = acc & 0xff;
    this.acc = acc;
    this.pending = pending;
  }

  /** Appends the last partial byte and the marks. */
  close(): void {
    if (this.pending) this.w.append(2, Uint8Array.of(this.acc));
    this.firstMarks.close(this.bits);
    this.gapMarks.close(this.bytes);
  }
}

function grow(a: Uint8Array, n: number): Uint8Array {
  const b = new Uint8Array(2 * n);
  b.set(a);
  return b;
}

/** The value `width` bits wide at bit `bit` of `bytes`. */
function bitsAt(bytes: Uint8Array, bit: number, width: number): number {
  const p0 = bit >>> 3;
  // Four bytes hold a value of up to 25 bits wherever it starts in its first.
  if (width <= 25) return ((bytes[p0]! | (bytes[p0 + 1]! << 8) | (bytes[p0 + 2]! << 16) | (bytes[p0 + 3]! << 24)) >>> (bit & 7)) & ((1 << width) - 1);
  let v = 0;
  for (let got = 0, p = bit >>> 3, shift = bit & 7; got < width; got += 8 - shift, shift = 0) v += (bytes[p++]! >>> shift) * POW2[got]!;
  return v % POW2[width]!;
}

/** Decodes LEB128 varints of gaps from `data[from..to)` as positions after `prev` into `out`, up to `max` in all. */
function addGaps(data: Uint8Array, from: number, to: number, prev: number, max: number, out: number[]): number[] {
  for (let p = from; p < to && out.length < max; ) {
    let b = data[p++]!;
    let v = b & 0x7f;
    for (let scale = 128; b & 0x80; scale *= 128) v += ((b = data[p++]!) & 0x7f) * scale;
    out.push((prev += v));
  }
  return out;
}

/** Documents as the forward index lays them out: where each one's entries start, and its title+content length. */
export interface DocLayout {
  start: ArrayLike<number>;
  length: (doc: number) => number;
}

/** The document an entry is of, by where each document's entries start: the last at or before it. */
export const docOfEntry = (start: ArrayLike<number>, entry: number): number => lowerBound(start, entry + 1) - 1;

/** Reads entries' positions from a positions file of format 13 through a page cache; `count` gives entries' counts of positions. */
export class PagedPositionBits {
  private readonly firsts: PagedColumn;
  private readonly data: PagedColumn;
  private readonly firstMarks: PagedMarks;
  private readonly gapMarks: PagedMarks;
  private readonly counts = new Uint32Array(GAP_MARK);
  private scratch = new Uint8Array(256);

  constructor(
    private readonly f: PagedFile,
    private readonly count: (from: number, to: number, out: Uint32Array) => void,
  ) {
    this.firsts = f.column(FIRSTS, 'u8');
    this.data = f.column('data', 'u8');
    this.firstMarks = new PagedMarks(f, this.firsts, count, FIRST_MARKS, FIRST_SHIFT);
    this.gapMarks = new PagedMarks(f, this.data, count, GAP_MARKS, GAP_SHIFT);
  }

  /** Whether the marks are as many as `entries` entries have, the last ones at the end of the bits and the bytes. */
  fits(entries: number): boolean {
    return this.firstMarks.fits(entries, 8) && this.gapMarks.fits(entries);
  }

  /**
   * Entry e's positions, the first `max`, in `docs`. `count`, its count of positions when the caller knows it (from
   * the postings' frequencies), spares reading it: an entry of one position then costs its first's pages alone.
   */
  positions(e: number, max: number, docs: DocLayout, count?: number): number[] {
    let n = count;
    if (n === undefined) {
      this.count(e, e + 1, this.counts);
      n = this.counts[0]!;
    }
    const out: number[] = [];
    if (!n || !max) return out;
    const bit = this.slot(e, docs);
    const width = positionWidth(docs.length(docOfEntry(docs.start, e)));
    const at = Math.floor(bit / 8);
    this.f.copy(this.firsts, at, Math.ceil((bit + width) / 8), this.scratch);
    out.push(bitsAt(this.scratch, bit - 8 * at, width));
    if (n === 1 || max === 1) return out;
    const g0 = this.gaps(e);
    const g1 = this.gapMarks.skip(g0, n - 1);
    if (this.scratch.length < g1 - g0) this.scratch = new Uint8Array(2 * (g1 - g0));
    this.f.copy(this.data, g0, g1, this.scratch);
    return addGaps(this.scratch, 0, g1 - g0, out[0]!, max, out);
  }

  /** Where entry e's first position and gaps start: merge's walk starts a window there. */
  start(e: number, docs: DocLayout): { bit: number; byte: number } {
    return { bit: this.slot(e, docs), byte: this.gaps(e) };
  }

  /** The bit where entry e's first position starts: its mark's, and the widths of the entries from the mark's on, a document at a time. */
  private slot(e: number, docs: DocLayout): number {
    const first = e - (e % (1 << FIRST_SHIFT));
    let bit = this.firstMarks.mark(Math.floor(e / (1 << FIRST_SHIFT)));
    for (let d = docOfEntry(docs.start, e), to = e; to > first; d--) {
      const from = Math.max(first, docs.start[d]!);
      bit += (to - from) * positionWidth(docs.length(d));
      to = from;
    }
    return bit;
  }

  /** The byte where entry e's gaps start: its mark's, the gaps of the entries from the mark's on skipped. */
  private gaps(e: number): number {
    const { counts } = this;
    const g = e - (e & (GAP_MARK - 1));
    this.count(g, e, counts);
    let gaps = 0;
    for (let k = 0; k < e - g; k++) gaps += counts[k]! && counts[k]! - 1;
    return this.gapMarks.skip(this.gapMarks.mark(e >>> GAP_SHIFT), gaps);
  }
}

/**
 * The runs of entries `e0..e1` of a positions file of format 13 being walked (merge), as entries carry them
 * (varints of gaps), with where each starts and the end of the last: `at` is where e0's first position and gaps
 * start (PagedPositionBits.start), `counts[k]` entry e0 + k's count of positions and `docs` the window's documents
 * (`start` from e0's on).
 */
export function readPositionBits(cols: IndexFileColumns, e0: number, e1: number, at: { bit: number; byte: number }, counts: Uint32Array, docs: DocLayout): { start: Float64Array; data: Uint8Array } {
  const m = e1 - e0;
  const widths = new Uint8Array(m);
  let bits = 0;
  for (let doc = 0, k = 0; k < m && doc + 1 < docs.start.length; doc++) {
    const width = positionWidth(docs.length(doc));
    for (const end = Math.min(m, docs.start[doc + 1]! - e0); k < end; k++) {
      widths[k] = width;
      bits += width;
    }
  }
  const from = Math.floor(at.bit / 8);
  const firstBytes = cols.read(FIRSTS, Uint8Array, from, Math.ceil((at.bit + bits) / 8));
  // The window's gaps end before the mark at or past e1.
  const gapBytes = cols.read('data', Uint8Array, at.byte, readWide(cols, GAP_MARKS, Math.ceil(e1 / GAP_MARK), Math.ceil(e1 / GAP_MARK) + 1)[0]!);
  const data = new Uint8Array(gapBytes.length + 5 * m);
  const start = new Float64Array(m + 1);
  let bit = at.bit - 8 * from;
  let b = 0;
  let g = 0;
  for (let k = 0; k < m; k++) {
    start[k] = b;
    const n = counts[k]!;
    bit += widths[k]!;
    if (!n) continue;
    b = putVarint(data, b, bitsAt(firstBytes, bit - widths[k]!, widths[k]!));
    for (let left = n - 1; left > 0 && g < gapBytes.length; g++) {
      if (gapBytes[g]! < 0x80) left--;
      data[b++] = gapBytes[g]!;
    }
  }
  start[m] = b;
  return { start, data: data.subarray(0, b) };
}
