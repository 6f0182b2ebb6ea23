/**
 * @module shared/index/format
 * The on-disk index format: which files an index holds and how each is framed.
 * Every file starts with a 40-byte header — magic `HZIX`, the format version,
 * the file's kind, the payload length and a checksum of the payload (CRC-32,
 * as in Lucene's and tantivy's file footers; a truncated SHA-256 in version 5
 * files) — checked on open, so a torn copy or a newer format is refused with a
 * message naming the file, instead of being half-read. Binary payloads are a
 * set of named typed-array columns, 8-byte aligned, that a reader views in place.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { HzError } from '../errors.js';

/**
 * Bump on any incompatible change to a file below. 2: the candidate index keeps terms exactly as analyzed.
 * 3: a heading field (df, tf and length columns). 4: a camelCase word is followed by its parts' terms.
 * 5: the sections file. 6: CRC-32 checksums (the checksum of a version 5 file is still checked as it was written).
 * 7: the index is read from disk, not loaded: the postings and docinfo files; no flexsearch candidates file.
 * 8: postings in compressed blocks of 128 with skip data and a score bound a block (shared/index/postings-codec);
 * the forward index's frequencies in three bytes an entry (shared/index/tf-codes), 16-bit run starts
 * (shared/index/run-starts), stored fields in deflated blocks (shared/index/stored-fields). Within version 8,
 * the forward index's term ids bit-packed (shared/index/term-ids), and no section run starts for a document
 * without section runs (the sections file's `entry` column): files without either still read.
 * 9: a page indexed whole keeps no section runs, its entries' runs taken from their positions
 * (shared/index/section-runs; the sections file's `from.positions` column), and run starts of a file of 4 GiB
 * of runs or more in two 32-bit words (shared/index/run-starts); a version 8 index, which stores every page's
 * runs, still reads.
 * 10: the positions file keeps the start of every 16th entry's positions, a `mark`, not every entry's: the
 * runs between are skipped, each its title and content counts' worth of varints (shared/index/position-marks),
 * and the forward index's overflow list holds a title or content count past TF_MAX uncapped (tf-codes); the
 * forward index keeps an entry's 16-bit code only where it is not zero (shared/index/tf-sparse). A version 9 or
 * 8 index, which keeps every start and every code, still reads.
 * 11: the postings keep no forward-index entry a posting (shared/index/postings-codec): a reader finds it in the
 * forward index; and no score bound for the block of a term of one block (shared/index/postings-bounds), worked out
 * from it when read. The postings of a version 10 to 8 index, entries and every block's bound, still read. And the
 * forward index keeps an entry's content frequency byte only where it is not 1 (tf-sparse); an older index's byte an
 * entry still reads.
 * 12: the forward index's term ids in groups of 16 entries, a base, a width and the gaps between ids (shared/index/forward-ids):
 * 10 bits an id rather than the dictionary's 18 on a growth crawl; a version 11 to 8 index, every id at the dictionary's width
 * (shared/index/term-ids), still reads.
 * 13: the positions file keeps each position in its document's width of bits (enough for its title+content length) rather
 * than a varint, the later ones varints of the gaps as before, with every 64th entry's bit offset and every 16th's byte offset as
 * marks (shared/index/position-bits); a version 12 to 8 index's varints still read.
 * An index of an older version is refused on open (publish.ts's readIndexMeta) with the commands that rebuild it;
 * other files framed here (a segment's summaries) are still read from version 5 on.
 */
export const INDEX_FORMAT_VERSION = 13;
/** The oldest version of an index (meta, postings, …) the reader opens. */
export const OLDEST_INDEX = 8;
/** The oldest version this code still reads. */
export const OLDEST_SUPPORTED = 5;

