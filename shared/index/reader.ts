/**
 * @module shared/index/reader
 * Opens an index directory (or an index root with a CURRENT pointer) and
 * answers the IndexReader contract from the files where they lie: the term
 * dictionary (the terms file's words, shared/index/dictionary) and a few
 * numbers a document are in memory; document frequencies, postings, the forward
 * index, positions, sections and stored fields are read at their offsets through
 * a bounded cache (shared/index/paged): memory grows with the vocabulary and the
 * document count, never the text, and workers share the system's cache.
 * Every file's header and length is checked on open; the files read whole
 * have their checksum verified. Used by the searcher and by merge, dedup,
 * prune and readindex.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Analyzer } from '../analysis/analyzer.js';
import { HzError } from '../errors.js';
import { browse, selectCandidates, termIds, type TagField } from './candidates.js';
import { countMatches, CountScratch, groupBits, type MatchCounts, type MatchWeights } from './match-counts.js';
import { cacheBudget, type CacheBudget } from './cache-budget.js';
import { TermDictionary } from './dictionary.js';
import { DocInfo } from './docinfo.js';
import type { AnalyzedDoc } from './document.js';
import type { DocEntries } from './entries.js';
import { column, DELETED_FILE, INDEX_FILES, IndexFileColumns, readIndexFile, unpackColumns } from './format.js';
import { ForwardFiles, inconsistent, windowLayout } from './forward.js';
import { readIds } from './forward-ids.js';
import { Lru } from './lru.js';
import { entryRuns, readRuns } from './run-starts.js';
import { StoredFieldsReader } from './stored-fields.js';
import { decodeTfs } from './tf-codes.js';
import { readTfs } from './tf-sparse.js';
import { PAGE_BYTES, PageCache, PagedFile, type PagedColumn } from './paged.js';
import { PostingsFile } from './postings-file.js';
import { readIndexMeta } from './publish.js';
import { FIELDS, type CandidateOptions, type Field, type IndexMeta, type IndexReader, type Postings, type StoredDoc, type TermBlocks } from './types.js';

const FIELD_INDEX = Object.fromEntries(FIELDS.map((f, i) => [f, i])) as Record<Field, number>;

function load(dir: string, name: string) {
  const file = path.join(dir, name);
  return { file, cols: unpackColumns(readIndexFile(dir, name), file) };
}

/** Dedup's deletions beside an index: the deleted ids, or none. */
export function readDeleted(dir: string): Set<number> {
  if (!fs.existsSync(path.join(dir, DELETED_FILE))) return new Set();
  const { file, cols } = load(dir, DELETED_FILE);
  return new Set(column(cols, 'ids', Uint32Array, file));
}

/** Documents read at a time by `docEntries`. */
const WINDOW_DOCS = 512;

/** The files read where they lie: their checksums are verified on open only when asked (openIndex). */
const PAGED_FILES = [INDEX_FILES.terms, INDEX_FILES.forward, INDEX_FILES.positions, INDEX_FILES.sections, INDEX_FILES.docs, INDEX_FILES.postings, INDEX_FILES.docinfo];

class SegmentedIndexReader implements IndexReader {
  readonly analyzer: Analyzer;
  private readonly dict: TermDictionary;
  /**
   * Each field's document frequencies, read a page at a time as queries look
   * terms up: five columns of four bytes a term were 42 MB of every worker at
   * a million pages, for the few terms a query has.
   */
  private readonly termsFile: PagedFile;
  private readonly df: PagedColumn[];
  private readonly cache: PageCache;
  private readonly fwd: ForwardFiles;
  private readonly stored: PagedFile;
  private readonly storedFields: StoredFieldsReader;
  /** Parsed stored documents, weighed by their JSON's length (two bytes a character, about what the parsed strings take). */
  private readonly storedCache: Lru<number, { doc: StoredDoc; bytes: number }>;
  private readonly post: PostingsFile;
  private readonly infoFile: PagedFile;
  private info: DocInfo | undefined;
  private scratch: CountScratch | undefined;

