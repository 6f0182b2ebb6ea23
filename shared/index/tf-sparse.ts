/**
 * @module shared/index/tf-sparse
 * The forward index's 16-bit frequency codes (tf-codes: title, anchor, url
 * and heading) kept only where they are not zero: about nine entries in ten
 * occur in the content alone. A bit an entry (`tf.has`) says whether it has a
 * code, the count of codes before every RANK-th entry (`tf.rank`) and the bits
 * since then find its place among the codes kept (`tf.sparse`), as a
 * rank directory over a bitmap does. An index of format 9 or older keeps a
 * code for every entry (`tf.code`), read as it is.
 *
 * The content frequency bytes (tf-codes' `tf.byte`) are kept the same way
 * where they are not 1 (format 11, `tfb.*`): 83 % of the entries of a 10k
 * growth crawl occur once in their page, whose byte took 0.73 KB a page.
 * An index of format 10 or older keeps a byte for every entry.
 */
import type { ColumnShape, ColumnType, IndexFileColumns, PackedColumnsWriter } from './format.js';
import type { PagedColumn, PagedFile } from './paged.js';

/** A column of one value an entry kept where it is not `usual`, and the names of its columns. */
export interface SparseValues {
  has: string;
  rank: string;
  sparse: string;
  type: Extract<ColumnType, 'u8' | 'u16'>;
  usual: number;
  /** The column of a value an entry of an older index. */
  dense: string;
}

/** The codes other than the content's (tf-codes), most 0. */
export const CODES: SparseValues = { has: 'tf.has', rank: 'tf.rank', sparse: 'tf.sparse', type: 'u16', usual: 0, dense: 'tf.code' };
/** The content frequency bytes (tf-codes), most 1. */
export const BYTES: SparseValues = { has: 'tfb.has', rank: 'tfb.rank', sparse: 'tfb.sparse', type: 'u8', usual: 1, dense: 'tf.byte' };

const RANK_SHIFT = 8;
/** Entries a rank counts; a multiple of 32, the entries of a bitmap word. */
const RANK = 1 << RANK_SHIFT;
const WORDS_A_RANK = RANK / 32;

/** The set bits of a 32-bit word. */
function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/** Whether a forward file keeps only the values of `v` that are not its usual one. */
export const isSparse = (has: (name: string) => boolean, v: SparseValues = CODES): boolean => has(v.has);

/** The columns of `entries` entries' values of `v` of which `kept` are not its usual one. */
export function codeColumns(entries: number, kept: number, v: SparseValues = CODES): ColumnShape[] {
  return [
    { name: v.has, type: 'u32', length: Math.ceil(entries / 32) },
    { name: v.rank, type: 'u32', length: Math.ceil(entries / RANK) },
    { name: v.sparse, type: v.type, length: kept },
  ];
}

/** Appends values of `v`, in entry order, to the columns codeColumns laid out at `col` and the two after it; the bitmap and ranks are written on close. */
export class CodesWriter {
  private entry = 0;
  private coded = 0;
  private readonly has: Uint32Array;
  private readonly rank: Uint32Array;
  private kept: Uint8Array | Uint16Array;

  constructor(
    private readonly w: PackedColumnsWriter,
    private readonly col: number,
    entries: number,
    private readonly v: SparseValues = CODES,
  ) {
    this.has = new Uint32Array(Math.ceil(entries / 32));
    this.rank = new Uint32Array(Math.ceil(entries / RANK));
    this.kept = v.type === 'u8' ? new Uint8Array(1024) : new Uint16Array(1024);
  }

  append(codes: Uint8Array | Uint16Array): void {
    if (this.kept.length < codes.length) this.kept = this.v.type === 'u8' ? new Uint8Array(2 * codes.length) : new Uint16Array(2 * codes.length);
    const usual = this.v.usual;
    let k = 0;
    for (let j = 0; j < codes.length; j++, this.entry++) {
      if (this.entry % RANK === 0) this.rank[this.entry / RANK] = this.coded + k;
      if (codes[j] === usual) continue;
      this.has[Math.floor(this.entry / 32)]! |= 1 << this.entry % 32;
      this.kept[k++] = codes[j]!;
    }
    this.coded += k;
    this.w.append(this.col + 2, new Uint8Array(this.kept.buffer, 0, k * this.kept.BYTES_PER_ELEMENT));
  }

  close(): void {
    this.w.append(this.col, new Uint8Array(this.has.buffer));
    this.w.append(this.col + 1, new Uint8Array(this.rank.buffer));
  }
}

/** An entry's value of `v` from a sparse forward file read through a page cache. */
export class PagedCodes {
  private readonly has: PagedColumn;
  private readonly rank: PagedColumn;
  private readonly sparse: PagedColumn;

