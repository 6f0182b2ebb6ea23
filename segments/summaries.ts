/**
 * @module segments/summaries
 * The summaries file of a segment's index (`segments/<name>/index/summaries`),
 * written by `hazelnut index` beside the segment index and replaced with it:
 * for each page indexed from its parse text, what a summary reads beside
 * that text (where its words stand, the sections and furniture there). The
 * text itself is the segment's parse text, read when the summary is made:
 * the file holds no second copy of it. The searcher reads one record a hit
 * with one positioned read, found through a table of URL hashes kept in
 * memory. Through SQLite the same record cost four to five times the CPU: a
 * b-tree lookup by URL, the overflow pages of the row, and a new buffer for
 * each blob.
 *
 * The payload, after the index file header (shared/index/format.ts):
 * records, each a head of four little-endian u32s (URL bytes, meta bytes,
 * checkpoints bytes, the parse text's length) and then the URL, the meta
 * (segments/offsets.ts encodeSummaryMeta) and the checkpoints
 * (segments/checkpoints.ts); then the table, an entry a record sorted by
 * the URL's hash (u32 hash, u32 record bytes, f64 position); then the
 * table's position (f64) and its number of entries (u32) and a tag (u32).
 * Files tagged as older hazelnut wrote them are read as they are: with every
 * word's offsets packed (segments/packed-offsets.ts) where the checkpoints
 * are, or with the start of the text too (a head of six u32s: URL, meta,
 * text and offsets bytes, the length, the text's form; the text as
 * segments/summary-text.ts stores it, the offsets unpacked).
 */
import fs from 'node:fs';
import { HzError } from '../shared/errors.js';
import { IndexFileWriter, openIndexFilePieces } from '../shared/index/format.js';
import { lowerBoundBy } from '../shared/bisect.js';
import { encodeSummaryMeta, readSummaryMeta, summaryPart } from './offsets.js';
import { readCheckpoints } from './checkpoints.js';
import { unpackOffsets } from './packed-offsets.js';
import type { SummarySource, SummaryText } from './records.js';
import { StoredText, WholeText, type TextForm } from './summary-text.js';

export const SUMMARIES_FILE = 'summaries';

const HEAD_BYTES = 16;
const ENTRY_BYTES = 16;
const FOOTER_BYTES = 16;
const TAG = 0x334d5348; // 'HSM3'
/** The tag of files with every word's offsets packed where the checkpoints are. */
const PACKED_TAG = 0x324d5348; // 'HSM2'
/** The tag of files with the text in them, and their records' head. */
const TEXT_TAG = 0x534d5348; // 'HSMS'
const TEXT_HEAD_BYTES = 24;
/** Records are gathered into writes of about this size. */
const WRITE_BYTES = 1 << 20;

