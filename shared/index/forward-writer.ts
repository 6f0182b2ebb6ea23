/**
 * @module shared/index/forward-writer
 * The per-document files of an index written as the writer reads its
 * spilled documents back: each document's entries put in dictionary order,
 * then its term ids and frequencies appended to the forward index, its
 * positions and section runs to their files, each column in place
 * (format.PackedColumnsWriter), since every column's length is known from
 * the documents added.
 */
import { HzError } from '../errors.js';
import type { DocEntries } from './entries.js';
import { INDEX_FILES, PackedColumnsWriter } from './format.js';
import { room, type EntrySpillReader } from './entry-spill.js';
import { positionColumns, PositionsWriter } from './position-bits.js';
import { startColumns, StartsWriter } from './run-starts.js';
import { RUNS_FROM_POSITIONS } from './section-runs.js';
import { IdGroupsWriter, idColumns } from './forward-ids.js';
import { RankSort } from './rank-sort.js';
import { termBits } from './term-ids.js';
import { BYTE_ESCAPE, BYTE_FIELD, escapes, overKey, TF_MAX, tfByte, tfCounts, tfNibble, tfOf, type TfCounts } from './tf-codes.js';
import { BYTES, codeColumns, CodesWriter } from './tf-sparse.js';
import { FIELDS } from './types.js';

const F = FIELDS.length;
const TITLE = FIELDS.indexOf('title');
const CONTENT = FIELDS.indexOf('content');

/** Adds what a document's entries' frequencies add to the files' shape (tf-codes, tf-sparse), counted when it is added, before the columns are laid out. */
export function countEntryTfs(e: DocEntries, shape: TfCounts): void {
  tfCounts(e.tf, e.terms.length, BYTES.usual, shape);
}

/** What the files hold in all: every column's length follows from it. */
export interface ForwardShape {
  docs: number;
  entries: number;
  /** Overflowing frequencies (tf-codes). */
  overflow: number;
  /** Entries whose code is not zero (tf-sparse). */
  coded: number;
  /** Entries whose content frequency byte is not 1 (tf-sparse). */
  bytesKept: number;
  /** The bits of the positions' first ones, and the bytes of their gaps (position-bits). */
  posBits: number;
  posBytes: number;
  sectionCount: number;
  secBytes: number;
  /** Entries of the documents with section runs: a document whose runs are all empty has no starts in the sections file. */
  secRuns: number;
  /** Whether 16-bit offsets hold the section runs' starts (run-starts). */
  secOffsets: boolean;
}

/** The most a 32-bit column (entry numbers) can address. */
const U32_LIMIT = 2 ** 32;

/**
 * Refuses an index of more entries or sections than a 32-bit column
 * numbers (the postings' and the forward index's entry numbers, the
 * sections file's first section of each document; about four million
 * pages of documentation), rather than writing numbers that wrap: such a
 * crawl is served as shards. Positions and section runs of any size are
 * addressed (run-starts).
 */
export function checkShape(s: Pick<ForwardShape, 'entries' | 'sectionCount'>, dir: string): void {
  const over = (['entries', 'sectionCount'] as const).find((k) => s[k] >= U32_LIMIT);
  if (over) throw new HzError('HZ_ERR_USAGE', `${dir}: ${s[over]} ${over === 'entries' ? 'entries' : 'sections'} are more than one index's 32-bit columns number (${U32_LIMIT}): merge into shards (-shards n)`);
}