/** The files of one index (per-segment or merged), by role. */
export const INDEX_FILES = {
  /** JSON: IndexMeta. */
  meta: 'meta',
  /** Stored fields: documents' JSON records in deflated blocks (stored-fields). */
  docs: 'docs',
  /** Term dictionary (sorted) and document frequencies per field. */
  terms: 'terms',
  /** Per document: sorted term ids (in groups, forward-ids), term frequency per field (tf-codes; the bytes not 1 and the codes not zero only, tf-sparse), field lengths. */
  forward: 'forward',
  /** Per (document, term): positions in the title+content stream, the first in its document's width of bits, the others delta varints; where every 64th entry's first and every 16th's gaps start (position-bits). */
  positions: 'positions',
  /** Per document: its sections' lengths (two or more, else none) and its first section run; per (document, term) of a document whose runs its positions do not give (section-runs): the sections it occurs in, with its count in each. */
  sections: 'sections',
  /** Per term: the documents holding it, ascending, each with its frequency per field, in compressed blocks with skip data and a score bound each. */
  postings: 'postings',
  /** Per document: the link score, the filter tags (host, site, type, lang) as value ids, and the URL's hash (URLs by hash). */
  docinfo: 'docinfo',
} as const;
export type IndexFile = keyof typeof INDEX_FILES;

/** Dedup's deletions, beside a per-segment index; not part of the index proper. */
export const DELETED_FILE = 'deleted';

const MAGIC = 'HZIX';
const HEADER_BYTES = 40;
const CHECKSUM_BYTES = 16;

/**
 * A payload's checksum as files of `version` hold it, computed piece by piece. A checksum
 * is there to catch torn copies and damaged disks, not forgery: CRC-32 does that at about
 * three times SHA-256's speed here, which a crawl's index and merge phases hash every byte
 * of their files through.
 */
interface Checksum {
  update(piece: Uint8Array): Checksum;
  /** CHECKSUM_BYTES: CRC-32 little-endian, then zeros; or SHA-256's first bytes. */
  digest(): Buffer;
}

/** The first format version whose files hold a CRC-32. */
const CRC32_SINCE = 6;

function checksum(version: number): Checksum {
  if (version < CRC32_SINCE) {
    const sha = crypto.createHash('sha256');
    const c: Checksum = { update: (piece) => (sha.update(piece), c), digest: () => sha.digest().subarray(0, CHECKSUM_BYTES) };
    return c;
  }
  let crc = 0;
  const c: Checksum = {
    // An empty piece changes nothing; node's crc32 of an empty view of an empty buffer answers 0 instead.
    update: (piece) => (piece.byteLength && (crc = zlib.crc32(piece, crc)), c),
    digest: () => {
      const d = Buffer.alloc(CHECKSUM_BYTES);
      d.writeUInt32LE(crc >>> 0, 0);
      return d;
    },
  };
  return c;
}

/**
 * An index file written as a stream: the payload goes straight to disk while
 * its length and checksum are counted, and the header is written over the
 * placeholder at the end, so a file of any size costs no memory. Until
 * `close()` the file has no valid header and is refused on open.
 */
export class IndexFileWriter {
  private readonly fd: number;
  private readonly hash = checksum(INDEX_FORMAT_VERSION);
  private length = 0;

  constructor(
    dir: string,
    private readonly name: string,
    fileName = name,
  ) {
    this.fd = fs.openSync(path.join(dir, fileName), 'w');
    fs.writeSync(this.fd, Buffer.alloc(HEADER_BYTES));
  }

  /** Payload bytes written so far. */
  get written(): number {
    return this.length;
  }

  write(bytes: Uint8Array): void {
    this.hash.update(bytes);
    fs.writeSync(this.fd, bytes);
    this.length += bytes.byteLength;
  }

  /** Writes the header, flushes the file to disk and closes it. */
  close(): void {
    closeWithHeader(this.fd, this.name, this.length, this.hash);
  }

  /** Closes without a header (the file is then unreadable as an index file). */
  abandon(): void {
    fs.closeSync(this.fd);
  }
}

