/**
 * @module shared/index/forward
 * The forward index, positions and sections of an index read where they lie
 * (shared/index/paged): a (document, term) entry found by binary search in
 * the document's sorted term ids, its frequencies, its positions and section
 * runs decoded from the pages that hold them (the runs of a page indexed
 * whole taken from its positions, shared/index/section-runs). What stays in memory is a few
 * numbers a document: where its entries and sections start, its field
 * lengths (the norms BM25F divides by), read when first needed.
 */
import { HzError } from '../errors.js';
import { INDEX_FILES, type IndexFileColumns } from './format.js';
import type { PageCache, PagedColumn } from './paged.js';
import { PagedFile } from './paged.js';
import { docOfEntry, FIRSTS, PagedPositionBits, readPositionBits, type DocLayout } from './position-bits.js';
import { hasMarks, PagedMarks, readPositionRuns } from './position-marks.js';
import { PagedStarts } from './run-starts.js';
import { RUNS_FROM_POSITIONS, runsOfPositions } from './section-runs.js';
import { IDS_GAPS, PagedIds } from './forward-ids.js';
import { packedId, TERM_PACKED } from './term-ids.js';
import { overKey, positionCount, positionCounts, TF_MAX, tfOf } from './tf-codes.js';
import { BYTES, CODES, pagedValues } from './tf-sparse.js';
import { FIELDS } from './types.js';

const F = FIELDS.length;
const TITLE = FIELDS.indexOf('title');
const CONTENT = FIELDS.indexOf('content');

/** Decodes LEB128 varints from `data[from..to)`: as positions (running sums of the gaps), the first `max`. */
function decodeGaps(data: Uint8Array, from: number, to: number, max: number): number[] {
  const out: number[] = [];
  let prev = 0;
  for (let p = from; p < to && out.length < max; ) {
    let b = data[p++]!;
    // Most gaps between a term's occurrences fit one byte: no multiplication for them.
    let v = b & 0x7f;
    for (let scale = 128; b & 0x80; scale *= 128) {
      b = data[p++]!;
      v += (b & 0x7f) * scale;
    }
    prev += v;
    out.push(prev);
  }
  return out;
}

/** Section runs `[section, tf, …]` (varint pairs: the gap from the previous section, the count) from `data[from..to)` into `out`. */
function decodeSections(data: Uint8Array, from: number, to: number, out: number[]): number[] {
  let section = 0;
  let k = 0;
  for (let p = from; p < to; k++) {
    let b = data[p++]!;
    let v = b & 0x7f;
    for (let scale = 128; b & 0x80; scale *= 128) {
      b = data[p++]!;
      v += (b & 0x7f) * scale;
    }
    out[k] = k % 2 ? v : (section += v);
  }
  out.length = k;
  return out;
}

/**
 * A file of byte runs an entry (positions, sections): where each run starts
 * (every start, or marks from which runs `count` varints long are skipped),
 * and the bytes.
 */
class Runs {
  private readonly start: PagedStarts | undefined;
  private readonly marks: PagedMarks | undefined;
  private readonly data: PagedColumn;
  private scratch = new Uint8Array(256);

  constructor(
    private readonly f: PagedFile,
    count?: (from: number, to: number, out: Uint32Array) => void,
  ) {
    this.data = f.column('data', 'u8');
    if (count && hasMarks((name) => f.has(name))) this.marks = new PagedMarks(f, this.data, count);
    else this.start = new PagedStarts(f);
  }

  /** Whether the file holds the runs of `entries` entries. */
  holds(entries: number): boolean {
    return this.marks ? this.marks.fits(entries) : this.start!.entries === entries;
  }

  /** Entry e's bytes, copied into a scratch array valid until the next call: [bytes, length]. */
  run(e: number): [Uint8Array, number] {
    const [from, to] = this.marks ? this.marks.run(e) : [this.start!.at(e), this.start!.at(e + 1)];
    const n = to - from;
    if (this.scratch.length < n) this.scratch = new Uint8Array(2 * n);
    this.f.copy(this.data, from, to, this.scratch);
    return [this.scratch, n];
  }

  close(): void {
    this.f.close();
  }
}

