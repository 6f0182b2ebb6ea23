/**
 * @module shared/index/paged
 * An index file read where it lies: its columns are read with `fs.readSync`
 * a page at a time into a small cache of the reader's own, so a searcher
 * holds the pages its queries touch, not the file. The operating system's
 * page cache under it is shared by every worker that opens the same index.
 * The header is checked and the payload must be whole on open (a torn copy is
 * refused, naming the file); the checksum is verified for the small files
 * read whole, as Lucene checks large files' checksums only when merging.
 */
import fs from 'node:fs';
import { HzError } from '../errors.js';
import { openIndexFilePieces, readToc, type ColumnType } from './format.js';

/** Bytes a page: elements of 8 bytes or fewer never straddle one, the columns being 8-byte aligned in the file. */
export const PAGE_BYTES = 1 << 12;
/**
 * The page of a file offset; in arithmetic, as a file may pass 4 GiB, where
 * a 32-bit shift wraps (the offset within the page, its low bits, does not).
 */
export const pageOf = (off: number) => Math.floor(off / PAGE_BYTES);

interface Page {
  u8: Uint8Array;
  u16: Uint16Array;
  u32: Uint32Array;
}

/**
 * Pages of the files of one index, least recently used dropped past a
 * budget. A hit on the page read last costs no map operation. The pages
 * are slots of one buffer, a page read into the slot of the one it drops:
 * a page a read made and dropped soon after was garbage outside the heap,
 * which piled up between two collections and left the process's memory
 * fragmented and larger than the cache.
 */
export class PageCache {
  /** Slot of each page held, least recently used first. */
  private readonly slots = new Map<number, number>();
  private readonly views: Page[] = [];
  private slab: ArrayBuffer | undefined;
  /** Slots never used yet start here; slots a failed read left empty wait in `free`. */
  private fresh = 0;
  private readonly free: number[] = [];
  private lastKey = -1;
  private last: Page | undefined;
  private files = 0;

  constructor(private readonly maxPages: number) {}

  /** A number for a file's pages (keys are file · 2^32 + page). */
  fileId(): number {
    return this.files++;
  }

  get size(): number {
    return this.slots.size;
  }

  page(fd: number, file: number, n: number, fileBytes: number): Page {
    const key = file * 2 ** 32 + n;
    if (key === this.lastKey) return this.last!;
    let slot = this.slots.get(key);
    if (slot !== undefined) {
      this.slots.delete(key);
    } else {
      slot = this.emptySlot();
      const p = this.views[slot]!;
      const at = n * PAGE_BYTES;
      try {
        const got = fs.readSync(fd, p.u8, 0, Math.min(PAGE_BYTES, fileBytes - at), at);
        p.u8.fill(0, got);
      } catch (e) {
        this.free.push(slot);
        throw e;
      }
    }
    this.slots.set(key, slot);
    this.lastKey = key;
    return (this.last = this.views[slot]!);
  }

  /** A slot to read a page into: a free one, or the least recently used page's. */
  private emptySlot(): number {
    const free = this.free.pop();
    if (free !== undefined) return free;
    if (this.fresh < this.maxPages) {
      // The buffer is reserved whole on first use; the operating system backs only the pages written.
      this.slab ??= new ArrayBuffer(this.maxPages * PAGE_BYTES);
      const at = this.fresh * PAGE_BYTES;
      this.views.push({ u8: new Uint8Array(this.slab, at, PAGE_BYTES), u16: new Uint16Array(this.slab, at, PAGE_BYTES / 2), u32: new Uint32Array(this.slab, at, PAGE_BYTES / 4) });
      return this.fresh++;
    }
    const [key, slot] = this.slots.entries().next().value!;
    this.slots.delete(key);
    if (key === this.lastKey) (this.lastKey = -1), (this.last = undefined);
    return slot;
  }

  clear(): void {
    this.slots.clear();
    this.free.length = 0;
    for (let s = 0; s < this.fresh; s++) this.free.push(s);
    this.lastKey = -1;
    this.last = undefined;
  }
}

const SIZES: Record<ColumnType, number> = { u8: 1, u16: 2, u32: 4, f64: 8 };

/** A column of a paged file: where its elements start in the file, how many, of what type. */
export interface PagedColumn {
  at: number;
  length: number;
  type: ColumnType;
}

/** The packed columns of one index file, read through a PageCache. */
export class PagedFile {
  private readonly fd: number;
  private readonly id: number;
  private readonly bytes: number;
  private readonly cols: Map<string, PagedColumn>;

