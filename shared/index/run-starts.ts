/**
 * @module shared/index/run-starts
 * Where each entry's byte run starts in a sections file (and in the
 * positions file of an index of format 9 or older: a newer one keeps
 * marks, position-marks), in two bytes an entry rather than four: the start of every BLOCK-th run as
 * a `base`, and each run's start as a 16-bit `offset` from its block's
 * base. A run is a few bytes, so a block of runs spans far less than
 * 64 KiB; an index where a block could span more (a page with a term tens
 * of thousands of times) keeps whole starts, as a `start` column, and the
 * reader takes whichever columns the file has. Bases and starts are 32-bit,
 * or two 32-bit words each (`base64`, `start64`) in a file of 4 GiB of runs
 * or more. Also a window of runs read whole, as merge walks an index's
 * documents.
 */
import type { ColumnShape, IndexFileColumns, PackedColumnsWriter } from './format.js';
import type { PagedColumn, PagedFile } from './paged.js';

const BLOCK_SHIFT = 8;
const BLOCK = 1 << BLOCK_SHIFT;
const OFFSET_LIMIT = 0x10000;

/**
 * An upper bound on the bytes a block of runs spans, counted as documents
 * are added, before their entries are put in order: every document a block
 * overlaps counts whole, so the bound holds for any order of entries
 * within a document.
 */
export class BlockBound {
  private block = -1;
  private sum = 0;
  private most = 0;
  private entries = 0;

  /** A document of `n` entries whose runs take `bytes`. */
  add(n: number, bytes: number): void {
    if (n === 0) return;
    const first = this.entries >>> BLOCK_SHIFT;
    const last = (this.entries + n - 1) >>> BLOCK_SHIFT;
    this.entries += n;
    if (first !== this.block) this.open(first);
    this.sum += bytes;
    if (last !== first) {
      this.open(last);
      this.sum = bytes;
    }
    this.most = Math.max(this.most, this.sum);
  }

  private open(block: number): void {
    this.most = Math.max(this.most, this.sum);
    this.block = block;
    this.sum = 0;
  }

  /** Whether 16-bit offsets hold every block's starts. */
  get fits(): boolean {
    return this.most < OFFSET_LIMIT;
  }
}

/** Whether starts of runs ending at `bytes` need more than 32 bits: they are then kept as two 32-bit words each, low first. */
export const wide = (bytes: number) => bytes >= WORD;
const WORD = 2 ** 32;

/** The columns that hold the starts of `entries` runs (the end of the last as one more) of `bytes` in all. */
export function startColumns(entries: number, offsets: boolean, bytes: number): ColumnShape[] {
  const n = entries + 1;
  const words = wide(bytes) ? 2 : 1;
  const suffix = wide(bytes) ? '64' : '';
  return offsets
    ? [
        { name: `base${suffix}`, type: 'u32', length: words * ((n + BLOCK - 1) >>> BLOCK_SHIFT) },
        { name: 'offset', type: 'u16', length: n },
      ]
    : [{ name: `start${suffix}`, type: 'u32', length: words * n }];
}