const bytesOf = (a: Uint16Array | Uint32Array | Float64Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export class ForwardWriter {
  private readonly forward: PackedColumnsWriter;
  private readonly positions: PackedColumnsWriter;
  private readonly sections: PackedColumnsWriter;
  private readonly posWriter: PositionsWriter;
  private readonly secStarts: StartsWriter;
  private readonly termIds: IdGroupsWriter;
  private readonly codes: CodesWriter;
  private readonly bytes: CodesWriter;
  private readonly bits: number;
  /** The data column of the sections file. */
  private readonly secDataCol: number;
  private readonly start: Uint32Array;
  /** Each document's field lengths (`[doc * F + f]`), which the postings' block bounds are taken from. */
  readonly lengths: Uint32Array;
  private readonly secDoc: Uint32Array;
  /** Each document's first run in the sections file. */
  private readonly secEntry: Uint32Array;
  private secRunAt = 0;
  private readonly overKeys: Float64Array;
  private readonly overTfs: Uint32Array;
  private overAt = 0;
  private readonly byRank: RankSort;
  /** The spilled entry of each of the document at hand's entries in dictionary order (RankSort's order). */
  private entryOf: Uint32Array = new Uint32Array(0);
  private docTf = FIELDS.map(() => new Uint16Array(1024));
  private tfBytes = new Uint8Array(1024);
  private tfCodes = new Uint16Array(1024);
  private secStart = new Float64Array(1024);
  /** The document at hand's positions as spilled (varints of gaps, entries), valid while it is added. */
  private posEnd: Uint32Array = new Uint32Array(0);
  private posData: Uint8Array = new Uint8Array(0);
  private secOut = new Uint8Array(1024);
  private doc = 0;
  private at = 0;
  private secAt = 0;
  private secCount = 0;

  constructor(dir: string, s: ForwardShape, terms: number) {
    checkShape(s, dir);
    this.start = new Uint32Array(s.docs + 1);
    this.lengths = new Uint32Array(s.docs * F);
    this.secDoc = new Uint32Array(s.docs + 1);
    this.secEntry = new Uint32Array(s.docs + 1);
    this.overKeys = new Float64Array(s.overflow);
    this.overTfs = new Uint32Array(s.overflow);
    this.bits = termBits(terms);
    this.byRank = new RankSort(this.bits);
    const files: PackedColumnsWriter[] = [];
    try {
      files.push(
        new PackedColumnsWriter(dir, INDEX_FILES.forward, [
          { name: 'start', type: 'u32', length: s.docs + 1 },
          ...codeColumns(s.entries, s.bytesKept, BYTES),
          ...codeColumns(s.entries, s.coded),
          { name: 'over.key', type: 'f64', length: s.overflow },
          { name: 'over.tf', type: 'u32', length: s.overflow },
          { name: 'lengths', type: 'u32', length: s.docs * F },
          ...idColumns(s.entries, this.bits), // last: the gaps' length is known once they are written
        ]),
      );
      files.push(new PackedColumnsWriter(dir, INDEX_FILES.positions, positionColumns(s.entries, s.posBits, s.posBytes)));
      const secStarts = startColumns(s.secRuns, s.secOffsets, s.secBytes);
      files.push(
        new PackedColumnsWriter(dir, INDEX_FILES.sections, [
          { name: 'doc', type: 'u32', length: s.docs + 1 },
          { name: 'length', type: 'u32', length: s.sectionCount },
          { name: 'entry', type: 'u32', length: s.docs + 1 },
          ...secStarts,
          { name: 'data', type: 'u8', length: s.secBytes },
          { name: RUNS_FROM_POSITIONS, type: 'u8', length: 0 },
        ]),
      );
      this.secDataCol = 3 + secStarts.length;
    } catch (e) {
      for (const f of files) f.abandon();
      throw e;
    }
    [this.forward, this.positions, this.sections] = files as [PackedColumnsWriter, PackedColumnsWriter, PackedColumnsWriter];
    this.posWriter = new PositionsWriter(this.positions, s.entries, s.posBits, s.posBytes, dir);
    this.secStarts = new StartsWriter(this.sections, 3, s.secRuns, s.secOffsets, s.secBytes);
    this.termIds = new IdGroupsWriter(this.forward, 10, this.bits);
    this.bytes = new CodesWriter(this.forward, 1, s.entries, BYTES);
    this.codes = new CodesWriter(this.forward, 4, s.entries);
  }

  /**
   * Reads the next spilled document and appends it, its entries in the order
   * of `rank` (each term id's place in the sorted dictionary); returns its
   * entries' ranks, ascending, and their frequencies in that order, both
   * valid until the next call.
   */
  add(spilled: EntrySpillReader, rank: Uint32Array): { sorted: Uint32Array; tf: (field: number) => Uint16Array } {
    const { terms, tf, posEnd, sections, secEnd } = spilled.next(this.lengths.subarray(this.doc * F, this.doc * F + F));
    const n = terms.length;
    // Spilled bytes are a view until the next read: the section runs are copied out before the positions are read.
    const secData = this.sectionRuns(spilled.sectionData(), sections);
    this.posEnd = posEnd;
    this.posData = spilled.positionData();
    this.roomFor(n);
    const sorted = this.sortEntries(terms, rank);
    this.appendRuns(n, secEnd, secData);
    this.appendTerms(n, sorted, tf);
    this.start[this.doc++] = this.at;
    this.at += n;
    return { sorted, tf: (f) => this.docTf[f]!.subarray(0, n) };
  }

  /** Copies a document's section runs (read as a view) aside and appends its section lengths. */
  private sectionRuns(runs: Uint8Array, docSections: Uint32Array): Uint8Array {
    this.secDoc[this.doc] = this.secCount;
    this.secCount += docSections.length;
    this.sections.append(1, bytesOf(docSections));
    this.secOut = room(this.secOut, 2 * runs.length, Uint8Array);
    // The copy goes in the second half: the first receives the runs reordered.
    const copy = this.secOut.subarray(this.secOut.length - runs.length);
    copy.set(runs);
    return copy;
  }

  private roomFor(n: number): void {
    if (this.tfBytes.length < n) {
      this.docTf = FIELDS.map(() => new Uint16Array(2 * n));
      this.tfBytes = new Uint8Array(2 * n);
      this.tfCodes = new Uint16Array(2 * n);
      this.secStart = new Float64Array(2 * n);
    }
  }

  /** The document's entry ranks in dictionary order, with `entryOf` mapping each back to its spilled entry. */
  private sortEntries(terms: Uint32Array, rank: Uint32Array): Uint32Array {
    const { sorted, order } = this.byRank.sort(terms, rank);
    this.entryOf = order;
    return sorted;
  }

  /** Appends the positions and section runs of the entries in sorted order, with where each starts. */
  private appendRuns(n: number, secEnd: Uint32Array, secData: Uint8Array): void {
    const { posEnd, secOut, secStart, entryOf } = this;
    const L = this.lengths;
    this.posWriter.add(n, L[this.doc * F + TITLE]! + L[this.doc * F + CONTENT]!, this.posData, posEnd, entryOf);
    let sb = 0;
    for (let j = 0; j < n; j++) {
      const k = entryOf[j]!;
      secStart[j] = this.secAt + sb;
      for (let p = k ? secEnd[k - 1]! : 0, end = secEnd[k]!; p < end; p++) secOut[sb++] = secData[p]!;
    }
    this.secEntry[this.doc] = this.secRunAt;
    if (sb) {
      this.sections.append(this.secDataCol, secOut.subarray(0, sb));
      this.secStarts.append(secStart.subarray(0, n));
      this.secAt += sb;
      this.secRunAt += n;
    }
  }

  /** Appends the term ids and the frequencies of the entries in sorted order, each field's kept aside in that order for the postings. */
  private appendTerms(n: number, sorted: Uint32Array, tf: Uint16Array): void {
    const { entryOf, docTf, tfBytes, tfCodes } = this;
    this.termIds.append(sorted);
    // A field at a time, each entry's byte and code made as its frequencies are put in order: one pass over them.
    tfCodes.fill(0, 0, n);
    for (let f = 0; f < F; f++) {
      const out = docTf[f]!;
      const at = f * n;
      if (f === BYTE_FIELD) for (let j = 0; j < n; j++) tfBytes[j] = tfByte((out[j] = tf[at + entryOf[j]!]!));
      else
        for (let j = 0; j < n; j++) {
          const v = (out[j] = tf[at + entryOf[j]!]!);
          if (v) tfCodes[j]! |= tfNibble(v, f);
        }
    }
    for (let j = 0; j < n; j++) {
      const byte = tfBytes[j]!;
      const code = tfCodes[j]!;
      // Most entries have no other field and a small count: no overflow to look for.
      if ((code !== 0 || byte === BYTE_ESCAPE) && escapes(byte, code))
        for (let f = 0; f < F; f++)
          if (tfOf(byte, code, f) < 0) {
            this.overKeys[this.overAt] = overKey(this.at + j, f);
            this.overTfs[this.overAt++] = docTf[f]![j] === TF_MAX && (f === TITLE || f === BYTE_FIELD) ? this.positionsIn(j, f) : docTf[f]![j]!;
          }
    }
    this.bytes.append(tfBytes.subarray(0, n));
    this.codes.append(tfCodes.subarray(0, n));
  }

  /**
   * How many of sorted entry j's positions (of the document at hand's `n`) lie in
   * `field` (title or content): a count capped in its frequency is not, as its
   * positions are read by it (position-marks).
   */
  private positionsIn(j: number, field: number): number {
    const { posEnd, posData } = this;
    const k = this.entryOf[j]!;
    const titleLength = this.lengths[this.doc * F + TITLE]!;
    let inTitle = 0;
    let all = 0;
    for (let p = k ? posEnd[k - 1]! : 0, end = posEnd[k]!, pos = 0; p < end; all++) {
      let b = posData[p++]!;
      let v = b & 0x7f;
      for (let scale = 128; b & 0x80; scale *= 128) v += ((b = posData[p++]!) & 0x7f) * scale;
      if ((pos += v) < titleLength) inTitle++;
    }
    return field === TITLE ? inTitle : all - inTitle;
  }

  /** Appends what is known once every document is in, and closes the files. */
  close(): void {
    this.start[this.doc] = this.at;
    this.secDoc[this.doc] = this.secCount;
    this.posWriter.close();
    this.sections.append(0, bytesOf(this.secDoc));
    this.secEntry[this.doc] = this.secRunAt;
    this.sections.append(2, bytesOf(this.secEntry));
    this.secStarts.close(this.secAt);
    this.forward.append(0, bytesOf(this.start));
    this.termIds.close();
    this.bytes.close();
    this.codes.close();
    this.forward.append(7, bytesOf(this.overKeys));
    this.forward.append(8, bytesOf(this.overTfs));
    this.forward.append(9, bytesOf(this.lengths));
    this.forward.close();
    this.positions.close();
    this.sections.close();
  }

  /** Leaves the files unreadable (a build that failed). */
  abandon(): void {
    this.forward.abandon();
    this.positions.abandon();
    this.sections.abandon();
  }
}
