/**
 * @module shared/index/position-marks
 * Where each entry's positions start in the positions file, in a quarter
 * of a byte an entry: only every MARK-th run's start is kept (a `mark`),
 * the ones between found by skipping varints from the mark. An entry's run
 * is its title and content frequencies' worth of varints (the forward
 * index holds them; tf-codes keeps a count past TF_MAX in its overflow
 * list), and a varint ends at its first byte under 0x80, so a run's end
 * follows from its start without being stored. Marks are 32-bit, or two
 * 32-bit words each (`mark64`) in a file of 4 GiB of positions or more, as
 * run starts are (run-starts). An index of format 9 or older keeps every
 * start instead (run-starts), and its positions are read that way. Format
 * 13's positions (position-bits) keep their marks, every 64th entry's, with
 * the same writer and reader.
 */
import type { ColumnShape, IndexFileColumns, PackedColumnsWriter } from './format.js';
import type { PagedColumn, PagedFile } from './paged.js';
import { readRuns, readWide, toWords, wide } from './run-starts.js';

const MARK_SHIFT = 4;
const MARK = 1 << MARK_SHIFT;

/** The name of the marks column of a file of `bytes` of positions; an older file has none. */
const markName = (bytes: number) => (wide(bytes) ? 'mark64' : 'mark');

/** Marks of `entries` runs, one every 2^shift: the start of entries 0, 2^shift, … up to `entries` itself, then the end of the last run. */
export const markCount = (entries: number, shift = MARK_SHIFT) => (entries >>> shift) + 2;

/** Whether a positions file holds marks rather than every start. */
export const hasMarks = (has: (name: string) => boolean): boolean => has('mark') || has('mark64');

/** The column of marks of `entries` runs of `bytes` in all. */
export function markColumns(entries: number, bytes: number): ColumnShape[] {
  return [{ name: markName(bytes), type: 'u32', length: (wide(bytes) ? 2 : 1) * markCount(entries) }];
}

/** Where `count` varints from `at` end, reading bytes with `byte`; not past `limit` (a damaged file). */
export function skipVarints(byte: (i: number) => number, at: number, count: number, limit: number): number {
  for (; count > 0 && at < limit; at++) if (byte(at) < 0x80) count--;
  return at;
}

/**
 * Appends marks, as runs' starts come in entry order, to the column markColumns laid out at `col` of a file being
 * written: every 2^shift-th, the starts in bytes, or in bits (position-bits) whose `end` is then in bits too.
 */
export class MarksWriter {
  private entry = 0;
  private readonly marks: Float64Array;
  private readonly words: number;

  constructor(
    private readonly w: PackedColumnsWriter,
    private readonly col: number,
    entries: number,
    end: number,
    private readonly shift = MARK_SHIFT,
  ) {
    this.marks = new Float64Array(markCount(entries, shift));
    this.words = wide(end) ? 2 : 1;
  }

  /** The next runs' starts (absolute). */
  append(starts: Float64Array): void {
    const every = (1 << this.shift) - 1;
    for (let k = 0; k < starts.length; k++, this.entry++) if ((this.entry & every) === 0) this.marks[this.entry >>> this.shift] = starts[k]!;
  }

  /** Appends the end of the last run as the start of the next, and as the last mark, and writes the marks. */
  close(end: number): void {
    this.append(Float64Array.of(end));
    this.marks[this.marks.length - 1] = end;
    this.w.append(this.col, new Uint8Array(toWords(this.marks, this.words).buffer));
  }
}

/**
 * Reads positions' runs through a page cache by their marks (`name`, or its two-word form `<name>64`, every
 * 2^shift-th entry's), the count of varints of each of entries `from..to` given by `count`.
 */
export class PagedMarks {
  private readonly marks: PagedColumn;
  private readonly words: number;
  private readonly counts: Uint32Array;

  constructor(
    private readonly f: PagedFile,
    private readonly data: PagedColumn,
    private readonly count: (from: number, to: number, out: Uint32Array) => void,
    name = 'mark',
    private readonly shift = MARK_SHIFT,
  ) {
    this.words = f.has(`${name}64`) ? 2 : 1;
    this.marks = f.column(this.words === 2 ? `${name}64` : name, 'u32');
    this.counts = new Uint32Array(1 << shift);
  }

  /** Whether the marks are as many as `entries` runs have, the last at the end of the data (`unit` marks' units to a byte of it). */
  fits(entries: number, unit = 1): boolean {
    return this.marks.length === this.words * markCount(entries, this.shift) && Math.ceil(this.mark(this.marks.length / this.words - 1) / unit) === this.data.length;
  }

  /** Where entry e's run starts and ends. */
  run(e: number): [number, number] {
    // Not `e & ~(MARK - 1)`: entry numbers run to 2^32, past 32-bit signed operations.
    const first = e - (e & (this.counts.length - 1));
    const { counts } = this;
    this.count(first, e + 1, counts);
    let before = 0;
    for (let k = 0; k < e - first; k++) before += counts[k]!;
    const from = this.skip(this.mark(e >>> this.shift), before);
    return [from, this.skip(from, counts[e - first]!)];
  }

  /** Where `count` varints from `at` end, scanned a page at a time. */
  skip(at: number, count: number): number {
    const limit = this.data.length;
    while (count > 0 && at < limit) {
      const [page, off] = this.f.bytesAt(this.data, at);
      const end = Math.min(page.length, off + limit - at);
      let p = off;
      for (; p < end && count > 0; p++) if (page[p]! < 0x80) count--;
      at += p - off;
    }
    return at;
  }

  /** Mark i: entry i·2^shift's start. */
  mark(i: number): number {
    return this.words === 1 ? this.f.u32(this.marks, i) : this.f.u32(this.marks, 2 * i) + this.f.u32(this.marks, 2 * i + 1) * 2 ** 32;
  }
}

/**
 * The starts of runs `e0..e1` and the end of the last, and their bytes, read
 * from a positions file being walked, by its marks or its starts: `count(e)`
 * is entry e's count of varints, asked for the entries from e0's mark on.
 */
export function readPositionRuns(cols: IndexFileColumns, e0: number, e1: number, count: (entry: number) => number): { start: Float64Array; data: Uint8Array } {
  if (!hasMarks((name) => cols.has(name))) return readRuns(cols, e0, e1);
  const m0 = e0 >>> MARK_SHIFT;
  // The mark at or past e1: e1's start lies before it.
  const m1 = Math.ceil(e1 / MARK);
  const marks = readWide(cols, 'mark', m0, m1 + 1);
  const from = marks[0]!;
  const data = cols.read('data', Uint8Array, from, marks[m1 - m0]!);
  const byte = (i: number) => data[i]!;
  const start = new Float64Array(e1 - e0 + 1);
  let at = 0;
  for (let e = m0 * MARK; e < e1; e++) {
    if (e >= e0) start[e - e0] = from + at;
    at = skipVarints(byte, at, count(e), data.length);
  }
  start[e1 - e0] = from + at;
  return { start, data: data.subarray(start[0]! - from, at) };
}