const bytesOf = (a: Uint16Array | Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** `values` as 32-bit words, or two each (low, high) when `words` is 2. */
export function toWords(values: ArrayLike<number>, words: number): Uint32Array {
  const out = new Uint32Array(words * values.length);
  if (words === 1) out.set(values);
  else
    for (let i = 0; i < values.length; i++) {
      out[2 * i] = values[i]! % WORD;
      out[2 * i + 1] = Math.floor(values[i]! / WORD);
    }
  return out;
}

/** Appends run starts, in entry order, to the columns startColumns laid out at `col` (and the one after) of a file being written. */
export class StartsWriter {
  private entry = 0;
  private base = 0;
  private offsets = new Uint16Array(1024);
  private readonly bases: Float64Array;
  private readonly words: number;

  constructor(
    private readonly w: PackedColumnsWriter,
    private readonly col: number,
    entries: number,
    private readonly asOffsets: boolean,
    bytes: number,
  ) {
    this.bases = new Float64Array(asOffsets ? (entries + BLOCK) >>> BLOCK_SHIFT : 0);
    this.words = wide(bytes) ? 2 : 1;
  }

  /** The next runs' starts (absolute). */
  append(starts: Float64Array): void {
    if (!this.asOffsets) {
      this.w.append(this.col, bytesOf(toWords(starts, this.words)));
      return;
    }
    if (this.offsets.length < starts.length) this.offsets = new Uint16Array(2 * starts.length);
    for (let k = 0; k < starts.length; k++, this.entry++) {
      if ((this.entry & (BLOCK - 1)) === 0) this.bases[this.entry >>> BLOCK_SHIFT] = this.base = starts[k]!;
      const off = starts[k]! - this.base;
      if (off >= OFFSET_LIMIT) throw new Error(`run start ${starts[k]} is ${off} bytes past its block's base`);
      this.offsets[k] = off;
    }
    this.w.append(this.col + 1, bytesOf(this.offsets.subarray(0, starts.length)));
  }

  /** Appends the end of the last run, and the bases. */
  close(end: number): void {
    this.append(Float64Array.of(end));
    if (this.asOffsets) this.w.append(this.col, bytesOf(toWords(this.bases, this.words)));
  }
}

/** Reads run starts from a paged file, whichever columns it has. */
export class PagedStarts {
  /** The starts, or the blocks' bases, and how many 32-bit words each takes. */
  private readonly col: PagedColumn;
  private readonly words: number;
  private readonly offset: PagedColumn | undefined;

  constructor(private readonly f: PagedFile) {
    const name = f.has('offset') ? 'base' : 'start';
    this.words = f.has(`${name}64`) ? 2 : 1;
    this.col = f.column(this.words === 2 ? `${name}64` : name, 'u32');
    if (f.has('offset')) this.offset = f.column('offset', 'u16');
  }

  /** Runs in the file. */
  get entries(): number {
    return (this.offset ? this.offset.length : this.col.length / this.words) - 1;
  }

  at(e: number): number {
    return this.offset ? this.word(e >>> BLOCK_SHIFT) + this.f.u16(this.offset, e) : this.word(e);
  }

  private word(i: number): number {
    return this.words === 1 ? this.f.u32(this.col, i) : this.f.u32(this.col, 2 * i) + this.f.u32(this.col, 2 * i + 1) * WORD;
  }
}

/** Elements `from` to `to` (exclusive) of a column of starts or bases, 32-bit or two words each, as numbers. */
export function readWide(cols: IndexFileColumns, name: string, from: number, to: number): Float64Array {
  if (!cols.length(`${name}64`)) return Float64Array.from(cols.read(name, Uint32Array, from, to));
  const w = cols.read(`${name}64`, Uint32Array, 2 * from, 2 * to);
  const out = new Float64Array(to - from);
  for (let i = 0; i < out.length; i++) out[i] = w[2 * i]! + w[2 * i + 1]! * WORD;
  return out;
}

/** The starts of runs `e0..e1` and the end of the last, read from an index file being walked. */
export function readStarts(cols: IndexFileColumns, e0: number, e1: number): Float64Array {
  if (!cols.length('offset')) return readWide(cols, 'start', e0, e1 + 1);
  const base = readWide(cols, 'base', e0 >>> BLOCK_SHIFT, (e1 >>> BLOCK_SHIFT) + 1);
  const offset = cols.read('offset', Uint16Array, e0, e1 + 1);
  const out = new Float64Array(offset.length);
  for (let e = e0; e <= e1; e++) out[e - e0] = base[(e >>> BLOCK_SHIFT) - (e0 >>> BLOCK_SHIFT)]! + offset[e - e0]!;
  return out;
}

/** A window's entries e0..e1 of a file of byte runs an entry (positions, sections): where each starts, and their bytes. */
export function readRuns(cols: IndexFileColumns, e0: number, e1: number): { start: Float64Array; data: Uint8Array } {
  const start = readStarts(cols, e0, e1);
  return { start, data: cols.read('data', Uint8Array, start[0]!, start[e1 - e0]!) };
}

/** Entries a..b of a window's runs as a document's entries carry them: each one's end from the first one's start, and their bytes. */
export function entryRuns(runs: { start: Float64Array; data: Uint8Array }, a: number, b: number): { end: Uint32Array; data: Uint8Array } {
  const { start, data } = runs;
  const s0 = start[a]!;
  const end = new Uint32Array(b - a);
  for (let k = 0; k < b - a; k++) end[k] = start[a + k + 1]! - s0;
  return { end, data: data.subarray(s0 - start[0]!, start[b]! - start[0]!) };
}
