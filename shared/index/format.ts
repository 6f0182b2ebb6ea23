/**
 * @module shared/index/format
 * The on-disk index format: which files an index holds and how each is framed.
 * Every file starts with a 40-byte header — magic `HZIX`, the format version,
 * the file's kind, the payload length and a truncated SHA-256 of the payload —
 * checked on open, so a torn copy or a newer format is refused with a message
 * naming the file, instead of being half-read. Binary payloads are a set of
 * named typed-array columns, 8-byte aligned, that a reader views in place.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HzError } from '../errors.js';

/**
 * Bump on any incompatible change to a file below. 2: the candidate index keeps terms exactly as analyzed.
 * 3: a heading field (df, tf and length columns). 4: a camelCase word is followed by its parts' terms.
 */
export const INDEX_FORMAT_VERSION = 4;
/** The oldest version this code still reads. */
export const OLDEST_SUPPORTED = 4;

/** The files of one index (per-segment or merged), by role. */
export const INDEX_FILES = {
  /** JSON: IndexMeta. */
  meta: 'meta',
  /** Stored fields: one JSON record per document. */
  docs: 'docs',
  /** Term dictionary (sorted) and document frequencies per field. */
  terms: 'terms',
  /** Per document: sorted term ids, term frequency per field, field lengths. */
  forward: 'forward',
  /** Per (document, term): positions in the title+content stream, delta varints. */
  positions: 'positions',
  /** The flexsearch candidate index, exported. */
  candidates: 'candidates',
} as const;
export type IndexFile = keyof typeof INDEX_FILES;

/** Dedup's deletions, beside a per-segment index; not part of the index proper. */
export const DELETED_FILE = 'deleted';

const MAGIC = 'HZIX';
const HEADER_BYTES = 40;
const CHECKSUM_BYTES = 16;

function checksum(payload: Uint8Array): Buffer {
  return crypto.createHash('sha256').update(payload).digest().subarray(0, CHECKSUM_BYTES);
}

/** Writes `<dir>/<fileName>` (default: the file's role `name`) framed with a header, and flushes it to disk. */
export function writeIndexFile(dir: string, name: string, payload: Uint8Array, fileName = name): void {
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(INDEX_FORMAT_VERSION, 4);
  header.write(name.slice(0, 8).padEnd(8, '\0'), 8, 'latin1');
  header.writeBigUInt64LE(BigInt(payload.byteLength), 16);
  checksum(payload).copy(header, 24);
  const fd = fs.openSync(path.join(dir, fileName), 'w');
  try {
    fs.writeSync(fd, header);
    fs.writeSync(fd, payload);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads and verifies `<dir>/<name>`; returns the payload. */
export function readIndexFile(dir: string, name: string): Buffer {
  const file = path.join(dir, name);
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${file} cannot be read: ${(e as Error).message}`);
  }
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
  const length = Number(buf.readBigUInt64LE(16));
  const payload = buf.subarray(HEADER_BYTES);
  if (payload.length !== length) throw bad(`is truncated: ${payload.length} of ${length} payload bytes`);
  if (!checksum(payload).equals(buf.subarray(24, 24 + CHECKSUM_BYTES))) throw bad('fails its checksum (corrupt)');
  return payload;
}

// ---- typed-array columns ------------------------------------------------------

export type Column = Uint8Array | Uint16Array | Uint32Array | Float64Array;
type ColumnType = 'u8' | 'u16' | 'u32' | 'f64';
const CTORS = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, f64: Float64Array } as const;

function typeOf(c: Column): ColumnType {
  if (c instanceof Uint8Array) return 'u8';
  if (c instanceof Uint16Array) return 'u16';
  if (c instanceof Uint32Array) return 'u32';
  return 'f64';
}

const align8 = (n: number) => (n + 7) & ~7;

/** Packs named columns: a JSON table of contents, then each column 8-byte aligned. */
export function packColumns(cols: Record<string, Column>): Buffer {
  const toc: { name: string; type: ColumnType; offset: number; length: number }[] = [];
  let offset = 0;
  for (const [name, c] of Object.entries(cols)) {
    toc.push({ name, type: typeOf(c), offset, length: c.length });
    offset = align8(offset + c.byteLength);
  }
  const tocBytes = Buffer.from(JSON.stringify(toc));
  const dataStart = align8(4 + tocBytes.length);
  const out = Buffer.alloc(dataStart + offset);
  out.writeUInt32LE(tocBytes.length, 0);
  tocBytes.copy(out, 4);
  for (const t of toc) {
    const c = cols[t.name]!;
    Buffer.from(c.buffer, c.byteOffset, c.byteLength).copy(out, dataStart + t.offset);
  }
  return out;
}

/** Views the columns of a packed payload (copying only when the buffer is misaligned). */
export function unpackColumns(buf: Buffer, file: string): Record<string, Column> {
  const tocLen = buf.readUInt32LE(0);
  let toc: { name: string; type: ColumnType; offset: number; length: number }[];
  try {
    toc = JSON.parse(buf.toString('utf8', 4, 4 + tocLen));
  } catch {
    throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${file} has an unreadable table of contents`);
  }
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