/** Writes the header of a file whose payload is complete, flushes it to disk and closes it. */
function closeWithHeader(fd: number, name: string, length: number, hash: Checksum): void {
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(MAGIC, 0, 'latin1');
    header.writeUInt32LE(INDEX_FORMAT_VERSION, 4);
    header.write(name.slice(0, 8).padEnd(8, '\0'), 8, 'latin1');
    header.writeBigUInt64LE(BigInt(length), 16);
    hash.digest().copy(header, 24);
    fs.writeSync(fd, header, 0, HEADER_BYTES, 0);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The checksum of an open index file's payload (all past the header) as files of `version` hold it, read from the file a megabyte at a time. */
function payloadHash(fd: number, version: number): Checksum {
  const hash = checksum(version);
  const buf = Buffer.allocUnsafe(1 << 20);
  for (let at = HEADER_BYTES, n; (n = fs.readSync(fd, buf, 0, buf.length, at)) > 0; at += n) hash.update(buf.subarray(0, n));
  return hash;
}

/**
 * Writes `<dir>/<fileName>` (default: the file's role `name`) with what `fill`
 * writes, framed with a header, and flushes it to disk. When `fill` throws,
 * the file is left without a header, unreadable as an index file.
 */
export function writeIndexFileWith(dir: string, name: string, fill: (w: IndexFileWriter) => void, fileName = name): void {
  const w = new IndexFileWriter(dir, name, fileName);
  try {
    fill(w);
  } catch (e) {
    w.abandon();
    throw e;
  }
  w.close();
}

/** Writes `<dir>/<fileName>` holding `payload`, as writeIndexFileWith. */
export function writeIndexFile(dir: string, name: string, payload: Uint8Array, fileName = name): void {
  writeIndexFileWith(dir, name, (w) => w.write(payload), fileName);
}

/** Checks a file's header (magic, version, kind); returns the payload length it states. */
function checkHeader(buf: Buffer, name: string, file: string): number {
  const bad = (why: string) => new HzError('HZ_ERR_INDEX_FORMAT', `index file ${file} ${why}`);
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 4) !== MAGIC) throw bad('is not a hazelnut index file');
  const version = buf.readUInt32LE(4);
  if (version > INDEX_FORMAT_VERSION || version < OLDEST_SUPPORTED)
    throw bad(
      `has index format version ${version}; this hazelnut reads versions ${OLDEST_SUPPORTED}..${INDEX_FORMAT_VERSION}` +
        (version > INDEX_FORMAT_VERSION ? ' (upgrade hazelnut)' : ' (re-index the segments)'),
    );
  const kind = buf.toString('latin1', 8, 16).replace(/\0+$/, '');
  if (kind !== name.slice(0, 8)) throw bad(`holds a '${kind}' file, not '${name}'`);
  return Number(buf.readBigUInt64LE(16));
}

/**
 * The files whose checksum this process verified, with the identity (inode,
 * size, modification and change times) each had then. A crawl's dedup and
 * merge open every segment index, and merge reads the forward index and
 * positions again after verifying them on open: a file unchanged since it was
 * verified is not hashed again. A file rewritten or replaced since has
 * another identity; one modified less than SETTLED_MS before its check is not
 * remembered, since the kernel's file times are coarse (a rewrite that soon
 * could keep the time).
 */