  constructor(
    private readonly f: PagedFile,
    private readonly v: SparseValues = CODES,
  ) {
    this.has = f.column(v.has, 'u32');
    this.rank = f.column(v.rank, 'u32');
    this.sparse = f.column(v.sparse, v.type);
  }

  /** Whether the columns are as long as `entries` entries' are. */
  fits(entries: number): boolean {
    return this.has.length === Math.ceil(entries / 32) && this.rank.length === Math.ceil(entries / RANK);
  }

  code(entry: number): number {
    const w = Math.floor(entry / 32);
    const bit = entry % 32;
    const word = this.f.u32(this.has, w);
    if (!((word >>> bit) & 1)) return this.v.usual;
    let r = this.f.u32(this.rank, Math.floor(entry / RANK)) + popcount(bit ? word << (32 - bit) : 0);
    for (let i = w - (w % WORDS_A_RANK); i < w; i++) r += popcount(this.f.u32(this.has, i));
    return this.v.type === 'u8' ? this.f.u8(this.sparse, r) : this.f.u16(this.sparse, r);
  }

  /** The values of entries `from..to` into `out` from 0, the rank counted once: a read of positions counts a mark's run of entries. */
  values(from: number, to: number, out: Uint8Array | Uint16Array): void {
    if (from >= to) return;
    let w = Math.floor(from / 32);
    let word = this.f.u32(this.has, w);
    let r = this.f.u32(this.rank, Math.floor(from / RANK)) + popcount(from % 32 ? word << (32 - (from % 32)) : 0);
    for (let i = w - (w % WORDS_A_RANK); i < w; i++) r += popcount(this.f.u32(this.has, i));
    for (let e = from; e < to; e++) {
      if (e >>> 5 !== w) word = this.f.u32(this.has, (w = e >>> 5));
      out[e - from] = (word >>> (e & 31)) & 1 ? (this.v.type === 'u8' ? this.f.u8(this.sparse, r++) : this.f.u16(this.sparse, r++)) : this.v.usual;
    }
  }
}

/** An entry's value of `v` from a forward file read through a page cache, kept sparse or one an entry (an older index); `fits` checks the columns against an entry count. */
export function pagedValues(f: PagedFile, v: SparseValues): { value(entry: number): number; values(from: number, to: number, out: Uint8Array | Uint16Array): void; fits(entries: number): boolean } {
  if (isSparse((name) => f.has(name), v)) {
    const sparse = new PagedCodes(f, v);
    return { value: (entry) => sparse.code(entry), values: (from, to, out) => sparse.values(from, to, out), fits: (entries) => sparse.fits(entries) };
  }
  const dense = f.column(v.dense, v.type);
  return {
    value: (entry) => (v.type === 'u8' ? f.u8(dense, entry) : f.u16(dense, entry)),
    values: (from, to, out) => f.copy(dense, from, to, out),
    fits: (entries) => dense.length === entries,
  };
}

/** The content frequency bytes and the codes of entries `from..to` of a forward file being walked. */
export function readTfs(cols: IndexFileColumns, from: number, to: number): [Uint8Array, Uint16Array] {
  const bytes = isSparse((name) => cols.has(name), BYTES) ? readSparse(cols, from, to, BYTES, new Uint8Array(to - from)) : cols.read(BYTES.dense, Uint8Array, from, to);
  return [bytes, readCodes(cols, from, to)];
}

/** The codes of entries `from..to` of a forward file being walked, sparse or one an entry. */
export function readCodes(cols: IndexFileColumns, from: number, to: number): Uint16Array {
  if (!isSparse((name) => cols.has(name))) return cols.read(CODES.dense, Uint16Array, from, to);
  return readSparse(cols, from, to, CODES, new Uint16Array(to - from));
}

/** The values of `v` of entries `from..to` of a sparse forward file being walked, into `out`. */
function readSparse<A extends Uint8Array | Uint16Array>(cols: IndexFileColumns, from: number, to: number, v: SparseValues, out: A): A {
  if (from === to) return out;
  out.fill(v.usual);
  const w0 = Math.floor(from / RANK) * WORDS_A_RANK;
  const has = cols.read(v.has, Uint32Array, w0, Math.ceil(to / 32));
  let r = cols.read(v.rank, Uint32Array, Math.floor(from / RANK), Math.floor(from / RANK) + 1)[0]!;
  for (let e = w0 * 32; e < from; e++) r += (has[Math.floor(e / 32) - w0]! >>> e % 32) & 1;
  let n = 0;
  for (let e = from; e < to; e++) n += (has[Math.floor(e / 32) - w0]! >>> e % 32) & 1;
  const kept = v.type === 'u8' ? cols.read(v.sparse, Uint8Array, r, r + n) : cols.read(v.sparse, Uint16Array, r, r + n);
  for (let e = from, k = 0; e < to; e++) if ((has[Math.floor(e / 32) - w0]! >>> e % 32) & 1) out[e - from] = kept[k++]!;
  return out;
}