  constructor(
    readonly dir: string,
    name: string,
    private readonly cache: PageCache,
  ) {
    const opened = openIndexFilePieces(dir, name);
    if (!opened) throw new HzError('HZ_ERR_INDEX_FORMAT', `index ${dir} lacks its ${name} file (written by an older hazelnut, or torn); rebuild it with 'hazelnut index', 'hazelnut dedup' and 'hazelnut merge'`);
    this.fd = opened.fd;
    this.file = opened.file;
    this.bytes = opened.payloadAt + opened.length;
    try {
      this.cols = readToc(this.fd, this.file);
    } catch (e) {
      fs.closeSync(this.fd);
      throw e;
    }
    for (const [c, t] of this.cols)
      if (t.at + t.length * SIZES[t.type] > this.bytes) {
        fs.closeSync(this.fd);
        throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${this.file}: column ${c} runs past the end of the file`);
      }
    this.id = cache.fileId();
  }

  readonly file: string;

  /** Whether the file has a column (one of two layouts a file may have). */
  has(name: string): boolean {
    return this.cols.has(name);
  }

  /** A column by name and type, or a format error naming the file. */
  column(name: string, type: ColumnType): PagedColumn {
    const c = this.cols.get(name);
    if (!c || c.type !== type) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${this.file} lacks column ${name}`);
    return c;
  }

  u32(c: PagedColumn, i: number): number {
    const off = c.at + 4 * i;
    return this.cache.page(this.fd, this.id, pageOf(off), this.bytes).u32[(off & (PAGE_BYTES - 1)) >>> 2]!;
  }

  u16(c: PagedColumn, i: number): number {
    const off = c.at + 2 * i;
    return this.cache.page(this.fd, this.id, pageOf(off), this.bytes).u16[(off & (PAGE_BYTES - 1)) >>> 1]!;
  }

  u8(c: PagedColumn, i: number): number {
    const off = c.at + i;
    return this.cache.page(this.fd, this.id, pageOf(off), this.bytes).u8[off & (PAGE_BYTES - 1)]!;
  }

  /**
   * The page holding element `i` of a byte column, and where in it the
   * element lies: the column's next elements follow it to the page's end
   * (a run of bytes is scanned a page at a time, not a call a byte).
   */
  bytesAt(c: PagedColumn, i: number): [Uint8Array, number] {
    const off = c.at + i;
    return [this.cache.page(this.fd, this.id, pageOf(off), this.bytes).u8, off & (PAGE_BYTES - 1)];
  }

  /** Elements `from` to `to` (exclusive) of a column of bytes or 16-bit words into `out`, through the cache. */
  copy(c: PagedColumn, from: number, to: number, out: Uint8Array | Uint16Array): void {
    const size = out.BYTES_PER_ELEMENT;
    for (let i = from; i < to; ) {
      const off = c.at + size * i;
      const page = this.cache.page(this.fd, this.id, pageOf(off), this.bytes);
      const at = (off & (PAGE_BYTES - 1)) / size;
      const n = Math.min(to - i, PAGE_BYTES / size - at);
      // A loop, not a subarray's set: the runs copied are a few elements, where the view would cost more.
      const src = size === 1 ? page.u8 : page.u16;
      for (let k = 0; k < n; k++) out[i - from + k] = src[at + k]!;
      i += n;
    }
  }

  /**
   * Elements `from` to `to` (exclusive) of a column, read straight from the
   * file past the cache (a run longer than a page is read once a query, and
   * would only push out the pages that are read again).
   */
  read<C extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(c: PagedColumn, ctor: { new (n: number): C; BYTES_PER_ELEMENT: number }, from: number, to: number): C {
    if (from < 0 || to > c.length || from > to) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${this.file}: [${from}..${to}) is out of range`);
    const out = new ctor(to - from);
    const bytes = new Uint8Array(out.buffer, 0, out.byteLength);
    for (let at = 0, n; at < bytes.length; at += n)
      if (!(n = fs.readSync(this.fd, bytes, at, bytes.length - at, c.at + from * ctor.BYTES_PER_ELEMENT + at))) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${this.file} ended early`);
    return out;
  }

  /** A whole column, read once (the per-document arrays a searcher keeps). */
  all<C extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(name: string, ctor: { new (n: number): C; BYTES_PER_ELEMENT: number }): C {
    const type = ({ 1: 'u8', 2: 'u16', 4: 'u32', 8: 'f64' } as const)[ctor.BYTES_PER_ELEMENT as 1 | 2 | 4 | 8];
    const c = this.column(name, type);
    return this.read(c, ctor, 0, c.length);
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