const verified = new Map<string, string>();
const SETTLED_MS = 2000;
const identity = (st: fs.Stats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;

/** Refuses `file` unless its payload hashes to the header's checksum (by the header's version), or this process verified the file as it now is. */
function verifyChecksum(file: string, st: fs.Stats, header: Buffer, payloadDigest: (version: number) => Buffer): void {
  const key = path.resolve(file);
  const id = identity(st);
  if (verified.get(key) === id) return;
  if (!payloadDigest(header.readUInt32LE(4)).equals(header.subarray(24, 24 + CHECKSUM_BYTES)))
    throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${file} fails its checksum (corrupt)`);
  if (Date.now() - st.mtimeMs >= SETTLED_MS) verified.set(key, id);
}

/** Reads and verifies `<dir>/<name>`; returns the payload. */
export function readIndexFile(dir: string, name: string): Buffer {
  const file = path.join(dir, name);
  const fd = openIndexFd(file)!;
  const { header, st, length } = checkWhole(fd, name, file);
  const payload = Buffer.allocUnsafe(length);
  try {
    for (let at = 0, n; at < length; at += n)
      if (!(n = fs.readSync(fd, payload, at, length - at, HEADER_BYTES + at))) throw new Error(`ended at ${at} of ${length} payload bytes`);
  } catch (e) {
    throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${file} cannot be read: ${(e as Error).message}`);
  } finally {
    fs.closeSync(fd);
  }
  verifyChecksum(file, st, header, (version) => checksum(version).update(payload).digest());
  return payload;
}