/** FNV-1a over the URL's UTF-16 code units: the table's key, read again to tell URLs of one hash apart. */
export function urlHash(url: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) h = Math.imul(h ^ url.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Writes a summaries file record by record; `close()` adds the table and makes it durable. */
export class SummariesWriter {
  private readonly file: IndexFileWriter;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private at = 0;
  private readonly hashes: number[] = [];
  private readonly sizes: number[] = [];
  private readonly positions: number[] = [];
  private closed = false;

  constructor(dir: string) {
    this.file = new IndexFileWriter(dir, SUMMARIES_FILE);
  }

  /** Adds a page's record. */
  add(r: SummaryText): void {
    const checkpoints = r.checkpoints;
    const url = Buffer.from(r.url, 'utf8');
    const meta = Buffer.from(encodeSummaryMeta(r.meta), 'utf8');
    const head = Buffer.allocUnsafe(HEAD_BYTES);
    head.writeUInt32LE(url.length, 0);
    head.writeUInt32LE(meta.length, 4);
    head.writeUInt32LE(checkpoints.length, 8);
    head.writeUInt32LE(r.length, 12);
    const size = HEAD_BYTES + url.length + meta.length + checkpoints.length;
    this.hashes.push(urlHash(r.url));
    this.sizes.push(size);
    this.positions.push(this.at);
    this.at += size;
    this.push(head, url, meta, checkpoints);
  }

  private push(...parts: Uint8Array[]): void {
    for (const p of parts) {
      this.pending.push(p);
      this.pendingBytes += p.byteLength;
    }
    if (this.pendingBytes >= WRITE_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pendingBytes) this.file.write(Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }

  close(): void {
    const n = this.hashes.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => this.hashes[a]! - this.hashes[b]! || a - b);
    const table = Buffer.allocUnsafe(n * ENTRY_BYTES + FOOTER_BYTES);
    order.forEach((i, k) => {
      table.writeUInt32LE(this.hashes[i]!, k * ENTRY_BYTES);
      table.writeUInt32LE(this.sizes[i]!, k * ENTRY_BYTES + 4);
      table.writeDoubleLE(this.positions[i]!, k * ENTRY_BYTES + 8);
    });
    table.writeDoubleLE(this.at, n * ENTRY_BYTES);
    table.writeUInt32LE(n, n * ENTRY_BYTES + 8);
    table.writeUInt32LE(TAG, n * ENTRY_BYTES + 12);
    this.push(table);
    this.flush();
    this.closed = true;
    this.file.close();
  }

  /** Leaves the file without a header, unreadable (its directory is being thrown away); nothing once closed. */
  abandon(): void {
    if (this.closed) return;
    this.closed = true;
    this.file.abandon();
  }
}

/**
 * The buffer records are read into, reused from record to record: a new
 * buffer a record cost about twice the read itself, in fresh pages the
 * kernel faults in. `reading` is set while a record is in use; a record
 * read meanwhile gets a buffer of its own.
 */
let scratch = Buffer.allocUnsafeSlow(1 << 16);
let reading = false;

/**
 * An open summaries file: its table in memory as the file has it, searched
 * where it lies, a record read from disk when asked for. An entry is checked
 * when it is read: unpacking and checking every entry on open was a pass
 * over every page of the segment in a searcher's start (some 10 ms for the
 * first segment of 25,000 pages).
 */
export class SummariesFile {
  private readonly count: number;

  private constructor(
    private readonly file: string,
    private readonly fd: number,
    private readonly payloadAt: number,
    private readonly table: Buffer,
    /** Where the table starts in the payload: every record ends before it. */
    private readonly tableAt: number,
    /** The tag: older hazelnut's files hold every word's offsets, or the start of the text too. */
    private readonly tag: number,
  ) {
    this.count = table.length / ENTRY_BYTES;
  }

  private hash(k: number): number {
    return this.table.readUInt32LE(k * ENTRY_BYTES);
  }

  /** The summaries file in a segment index directory, or undefined when it has none (indexed by older hazelnut). */
  static open(indexDir: string): SummariesFile | undefined {
    const opened = openIndexFilePieces(indexDir, SUMMARIES_FILE);
    if (!opened) return undefined;
    const { fd, file, payloadAt, length } = opened;
    try {
      const bad = (why: string) => new HzError('HZ_ERR_INDEX_FORMAT', `index file ${file} ${why}`);
      if (length < FOOTER_BYTES) throw bad('is too short to hold its table');
      const footer = Buffer.alloc(FOOTER_BYTES);
      fs.readSync(fd, footer, 0, FOOTER_BYTES, payloadAt + length - FOOTER_BYTES);
      const tableAt = footer.readDoubleLE(0);
      const n = footer.readUInt32LE(8);
      const tag = footer.readUInt32LE(12);
      if ((tag !== TAG && tag !== PACKED_TAG && tag !== TEXT_TAG) || tableAt + n * ENTRY_BYTES + FOOTER_BYTES !== length) throw bad('has no valid table of its records');
      const table = Buffer.alloc(n * ENTRY_BYTES);
      if (n && fs.readSync(fd, table, 0, table.length, payloadAt + tableAt) !== table.length) throw bad('has no valid table of its records');
      return new SummariesFile(file, fd, payloadAt, table, tableAt, tag);
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
  }

  /**
   * Calls `use` with the record of `url` and its page's text (`pageText`,
   * the parse text) and returns what it returns, or undefined when the file
   * has no record of it or its page has no text. The record's bytes are
   * reused once `use` returns: it must not keep the record.
   */
  withRecord<T>(url: string, pageText: () => string | undefined, use: (src: SummarySource) => T): { value: T } | undefined {
    const h = urlHash(url);
    // The table is sorted by hash.
    for (let k = lowerBoundBy(this.count, (i) => this.hash(i), h); k < this.count && this.hash(k) === h; k++) {
      const nested = reading;
      const size = this.table.readUInt32LE(k * ENTRY_BYTES + 4);
      if (!nested && scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.max(size, 2 * scratch.length));
      const b = nested ? Buffer.allocUnsafe(size) : scratch.subarray(0, size);
      const r = this.tag === TEXT_TAG ? this.readWithText(k, url, b) : this.read(k, url, b, pageText);
      if (r === null) return undefined;
      if (!r) continue;
      reading = true;
      try {
        return { value: use(r) };
      } finally {
        reading = nested;
      }
    }
    return undefined;
  }

  /** Record k's bytes, read into `b`, checked against its head: URL, meta and what follows, or undefined if it is not `url`'s. */
  private record(k: number, url: string, b: Buffer, head: number): { meta: string; at: number } | undefined {
    const size = b.length;
    const at = this.table.readDoubleLE(k * ENTRY_BYTES + 8);
    if (at + size > this.tableAt) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${this.file} has a bad table entry (${k})`);
    const got = fs.readSync(this.fd, b, 0, size, this.payloadAt + at);
    if (got !== size || size < head) throw this.bad(k);
    const urlBytes = b.readUInt32LE(0);
    const metaBytes = b.readUInt32LE(4);
    if (b.toString('utf8', head, head + urlBytes) !== url) return undefined;
    return { meta: b.toString('utf8', head + urlBytes, head + urlBytes + metaBytes), at: head + urlBytes + metaBytes };
  }

  private bad(k: number): HzError {
    return new HzError('HZ_ERR_INDEX_FORMAT', `index file ${this.file} has a bad record (${k})`);
  }

  /**
   * Record k, if it is `url`'s, with the page's text; null when the page has
   * no text now. Text of another length than the record's (parsed again
   * since it was indexed) is summarized without the checkpoints or offsets,
   * which no longer describe it.
   */
  private read(k: number, url: string, b: Buffer, pageText: () => string | undefined): SummarySource | null | undefined {
    const r = this.record(k, url, b, HEAD_BYTES);
    if (!r) return undefined;
    const wordsBytes = b.readUInt32LE(8);
    const length = b.readUInt32LE(12);
    if (r.at + wordsBytes !== b.length) throw this.bad(k);
    const text = pageText();
    if (text === undefined) return null;
    const meta = readSummaryMeta(r.meta);
    if (text.length !== length) return { text: new WholeText(summaryPart(text)), length: text.length, meta };
    if (this.tag === PACKED_TAG) {
      const offsets = unpackOffsets(b.subarray(r.at));
      if (!offsets) throw this.bad(k);
      return { text: new WholeText(summaryPart(text)), length, meta, offsets };
    }
    const checkpoints = readCheckpoints(b.subarray(r.at));
    if (!checkpoints) throw this.bad(k);
    return { text: new WholeText(summaryPart(text)), length, meta, checkpoints: { ...checkpoints, text } };
  }

  /** Record k of a file older hazelnut wrote, with the start of the text in it, if it is `url`'s. */
  private readWithText(k: number, url: string, b: Buffer): SummarySource | undefined {
    const r = this.record(k, url, b, TEXT_HEAD_BYTES);
    if (!r) return undefined;
    const textBytes = b.readUInt32LE(8);
    const offsetsBytes = b.readUInt32LE(12);
    const length = b.readUInt32LE(16);
    const form = b.readUInt32LE(20);
    if (r.at + textBytes + offsetsBytes !== b.length || form > 2) throw this.bad(k);
    const text = new StoredText(b.subarray(r.at, r.at + textBytes), form as TextForm);
    return { text, length, meta: readSummaryMeta(r.meta), offsets: b.subarray(r.at + textBytes) };
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