export class ForwardFiles {
  private readonly fwd: PagedFile;
  private readonly posFile: PagedFile;
  /** The positions, a fixed width each (position-bits); or, in an index of format 12 or older, varints of gaps. */
  private readonly posBits: PagedPositionBits | undefined;
  private readonly pos: Runs | undefined;
  private readonly secRuns: Runs;
  private readonly sec: PagedFile;
  /** The term ids in groups (forward-ids); or, in an index of format 11 or older, packed `bits` wide (term-ids) or plain 32-bit. */
  private readonly ids: PagedIds | undefined;
  private readonly term: PagedColumn | undefined;
  private readonly bits: number;
  private readonly word = (i: number) => this.fwd.u32(this.term!, i);
  /** An entry's content frequency byte (tf-codes): kept where not 1 (tf-sparse), or one an entry in an older index. */
  private readonly bytes: ReturnType<typeof pagedValues>;
  /** An entry's code (tf-codes): kept where not zero (tf-sparse), or one an entry in an older index. */
  private readonly codes: ReturnType<typeof pagedValues>;
  /** The frequencies too large for their place (tf-codes), read on first need. */
  private overflow: Map<number, number> | undefined;
  /** Whether a document of two sections or more without runs in the sections file takes them from its positions (section-runs); an older index stored them. */
  private readonly runsFromPositions: boolean;
  private perDoc: { start: Uint32Array; lengths: Uint32Array; secDoc: Uint32Array; secLength: Uint32Array; secEntry: Uint32Array | undefined; layout: DocLayout } | undefined;

  constructor(
    private readonly dir: string,
    private readonly docCount: number,
    cache: PageCache,
  ) {
    const files: PagedFile[] = [];
    try {
      for (const name of [INDEX_FILES.forward, INDEX_FILES.positions, INDEX_FILES.sections]) files.push(new PagedFile(dir, name, cache));
    } catch (e) {
      for (const f of files) f.close();
      throw e;
    }
    [this.fwd, this.posFile, this.sec] = files as [PagedFile, PagedFile, PagedFile];
    const counts = (from: number, to: number, out: Uint32Array) => this.positionCounts(from, to, out);
    if (this.posFile.has(FIRSTS)) this.posBits = new PagedPositionBits(this.posFile, counts);
    else this.pos = new Runs(this.posFile, counts);
    this.secRuns = new Runs(this.sec);
    this.runsFromPositions = this.sec.has(RUNS_FROM_POSITIONS);
    const grouped = this.fwd.has(IDS_GAPS);
    const packed = this.fwd.has(TERM_PACKED);
    this.bits = grouped || packed ? this.fwd.u8(this.fwd.column('term.bits', 'u8'), 0) : 32;
    this.bytes = pagedValues(this.fwd, BYTES);
    this.codes = pagedValues(this.fwd, CODES);
    const start = this.fwd.column('start', 'u32');
    if (start.length !== docCount + 1 || this.sec.column('doc', 'u32').length !== docCount + 1) throw inconsistent(dir);
    const entries = this.fwd.u32(start, docCount);
    if (grouped) this.ids = new PagedIds(this.fwd, this.bits, entries);
    else this.term = this.fwd.column(packed ? TERM_PACKED : 'term', 'u32');
    // Documents without section runs have none in the sections file (its `entry` column); an older index has a run for every entry.
    const secRuns = this.sec.has('entry') ? this.sec.u32(this.sec.column('entry', 'u32'), docCount) : entries;
    if (!(this.ids ? this.ids.holds() : Math.ceil((entries * this.bits) / 32) === this.term!.length) || !(this.posBits ? this.posBits.fits(entries) : this.pos!.holds(entries)) || !this.secRuns.holds(secRuns) || !this.codes.fits(entries) || !this.bytes.fits(entries)) throw inconsistent(dir);
  }

  /** The per-document arrays, read on first use: dedup and merge, which open every segment index, need only the stored fields of most. */
  private get docs() {
    if (this.perDoc) return this.perDoc;
    const start = this.fwd.all('start', Uint32Array);
    const lengths = this.fwd.all('lengths', Uint32Array);
    return (this.perDoc = {
      start,
      lengths,
      secDoc: this.sec.all('doc', Uint32Array),
      secLength: this.sec.all('length', Uint32Array),
      secEntry: this.sec.has('entry') ? this.sec.all('entry', Uint32Array) : undefined,
      layout: windowLayout(start, lengths),
    });
  }

  /** Reads the per-document arrays now. */
  warm(): void {
    if (this.docs.lengths.length !== this.docCount * F) throw inconsistent(this.dir);
  }