/** `file` open to be read; undefined when it does not exist and `missingIsNone` says so. */
function openIndexFd(file: string, missingIsNone = false): number | undefined {
  try {
    return fs.openSync(file, 'r');
  } catch (e) {
    if (missingIsNone && (e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${file} cannot be read: ${(e as Error).message}`);
  }
}

/**
 * Checks the header of an index file open as `fd` and that its payload is
 * whole; returns the payload length the header states and the file's
 * status. The fd is closed when a check fails.
 */
function checkWhole(fd: number, name: string, file: string): { header: Buffer; st: fs.Stats; length: number } {
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    const got = fs.readSync(fd, header, 0, HEADER_BYTES, 0);
    const length = checkHeader(header.subarray(0, got), name, file);
    const st = fs.fstatSync(fd);
    const size = st.size - HEADER_BYTES;
    if (size !== length) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${file} is truncated: ${Math.max(0, size)} of ${length} payload bytes`);
    return { header, st, length };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/**
 * Opens `<dir>/<name>` to be read a piece at a time, or undefined when there
 * is no such file: its header is checked and its payload must be whole, but
 * its checksum is not verified, which would read all of it (the summaries
 * file, read a record a hit, is as large as the text it summarizes).
 */
export function openIndexFilePieces(dir: string, name: string): { fd: number; file: string; payloadAt: number; length: number } | undefined {
  const file = path.join(dir, name);
  const fd = openIndexFd(file, true);
  return fd === undefined ? undefined : { fd, file, payloadAt: HEADER_BYTES, length: checkWhole(fd, name, file).length };
}

// ---- typed-array columns ------------------------------------------------------

export type Column = Uint8Array | Uint16Array | Uint32Array | Float64Array;
export type ColumnType = 'u8' | 'u16' | 'u32' | 'f64';
const CTORS = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, f64: Float64Array } as const;

function typeOf(c: Column): ColumnType {
  if (c instanceof Uint8Array) return 'u8';
  if (c instanceof Uint16Array) return 'u16';
  if (c instanceof Uint32Array) return 'u32';
  return 'f64';
}

/** `n` rounded up to a multiple of 8; in arithmetic, not bitwise (32-bit) operations, as a file of a million pages runs past 2 GiB. */
export const align8 = (n: number) => Math.ceil(n / 8) * 8;

interface TocEntry {
  name: string;
  type: ColumnType;
  offset: number;
  length: number;
}

/** A column to pack whose bytes come in pieces (e.g. from a spill file), so it need not be in memory whole. */
export interface ColumnSource {
  name: string;
  type: ColumnType;
  /** Elements. */
  length: number;
  chunks(): Iterable<Uint8Array>;
}

/** An in-memory column as a source. */
export function columnSource(name: string, c: Column): ColumnSource {
  return { name, type: typeOf(c), length: c.length, chunks: () => [new Uint8Array(c.buffer, c.byteOffset, c.byteLength)] };
}

/** The table of contents of packed columns, and what precedes their data: its length, itself and the padding to the data. */
function layout(cols: readonly ColumnShape[]): { toc: TocEntry[]; head: Buffer; dataBytes: number } {
  const toc: TocEntry[] = [];
  let offset = 0;
  for (const c of cols) {
    toc.push({ name: c.name, type: c.type, offset, length: c.length });
    offset = align8(offset + c.length * CTORS[c.type].BYTES_PER_ELEMENT);
  }
  const tocBytes = Buffer.from(JSON.stringify(toc));
  const head = Buffer.alloc(align8(4 + tocBytes.length));
  head.writeUInt32LE(tocBytes.length, 0);
  tocBytes.copy(head, 4);
  return { toc, head, dataBytes: offset };
}

/** Packs named columns: a JSON table of contents, then each column 8-byte aligned. */
export function packColumns(cols: Record<string, Column>): Buffer {
  const sources = Object.entries(cols).map(([name, c]) => columnSource(name, c));
  const { toc, head, dataBytes } = layout(sources);
  const out = Buffer.alloc(head.length + dataBytes);
  head.copy(out);
  for (const t of toc) {
    const c = cols[t.name]!;
    Buffer.from(c.buffer, c.byteOffset, c.byteLength).copy(out, head.length + t.offset);
  }
  return out;
}

/** Writes packed columns to an index file as they come, in the layout `packColumns` makes. */
export function writePackedColumns(w: IndexFileWriter, cols: readonly ColumnSource[]): void {
  const { toc, head } = layout(cols);
  w.write(head);
  const base = w.written;
  cols.forEach((c, i) => {
    let n = 0;
    for (const chunk of c.chunks()) {
      w.write(chunk);
      n += chunk.byteLength;
    }
    const want = c.length * CTORS[c.type].BYTES_PER_ELEMENT;
    if (n !== want) throw new Error(`column ${c.name}: ${n} bytes written, ${want} expected`);
    const pad = (i + 1 < toc.length ? toc[i + 1]!.offset : align8(toc[i]!.offset + want)) - (w.written - base);
    if (pad > 0) w.write(Buffer.alloc(pad));
  });
}

/**
 * A column of a PackedColumnsWriter: its name, type and length, known before its bytes; or, for the
 * last column only, `bound` set and `length` the most it may hold, its length being what it holds at close.
 */
export type ColumnShape = Pick<ColumnSource, 'name' | 'type' | 'length'> & { bound?: boolean };

/**
 * Packed columns (the layout `packColumns` makes) written in place: the
 * layout is fixed up front from the columns' lengths, and each column is
 * appended to through a buffer of its own, so columns filled side by side,
 * a document at a time, go straight to their place in the file rather than
 * through a spill file each that is then copied in. The checksum is taken
 * by reading the payload back once it is complete, before the header is
 * written: until `close()` the file is refused on open. A last column whose
 * length is known only once written (the forward index's id gaps, their widths
 * following from the dictionary's order, forward-ids) is laid out at a bound: at close, its
 * length in the table of contents is made what it holds, the table padded to
 * the bytes it took, and the file cut where the column ends.
 */
export class PackedColumnsWriter {
  private readonly fd: number;
  /** Per column: the file offset its next byte goes to, where its bytes end, its buffer and how full it is. */
  private readonly at: number[];
  private readonly end: number[];
  private readonly bufs: (Buffer | undefined)[];
  private readonly held: number[];
  private readonly head: Buffer;
  private payload: number;

  constructor(
    dir: string,
    private readonly name: string,
    private readonly cols: readonly ColumnShape[],
  ) {
    if (cols.some((c, i) => c.bound && i !== cols.length - 1)) throw new Error(`${name}: only the last column may be laid out at a bound`);
    const { toc, head, dataBytes } = layout(cols);
    this.head = head;
    this.payload = head.length + dataBytes;
    this.at = toc.map((t) => HEADER_BYTES + head.length + t.offset);
    this.end = toc.map((t, i) => this.at[i]! + t.length * CTORS[t.type].BYTES_PER_ELEMENT);
    this.bufs = cols.map(() => undefined);
    this.held = cols.map(() => 0);
    // Read as well: the checksum is taken from the file.
    this.fd = fs.openSync(path.join(dir, name), 'w+');
    try {
      // The header, the padding and the column ends are zeros until written.
      fs.ftruncateSync(this.fd, HEADER_BYTES + this.payload);
      fs.writeSync(this.fd, head, 0, head.length, HEADER_BYTES);
    } catch (e) {
      fs.closeSync(this.fd);
      throw e;
    }
  }

  /** Appends bytes to column `c` (an index into the columns given). */
  append(c: number, bytes: Uint8Array): void {
    if (this.at[c]! + this.held[c]! + bytes.length > this.end[c]!) throw new Error(`column ${this.cols[c]!.name}: more bytes than its length`);
    let buf = this.bufs[c];
    if (buf && this.held[c]! + bytes.length > buf.length) this.flush(c);
    if (bytes.length >= COLUMN_BUFFER_BYTES) {
      fs.writeSync(this.fd, bytes, 0, bytes.length, this.at[c]);
      this.at[c]! += bytes.length;
      return;
    }
    buf ??= this.bufs[c] = Buffer.allocUnsafe(COLUMN_BUFFER_BYTES);
    buf.set(bytes, this.held[c]);
    this.held[c]! += bytes.length;
  }

  private flush(c: number): void {
    if (this.held[c]) fs.writeSync(this.fd, this.bufs[c]!, 0, this.held[c], this.at[c]);
    this.at[c]! += this.held[c]!;
    this.held[c] = 0;
  }

  /** Checks that every column got its length, writes the header, flushes the file to disk and closes it. */
  close(): void {
    try {
      this.cols.forEach((col, c) => {
        this.flush(c);
        if (this.at[c] !== this.end[c] && !col.bound) throw new Error(`column ${col.name}: ${this.end[c]! - this.at[c]!} bytes short`);
      });
      if (this.cols.at(-1)?.bound) this.cutLast();
    } catch (e) {
      this.abandon();
      throw e;
    }
    closeWithHeader(this.fd, this.name, this.payload, payloadHash(this.fd, INDEX_FORMAT_VERSION));
  }

  /** Gives a last column laid out at a bound the length it holds: its table of contents rewritten in the bytes it took, the file cut at its end. */
  private cutLast(): void {
    const c = this.cols.length - 1;
    const last = this.cols[c]!;
    const size = CTORS[last.type].BYTES_PER_ELEMENT;
    const length = last.length - (this.end[c]! - this.at[c]!) / size;
    if (!Number.isInteger(length)) throw new Error(`column ${last.name}: ${this.end[c]! - this.at[c]!} bytes short of whole elements`);
    const { toc, dataBytes } = layout(this.cols.map((col, i) => (i === c ? { ...col, length } : col)));
    const json = Buffer.from(JSON.stringify(toc));
    const tocBytes = this.head.readUInt32LE(0);
    // A length no larger than the bound takes no more digits: the table is padded with spaces, which JSON allows, to where the data starts.
    this.head.fill(0x20, 4, 4 + tocBytes);
    json.copy(this.head, 4);
    fs.writeSync(this.fd, this.head, 0, this.head.length, HEADER_BYTES);
    this.payload = this.head.length + dataBytes;
    fs.ftruncateSync(this.fd, HEADER_BYTES + this.payload);
  }

  /** Closes without a header (the file is then unreadable as an index file). */
  abandon(): void {
    fs.closeSync(this.fd);
  }
}

/** Each column's buffer in a PackedColumnsWriter; larger appends go to the file at once. */
const COLUMN_BUFFER_BYTES = 1 << 20;

/**
 * An index file read in pieces: its header and checksum are verified by one
 * streaming pass, then column ranges are read on demand, so a file larger
 * than memory can be walked.
 */
export class IndexFileColumns {
  private readonly fd: number;
  private readonly cols = new Map<string, TocEntry & { at: number }>();

  constructor(dir: string, name: string) {
    const file = path.join(dir, name);
    this.file = file;
    this.fd = openIndexFd(file)!;
    const { header, st } = checkWhole(this.fd, name, file);
    try {
      verifyChecksum(file, st, header, (version) => payloadHash(this.fd, version).digest());
      for (const [name, t] of readToc(this.fd, file)) this.cols.set(name, { name, offset: t.at, ...t });
    } catch (e) {
      fs.closeSync(this.fd);
      throw e;
    }
  }

  readonly file: string;

  /** Elements `from` to `to` (exclusive) of a column, copied. */
  read<C extends Column>(name: string, ctor: { new (n: number): C; BYTES_PER_ELEMENT: number }, from: number, to: number): C {
    const t = this.cols.get(name);
    if (!t || CTORS[t.type] !== (ctor as unknown)) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${this.file} lacks column ${name}`);
    if (from < 0 || to > t.length || from > to) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${this.file}: ${name}[${from}..${to}) is out of range`);
    const out = new ctor(to - from);
    const bytes = new Uint8Array(out.buffer, 0, out.byteLength);
    if (bytes.length) fs.readSync(this.fd, bytes, 0, bytes.length, t.at + from * ctor.BYTES_PER_ELEMENT);
    return out;
  }

  /** Whether the file has a column (one of two layouts a file may have). */
  has(name: string): boolean {
    return this.cols.has(name);
  }

  /** Elements in a column. */
  length(name: string): number {
    return this.cols.get(name)?.length ?? 0;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** The columns of an index file open as `fd` (header already checked): each one's type, length and file offset. */
export function readToc(fd: number, file: string): Map<string, { type: ColumnType; length: number; at: number }> {
  const tocLen = Buffer.alloc(4);
  fs.readSync(fd, tocLen, 0, 4, HEADER_BYTES);
  const tocBytes = Buffer.alloc(tocLen.readUInt32LE(0));
  fs.readSync(fd, tocBytes, 0, tocBytes.length, HEADER_BYTES + 4);
  const dataStart = HEADER_BYTES + align8(4 + tocBytes.length);
  const cols = new Map<string, { type: ColumnType; length: number; at: number }>();
  for (const t of parseToc(tocBytes.toString('utf8'), file)) cols.set(t.name, { type: t.type, length: t.length, at: dataStart + t.offset });
  return cols;
}

function parseToc(json: string, file: string): TocEntry[] {
  try {
    return JSON.parse(json) as TocEntry[];
  } catch {
    throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${file} has an unreadable table of contents`);
  }
}

/** Views the columns of a packed payload (copying only when the buffer is misaligned). */
export function unpackColumns(buf: Buffer, file: string): Record<string, Column> {
  const tocLen = buf.readUInt32LE(0);
  const toc = parseToc(buf.toString('utf8', 4, 4 + tocLen), file);
  const dataStart = align8(4 + tocLen);
  const out: Record<string, Column> = {};
  for (const t of toc) {
    const Ctor = CTORS[t.type];
    const at = buf.byteOffset + dataStart + t.offset;
    if (at % Ctor.BYTES_PER_ELEMENT === 0) out[t.name] = new Ctor(buf.buffer as ArrayBuffer, at, t.length);
    else {
      const bytes = buf.subarray(dataStart + t.offset, dataStart + t.offset + t.length * Ctor.BYTES_PER_ELEMENT);
      out[t.name] = new Ctor(new Uint8Array(bytes).buffer, 0, t.length);
    }
  }
  return out;
}

/** A column by name and type, or a format error naming the file. */
export function column<C extends Column>(cols: Record<string, Column>, name: string, ctor: new (...a: never[]) => C, file: string): C {
  const c = cols[name];
  if (!(c instanceof ctor)) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${file} lacks column ${name}`);
  return c;
}
