/**
 * @module shared/index/docinfo
 * The docinfo file: what a search reads of every matching document before it
 * knows which it will show — the link score (the prior every match's bound
 * adds), the weight of its text in hundredths (StoredDoc.prose), the tags filters test (host, site, type, lang, as ids of each tag's
 * values) — and each URL's hash, sorted, to find a document by its URL. A few
 * bytes a document in typed arrays, so a searcher never parses stored fields
 * to rank, filter or look up a page.
 */
import zlib from 'node:zlib';
import { HzError } from '../errors.js';
import { TAG_FIELDS, type TagField, type Tags } from './candidates.js';
import { columnSource, INDEX_FILES, writeIndexFileWith, writePackedColumns, type Column } from './format.js';
import type { PagedColumn, PagedFile } from './paged.js';
import type { StoredDoc } from './types.js';

/** A URL's 32-bit hash (CRC-32 of its UTF-8 bytes). */
const urlHash = (url: string) => zlib.crc32(Buffer.from(url, 'utf8')) >>> 0;

class Grow<A extends Uint32Array | Float64Array> {
  len = 0;
  constructor(public arr: A) {}
  push(v: number): void {
    if (this.len === this.arr.length) {
      const next = new (this.arr.constructor as new (n: number) => A)(this.arr.length * 2);
      next.set(this.arr);
      this.arr = next;
    }
    this.arr[this.len++] = v;
  }
  done(): A {
    return this.arr.subarray(0, this.len) as A;
  }
}

/** Collects each document's docinfo as the writer adds it. */
export class DocInfoBuilder {
  private readonly boost = new Grow(new Float64Array(1024));
  private readonly hash = new Grow(new Uint32Array(1024));
  private readonly prose = new Grow(new Uint32Array(1024));
  private readonly tags = TAG_FIELDS.map(() => ({ ids: new Map<string, number>(), of: new Grow(new Uint32Array(1024)) }));

  add(s: StoredDoc): void {
    this.boost.push(s.boost);
    this.hash.push(urlHash(s.url));
    this.prose.push(Math.round((s.prose ?? 1) * 100));
    TAG_FIELDS.forEach((f, k) => {
      const t = this.tags[k]!;
      const v = s[f] ?? '';
      let id = t.ids.get(v);
      if (id === undefined) t.ids.set(v, (id = t.ids.size));
      t.of.push(id);
    });
  }

  /** Each document's link score, by id. */
  get boosts(): Float64Array {
    return this.boost.done();
  }

  write(dir: string): void {
    const hashes = this.hash.done();
    const byHash = Uint32Array.from({ length: hashes.length }, (_, i) => i).sort((a, b) => hashes[a]! - hashes[b]! || a - b);
    const cols: Record<string, Column> = {
      boost: this.boost.done(),
      'url.hash': Uint32Array.from(byHash, (i) => hashes[i]!),
      'url.doc': byHash,
      prose: Uint8Array.from(this.prose.done()),
    };
    TAG_FIELDS.forEach((f, k) => {
      cols[`tag.${f}`] = this.tags[k]!.of.done();
      cols[`values.${f}`] = Buffer.from(JSON.stringify([...this.tags[k]!.ids.keys()]));
    });
    writeIndexFileWith(dir, INDEX_FILES.docinfo, (w) => writePackedColumns(w, Object.entries(cols).map(([name, c]) => columnSource(name, c))));
  }
}

/** Value ids of a tag by document. */
export type TagIds = Uint8Array | Uint16Array | Uint32Array;

/** The narrowest array of ids below `values`. */
export const idArray = (values: number): { from(ids: ArrayLike<number>): TagIds } => (values <= 2 ** 8 ? Uint8Array : values <= 2 ** 16 ? Uint16Array : Uint32Array);

/**
 * A docinfo file as a searcher holds it: the columns every match reads in
 * memory (a few bytes a document); the URL hashes, which only a lookup by
 * URL reads, where they lie (8 bytes a document: 8 MB of every worker at a
 * million pages, for a binary search of some twenty pages).
 */
export class DocInfo {
  readonly boost: Float64Array;
  /** Each document's text weight in hundredths; undefined in an index written before pages had one (all 1). */
  private readonly proses: Uint8Array | undefined;
  private readonly hashes: PagedColumn;
  private readonly hashDocs: PagedColumn;
  /**
   * Each tag's value id of each document, all four in the narrowest array
   * that holds the most values of any (one type, so the loops that count
   * facets over every match see one kind of array): bytes at a million pages
   * of 100 hosts, 16 MB as the file's 32-bit ids.
   */
  private readonly tags: TagIds[];
  /** Each tag's values, by id. */
  private readonly names: string[][];
  private readonly values: Map<string, number>[];

  constructor(
    private readonly f: PagedFile,
    docCount: number,
  ) {
    this.boost = f.all('boost', Float64Array);
    this.hashes = f.column('url.hash', 'u32');
    this.hashDocs = f.column('url.doc', 'u32');
    this.proses = f.has('prose') ? f.all('prose', Uint8Array) : undefined;
    this.names = TAG_FIELDS.map((t) => {
      const bytes = f.all(`values.${t}`, Uint8Array);
      return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')) as string[];
    });
    const width = idArray(Math.max(...this.names.map((n) => n.length)));
    this.tags = TAG_FIELDS.map((t) => {
      const ids = f.all(`tag.${t}`, Uint32Array);
      return width === Uint32Array ? ids : width.from(ids);
    });
    this.values = this.names.map((names) => new Map(names.map((v, i) => [v, i])));
    if (this.boost.length !== docCount || this.hashes.length !== docCount || this.hashDocs.length !== docCount || (this.proses && this.proses.length !== docCount) || this.tags.some((t) => t.length !== docCount))
      throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${f.file} disagrees with the index's number of documents`);
  }

  /** A document's text weight (StoredDoc.prose, 1 when it has none). */
  prose(doc: number): number {
    return this.proses ? this.proses[doc]! / 100 : 1;
  }

  /** A document's value of a tag, as its stored fields have it ('' for none). */
  tag(doc: number, field: TagField): string {
    const k = TAG_FIELDS.indexOf(field);
    return this.names[k]![this.tags[k]![doc]!]!;
  }

  /** A tag's value id of each document, and the values by id. */
  column(field: TagField): { ids: TagIds; values: readonly string[] } {
    const k = TAG_FIELDS.indexOf(field);
    return { ids: this.tags[k]!, values: this.names[k]! };
  }

  /** The documents whose URL hashes as `url` does (check their stored URL: hashes may collide). */
  *withUrlHash(url: string): Generator<number> {
    const { f, hashes } = this;
    const h = urlHash(url);
    let lo = 0;
    let hi = hashes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (f.u32(hashes, mid) < h) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < hashes.length && f.u32(hashes, i) === h; i++) yield f.u32(this.hashDocs, i);
  }

  /**
   * A test of a document's tags against exact values (only the tags given
   * count); undefined when no tag is given, () => false when a value is in
   * no document.
   */
  tagFilter(tags: Partial<Tags> | undefined): ((id: number) => boolean) | undefined {
    const want: [TagIds, number][] = [];
    for (const [k, f] of TAG_FIELDS.entries()) {
      const v = tags?.[f as TagField];
      if (v === undefined || v === '') continue;
      const id = this.values[k]!.get(v);
      if (id === undefined) return () => false;
      want.push([this.tags[k]!, id]);
    }
    if (!want.length) return undefined;
    return (doc) => want.every(([col, id]) => col[doc] === id);
  }
}