  constructor(
    readonly dir: string,
    readonly meta: IndexMeta,
    private readonly deleted: Set<number>,
    verify: boolean,
    readonly cacheBudget: CacheBudget,
  ) {
    this.analyzer = Analyzer.ofIndex(meta.analyzer, cacheBudget.words);
    // Pages of 4 KiB, the operating system's: a scattered read costs one.
    this.cache = new PageCache(Math.max(1, Math.floor(cacheBudget.pages / PAGE_BYTES)));
    this.storedCache = new Lru(cacheBudget.stored, (d) => d.bytes);
    if (verify) for (const name of PAGED_FILES) new IndexFileColumns(dir, name).close();
    // Every file is opened now: a torn or missing one is refused before the first query.
    const opened: { close(): void }[] = [];
    try {
      opened.push((this.termsFile = new PagedFile(dir, INDEX_FILES.terms, this.cache)));
      this.dict = new TermDictionary(this.termsFile.all('words', Uint8Array));
      this.df = FIELDS.map((f) => this.termsFile.column(`df.${f}`, 'u32'));
      if (this.dict.size !== meta.termCount || this.df.some((c) => c.length !== meta.termCount)) throw inconsistent(dir);
      opened.push((this.fwd = new ForwardFiles(dir, meta.docCount, this.cache)));
      opened.push((this.stored = new PagedFile(dir, INDEX_FILES.docs, this.cache)));
      opened.push((this.post = new PostingsFile(dir, this.cache, meta.termCount, () => inconsistent(dir), cacheBudget, () => ({ lengths: this.fwd.lengths, boosts: this.docInfo.boost }))));
      opened.push((this.infoFile = new PagedFile(dir, INDEX_FILES.docinfo, this.cache)));
      this.storedFields = new StoredFieldsReader(this.stored, meta.docCount);
    } catch (e) {
      for (const f of opened) f.close();
      throw e;
    }
  }

  /** The per-document arrays (docinfo, field lengths, where each document's entries start), read on first use: dedup and merge need few. */
  private get docInfo(): DocInfo {
    return (this.info ??= new DocInfo(this.infoFile, this.meta.docCount));
  }

  /** Reads now what every query reads, rather than on the first query. */
  warm(): this {
    this.docInfo;
    this.fwd.warm();
    this.storedFields.warm();
    return this;
  }

  doc(id: number): StoredDoc {
    return (this.storedCache.get(id) ?? this.storedCache.set(id, this.parseStored(id))).doc;
  }

  private parseStored(id: number): { doc: StoredDoc; bytes: number } {
    if (!(id >= 0 && id < this.meta.docCount)) throw new RangeError(`no document ${id} in ${this.dir}`);
    const json = this.storedFields.json(id);
    return { doc: JSON.parse(json) as StoredDoc, bytes: 2 * json.length };
  }

  idOf(url: string): number | undefined {
    for (const id of this.docInfo.withUrlHash(url)) if (this.doc(id).url === url) return id;
    return undefined;
  }

  isDeleted(id: number): boolean {
    return this.deleted.has(id);
  }

  boost(id: number): number {
    return this.docInfo.boost[id]!;
  }

  prose(id: number): number {
    return this.docInfo.prose(id);
  }

  tag(id: number, field: TagField): string {
    return this.docInfo.tag(id, field);
  }

  candidates(terms: string[], opts: CandidateOptions): number[] {
    const tagged = this.docInfo.tagFilter(opts.tags);
    const accept = this.deleted.size ? (id: number) => !this.deleted.has(id) && (!tagged || tagged(id)) : tagged;
    if (!terms.length) return tagged ? browse(this.meta.docCount, opts.limit, accept!) : [];
    const lists = termIds(terms, (t) => this.termId(t)).map((t) => ({ blocks: this.postingBlocks(t), ...(opts.weigh ? { weights: opts.weigh(t) } : {}) }));
    return selectCandidates(lists, opts.limit, { accept, ...opts });
  }

  countMatches(terms: string[], weights?: MatchWeights, stats?: CandidateOptions['stats'], groups?: readonly (readonly string[])[]): MatchCounts {
    const ids = termIds(terms, (t) => this.termId(t));
    this.scratch ??= new CountScratch(this.meta.docCount);
    const weighing = weights ? { weights, termIds: ids, stats } : undefined;
    const bits = groups && groupBits(ids, groups.map((g) => g.map((t) => this.termId(t))));
    return countMatches(ids.map((t) => this.postingBlocks(t)), groups?.length ?? new Set(terms).size, this.meta.docCount, (f) => this.docInfo.column(f), this.deleted, this.scratch, weighing, bits);
  }