  entry(id: number, termId: number): number {
    const { start } = this.docs;
    if (this.ids) return this.ids.find(start[id]!, start[id + 1]!, termId);
    let lo = start[id]!;
    let hi = start[id + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.termOf(mid);
      if (v === termId) return mid;
      if (v < termId) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The term id of an entry. */
  termOf(entry: number): number {
    if (this.ids) return this.ids.id(entry);
    return this.bits === 32 ? this.fwd.u32(this.term!, entry) : packedId(this.word, entry, this.bits);
  }

  /** A document's entries: [first, end). */
  entries(id: number): [number, number] {
    const { start } = this.docs;
    return [start[id]!, start[id + 1]!];
  }

  tf(entry: number, field: number): number {
    const v = tfOf(this.bytes.value(entry), this.codes.value(entry), field);
    return v >= 0 ? v : Math.min(this.overflowTf(entry, field), TF_MAX);
  }

  /** A frequency from the overflow list, as tf-codes' decoders ask for it. */
  readonly over = (entry: number, field: number) => this.overflowTf(entry, field);

  /**
   * The runs of positions of entries `e0..e1` of a positions file being walked (merge), as entries carry them,
   * with the window's frequency bytes and codes (from e0): an entry before e0 in its mark's block is read here.
   * A file of format 13 is read from where e0's positions start, the window's widths by `docs`.
   */
  windowPositions(pos: IndexFileColumns, e0: number, e1: number, bytes: Uint8Array, codes: Uint16Array, docs: DocLayout): { start: Float64Array; data: Uint8Array } {
    if (this.posBits) {
      const counts = new Uint32Array(e1 - e0);
      positionCounts(bytes, codes, 0, e1 - e0, e0, this.over, counts);
      return readPositionBits(pos, e0, e1, this.posBits.start(e0, this.docs.layout), counts, docs);
    }
    return readPositionRuns(pos, e0, e1, (e) => (e >= e0 ? positionCount(bytes[e - e0]!, codes[e - e0]!, e, this.over) : this.positionCount(e)));
  }

  /** How many positions an entry has. */
  private positionCount(entry: number): number {
    const one = new Uint32Array(1);
    this.positionCounts(entry, entry + 1, one);
    return one[0]!;
  }

  private countBytes = new Uint8Array(16);
  private countCodes = new Uint16Array(16);

  /** How many positions each of entries `from..to` has, into `out` from 0. */
  positionCounts(from: number, to: number, out: Uint32Array): void {
    if (this.countBytes.length < to - from) (this.countBytes = new Uint8Array(2 * (to - from))), (this.countCodes = new Uint16Array(2 * (to - from)));
    this.bytes.values(from, to, this.countBytes);
    this.codes.values(from, to, this.countCodes);
    positionCounts(this.countBytes, this.countCodes, 0, to - from, from, this.over, out);
  }

  /** A frequency from the overflow list (a title or content count uncapped, tf-codes); the list is read whole the first time. */
  overflowTf(entry: number, field: number): number {
    if (!this.overflow) {
      const keys = this.fwd.all('over.key', Float64Array);
      const tfs = this.fwd.all('over.tf', Uint32Array);
      if (keys.length !== tfs.length) throw inconsistent(this.dir);
      this.overflow = new Map();
      for (let i = 0; i < keys.length; i++) this.overflow.set(keys[i]!, tfs[i]!);
    }
    const v = this.overflow.get(overKey(entry, field));
    if (v === undefined) throw inconsistent(this.dir);
    return v;
  }

  fieldLength(id: number, field: number): number {
    return this.docs.lengths[id * F + field] ?? 0;
  }

  /** Every document's field lengths, `[id * F + field]` (not to be written to). */
  get lengths(): Uint32Array {
    return this.docs.lengths;
  }

  /** An entry's positions, the first `max`; `count`, its count of positions when known (format 13 reads no other then). */
  positions(entry: number, max = Infinity, count?: number): number[] {
    if (this.posBits) return this.posBits.positions(entry, max, this.docs.layout, count);
    const [bytes, n] = this.pos!.run(entry);
    return decodeGaps(bytes, 0, n, max);
  }

  sectionLengths(id: number): Uint32Array {
    const { secDoc, secLength } = this.docs;
    return secLength.subarray(secDoc[id], secDoc[id + 1]);
  }

  sections(entry: number, out: number[]): number[] {
    const { start, secEntry } = this.docs;
    let run = entry;
    if (secEntry) {
      const id = docOfEntry(start, entry);
      if (secEntry[id] === secEntry[id + 1]) {
        const sections = this.sectionLengths(id);
        if (this.runsFromPositions && sections.length >= 2) return runsOfPositions(this.positions(entry), this.docs.lengths[id * F + TITLE]!, sections, out);
        out.length = 0;
        return out;
      }
      run = secEntry[id]! + entry - start[id]!;
    }
    const [bytes, n] = this.secRuns.run(run);
    return decodeSections(bytes, 0, n, out);
  }

  close(): void {
    this.fwd.close();
    this.posFile.close();
    this.secRuns.close();
  }
}

/** The layout of documents position-bits reads widths by: `start` and `lengths` of the same documents. */
export function windowLayout(start: Uint32Array, lengths: Uint32Array): DocLayout {
  return { start, length: (doc) => lengths[doc * F + TITLE]! + lengths[doc * F + CONTENT]! };
}

export const inconsistent = (dir: string) => new HzError('HZ_ERR_INDEX_FORMAT', `index ${dir} is inconsistent: its files disagree on the number of documents or terms`);
