/**
 * @module shared/index/stored-fields
 * The stored fields file (`docs`) in compressed blocks, as Lucene stores
 * them: documents' JSON records, a newline between them (JSON.stringify
 * writes none inside one), gathered into blocks of about BLOCK_CHARS and
 * each block deflated. Records repeat their keys and much of their values
 * (hosts, segment, type), so a block compresses to about a quarter; deflate
 * rather than brotli, since at this block size brotli saves a few per cent
 * and decodes slower (measured on the growth corpus). Columns: the first
 * document of each block (and the document count), where each block starts
 * in `data` (and where the last ends), and `data`. A reader keeps the last
 * few blocks it decoded: results pages and merge read neighbouring documents.
 */
import zlib from 'node:zlib';
import { HzError } from '../errors.js';
import { Lru } from './lru.js';
import { columnSource, INDEX_FILES, writeIndexFileWith, writePackedColumns } from './format.js';
import type { PagedColumn, PagedFile } from './paged.js';
import type { SpillSink } from './spill.js';
import type { StoredDoc } from './types.js';

/** A block is closed once its records reach this many characters (about 16 KiB). */
export const BLOCK_CHARS = 16 * 1024;
/** Decoded blocks a reader keeps. */
const CACHED_BLOCKS = 16;
const NEWLINE = 0x0a;

/** A block's bytes inflated, and where each record starts in them (then one past the last's end). */
interface DecodedBlock {
  bytes: Buffer;
  at: Uint32Array;
}

/** A growing array of u32. */
class Grow {
  len = 0;
  arr = new Uint32Array(1024);
  push(v: number): void {
    if (this.len === this.arr.length) {
      const next = new Uint32Array(this.arr.length * 2);
      next.set(this.arr);
      this.arr = next;
    }
    this.arr[this.len++] = v;
  }
  done(): Uint32Array {
    return this.arr.subarray(0, this.len);
  }
}

/** Gathers stored fields into compressed blocks on a spill file as documents are added; writes the docs file at the end. */
export class StoredFieldsWriter {
  private pending: string[] = [];
  private chars = 0;
  private docs = 0;
  private readonly first = new Grow();
  private readonly start = new Grow();

  constructor(private readonly sink: SpillSink) {
    this.start.push(0);
  }

  add(s: StoredDoc): void {
    const json = JSON.stringify(s);
    this.pending.push(json);
    this.chars += json.length + 1;
    this.docs++;
    if (this.chars >= BLOCK_CHARS) this.flush();
  }

  private flush(): void {
    if (!this.pending.length) return;
    this.first.push(this.docs - this.pending.length);
    this.sink.raw(zlib.deflateRawSync(Buffer.from(this.pending.join('\n'))));
    this.start.push(this.sink.bytes);
    this.pending = [];
    this.chars = 0;
  }

  /** Writes the docs file into `dir`; the spill sink is closed. */
  write(dir: string): void {
    this.flush();
    this.sink.close();
    this.first.push(this.docs);
    writeIndexFileWith(dir, INDEX_FILES.docs, (w) =>
      writePackedColumns(w, [columnSource('first', this.first.done()), columnSource('start', this.start.done()), this.sink.column('data', 'u8', this.sink.bytes)]),
    );
  }
}

/** Reads stored fields from a docs file through the page cache, a block decoded at a time. */
export class StoredFieldsReader {
  private readonly data: PagedColumn;
  private readonly firstCol: PagedColumn;
  private blocks: { first: Uint32Array; start: Uint32Array } | undefined;
  private readonly decoded = new Lru<number, DecodedBlock>(CACHED_BLOCKS, () => 1);

  constructor(
    private readonly f: PagedFile,
    docCount: number,
  ) {
    this.data = f.column('data', 'u8');
    this.firstCol = f.column('first', 'u32');
    const n = this.firstCol.length;
    if (f.column('start', 'u32').length !== n || f.u32(this.firstCol, n - 1) !== docCount) throw this.bad('disagrees with the index on the number of documents');
  }

  private bad(why: string): HzError {
    return new HzError('HZ_ERR_INDEX_FORMAT', `index file ${this.f.file} ${why}`);
  }

  /** The per-block arrays (8 bytes a block), read on first use. */
  warm(): { first: Uint32Array; start: Uint32Array } {
    return (this.blocks ??= { first: this.f.all('first', Uint32Array), start: this.f.all('start', Uint32Array) });
  }

  /** Document `id`'s JSON record. */
  json(id: number): string {
    const { first } = this.warm();
    let lo = 0;
    let hi = first.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (first[mid]! <= id) lo = mid;
      else hi = mid - 1;
    }
    const { bytes, at } = this.block(lo);
    const i = id - first[lo]!;
    return bytes.toString('utf8', at[i]!, at[i + 1]! - 1);
  }

  /** A block's records, decoded or from the cache of the last ones. */
  private block(b: number): DecodedBlock {
    const known = this.decoded.get(b);
    if (known) return known;
    const { first, start } = this.warm();
    let bytes: Buffer;
    try {
      bytes = zlib.inflateRawSync(this.f.read(this.data, Uint8Array, start[b]!, start[b + 1]!));
    } catch (e) {
      throw this.bad(`has a damaged block ${b}: ${(e as Error).message}`);
    }
    // Where each record starts (and one past the last's end), found in the bytes: a record is made a string only when asked for.
    const count = first[b + 1]! - first[b]!;
    const at = new Uint32Array(count + 1);
    let k = 1;
    for (let nl = bytes.indexOf(NEWLINE); nl >= 0 && k <= count; nl = bytes.indexOf(NEWLINE, nl + 1)) at[k++] = nl + 1;
    if (k !== count) throw this.bad(`block ${b} holds ${k} records, not ${count}`);
    at[count] = bytes.length + 1;
    return this.decoded.set(b, { bytes, at });
  }

  clear(): void {
    this.decoded.clear();
  }
}