  docFreq = (field: Field, term: string): number => this.docFreqOf(field, this.dict.id(term));
  docFreqOf = (field: Field, termId: number): number => (termId < 0 ? 0 : this.termsFile.u32(this.df[FIELD_INDEX[field]]!, termId));

  /** Read whole from the file each call (the searcher's warm-up walks them once). */
  docFreqs(field: Field): ArrayLike<number> {
    return this.termsFile.all(`df.${field}`, Uint32Array);
  }

  termId = (term: string): number => this.dict.id(term);

  entry(id: number, termId: number): number {
    if (termId < 0 || !(id >= 0 && id < this.meta.docCount)) return -1;
    return this.fwd.entry(id, termId);
  }

  entryRange = (id: number): [number, number] => this.fwd.entries(id);
  entryTerm = (entry: number): number => this.fwd.termOf(entry);
  entryCounts = (first: number, end: number, out: Uint32Array): void => this.fwd.positionCounts(first, end, out);

  entryTf(entry: number, field: number): number {
    return this.fwd.tf(entry, field);
  }

  entryPositions(entry: number, max = Infinity, count?: number): readonly number[] {
    return this.fwd.positions(entry, max, count);
  }

  sectionLengths = (id: number): Uint32Array => this.fwd.sectionLengths(id);

  entrySections(entry: number, out: number[] = []): number[] {
    return this.fwd.sections(entry, out);
  }

  /** Refuses a query of an index kept without postings (IndexMeta.postings). */
  private searchable(): void {
    if (this.meta.postings === false)
      throw new HzError('HZ_ERR_INDEX_FORMAT', `index ${this.dir} is a segment's own index, kept without postings for merge: search the merged index ('hazelnut merge <crawl>/index -dir <crawl>/segments')`);
  }

  /** Decoded from the postings file, the most recently used kept. */
  postings(termId: number): Postings {
    this.searchable();
    return this.post.postings(termId);
  }

  postingTfs(termId: number): Uint16Array[] {
    this.searchable();
    return this.post.tfs(termId);
  }

  postingBlocks(termId: number): TermBlocks {
    this.searchable();
    return this.post.blocks(termId);
  }

  termFreq(id: number, field: Field, term: string): number {
    const e = this.entry(id, this.termId(term));
    return e < 0 ? 0 : this.fwd.tf(e, FIELD_INDEX[field]);
  }

  fieldLength(id: number, field: Field): number {
    return this.fwd.fieldLength(id, FIELD_INDEX[field]);
  }
  fieldLengths = (): Uint32Array => this.fwd.lengths;

  positions(id: number, term: string): readonly number[] {
    const e = this.entry(id, this.termId(term));
    return e < 0 ? [] : this.fwd.positions(e);
  }

  /** The document as the writer took it. */
  analyzed(id: number): AnalyzedDoc {
    const L = (field: Field) => this.fwd.fieldLength(id, FIELD_INDEX[field]);
    const titleLength = L('title');
    const stream: string[] = new Array(titleLength + L('content'));
    const lists = { anchor: [] as string[], url: [] as string[], heading: [] as string[] };
    const [first, end] = this.fwd.entries(id);
    for (let e = first; e < end; e++) {
      const w = this.dict.term(this.fwd.termOf(e));
      for (const p of this.fwd.positions(e)) stream[p] = w;
      for (const field of ['anchor', 'url', 'heading'] as const) for (let k = this.fwd.tf(e, FIELD_INDEX[field]); k > 0; k--) lists[field].push(w);
    }
    return { stored: this.doc(id), stream, titleLength, ...lists };
  }

  /**
   * Every document's stored fields and entries (term ids of `terms()`), in id
   * order, reading the forward index, positions and sections a window of
   * documents at a time: merge walks an index of any size in bounded memory
   * and copies the positions' and section runs' bytes as they are. Stored fields are not cached. Only the
   * documents `keep` accepts are read out: merge leaves out duplicates and
   * other shards' documents.
   */
  *docEntries(keep: (id: number) => boolean = () => true): Generator<[number, StoredDoc, DocEntries]> {
    const fwd = new IndexFileColumns(this.dir, INDEX_FILES.forward);
    try {
      const pos = new IndexFileColumns(this.dir, INDEX_FILES.positions);
      let sec: IndexFileColumns | undefined;
      try {
        sec = new IndexFileColumns(this.dir, INDEX_FILES.sections);
        const n = this.meta.docCount;
        if (fwd.length('start') !== n + 1) throw inconsistent(this.dir);
        for (let first = 0; first < n; first += WINDOW_DOCS) {
          const last = Math.min(n, first + WINDOW_DOCS);
          const start = fwd.read('start', Uint32Array, first, last + 1);
          const e0 = start[0]!;
          const e1 = start[last - first]!;
          const term = readIds(fwd, e0, e1);
          const [tfBytes, tfCodes] = readTfs(fwd, e0, e1);
          const lengths = fwd.read('lengths', Uint32Array, first * FIELDS.length, last * FIELDS.length);
          const positions = this.fwd.windowPositions(pos, e0, e1, tfBytes, tfCodes, windowLayout(start, lengths));
          const secDoc = sec.read('doc', Uint32Array, first, last + 1);
          const secLength = sec.read('length', Uint32Array, secDoc[0]!, secDoc[last - first]!);
          // Each document's first section run (an index without the column has one for every entry).
          const secEntry = sec.length('entry') ? sec.read('entry', Uint32Array, first, last + 1) : start;
          const sectionRuns = readRuns(sec, secEntry[0]!, secEntry[last - first]!);
          for (let id = first; id < last; id++) {
            if (!keep(id)) continue;
            const a = start[id - first]! - e0;
            const b = start[id - first + 1]! - e0;
            const tf = decodeTfs(tfBytes, tfCodes, a, b, e0, this.fwd.over);
            const p = entryRuns(positions, a, b);
            const r = secEntry[id - first]! - secEntry[0]!;
            const s = secEntry[id - first + 1]! - secEntry[0]! > r ? entryRuns(sectionRuns, r, r + b - a) : { end: new Uint32Array(b - a), data: new Uint8Array(0) };
            const e = {
              tf,
              posEnd: p.end,
              posData: p.data,
              lengths: lengths.subarray((id - first) * FIELDS.length, (id - first + 1) * FIELDS.length),
              sections: secLength.subarray(secDoc[id - first]! - secDoc[0]!, secDoc[id - first + 1]! - secDoc[0]!),
              secEnd: s.end,
              secData: s.data,
            };
            yield [id, this.parseStored(id).doc, { ...e, terms: term.subarray(a, b) }];
          }
        }
      } finally {
        pos.close();
        sec?.close();
      }
    } finally {
      fwd.close();
    }
  }

  /** The term dictionary, sorted, as strings made anew each call (merge's walk of a whole segment index). */
  terms(): readonly string[] {
    return this.dict.all();
  }

  term(termId: number): string {
    return this.dict.term(termId);
  }

  close(): void {
    this.storedCache.clear();
    this.storedFields.clear();
    this.cache.clear();
    this.termsFile.close();
    this.fwd.close();
    this.stored.close();
    this.post.close();
    this.infoFile.close();
  }
}

export type LoadedIndex = SegmentedIndexReader;

/**
 * Opens an index directory, or an index root (`<crawl>/index`, or the crawl
 * directory itself) through its CURRENT pointer. Every file's header and
 * length is checked; with `verify` (the default) every file's checksum too,
 * which reads all of it: a searcher, which must be ready in a moment
 * whatever the index's size, opens without, as Lucene verifies large files'
 * checksums only when it merges them (merge here verifies each file it reads).
 * `cacheMb` bounds what the reader keeps read or decoded (shared/index/cache-budget).
 */
export async function openIndex(dir: string, opts: { verify?: boolean; cacheMb?: number } = {}): Promise<LoadedIndex> {
  const { indexDir, meta } = readIndexMeta(dir);
  const deleted = readDeleted(indexDir);
  return new SegmentedIndexReader(indexDir, { ...meta, deletedCount: deleted.size }, deleted, opts.verify ?? true, cacheBudget(opts.cacheMb));
}
