/**
 * @module shared/index/reader
 * Opens an index directory (or an index root with a CURRENT pointer) and
 * answers the IndexReader contract from typed arrays viewed in place: term
 * statistics by binary search in a document's sorted term ids, positions by
 * decoding one delta-varint run, stored fields parsed on first use, the
 * flexsearch candidate index imported on the first query (or `warm()`).
 * Every file's version and checksum is verified when it is read. Used by the searcher and
 * by merge, dedup, prune and readindex.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Analyzer } from '../analysis/analyzer.js';
import { HzError, isHzError } from '../errors.js';
import { CandidateIndex } from './candidates.js';
import type { AnalyzedDoc } from './document.js';
import { candidateOrder, type DocEntries } from './entries.js';
import { column, DELETED_FILE, INDEX_FILES, IndexFileColumns, readIndexFile, unpackColumns } from './format.js';
import { currentIndex } from './publish.js';
import { FIELDS, type CandidateOptions, type Field, type IndexMeta, type IndexReader, type Postings, type StoredDoc } from './types.js';

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

const inconsistent = (dir: string) => new HzError('HZ_ERR_INDEX_FORMAT', `index ${dir} is inconsistent: its files disagree on the number of documents or terms`);

/** Documents read at a time by `docEntries`. */
const WINDOW_DOCS = 512;

/** The forward index and positions of every document, as read from disk. */
interface Forward {
  start: Uint32Array;
  term: Uint32Array;
  tf: Uint16Array[];
  lengths: Uint32Array;
  posStart: Uint32Array;
  posData: Uint8Array;
  /** Document d's section lengths are `secLength[secDoc[d]..secDoc[d + 1])`; entry e's section runs `secData[secStart[e]..secStart[e + 1])`. */
  secDoc: Uint32Array;
  secLength: Uint32Array;
  secStart: Uint32Array;
  secData: Uint8Array;
}

/** The first `max` positions of an entry; a scan that needs only the start stops decoding there. */
function decodePositions(f: Forward, e: number, max = Infinity): number[] {
  const out: number[] = [];
  const end = f.posStart[e + 1]!;
  let p = f.posStart[e]!;
  let prev = 0;
  const data = f.posData;
  while (p < end && out.length < max) {
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

/** An entry's section runs as `[section, tf, …]` (varint pairs: the gap from the previous section, the count) into `out`, from its start. */
function decodeSections(f: Forward, e: number, out: number[]): number[] {
  const data = f.secData;
  let section = 0;
  let k = 0;
  for (let p = f.secStart[e]!, end = f.secStart[e + 1]!; p < end; k++) {
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

/** A window's entries e0..e1 of a file of byte runs an entry (positions, sections): where each starts, and their bytes. */
function readRuns(cols: IndexFileColumns, e0: number, e1: number): { start: Uint32Array; data: Uint8Array } {
  const start = cols.read('start', Uint32Array, e0, e1 + 1);
  return { start, data: cols.read('data', Uint8Array, start[0]!, start[e1 - e0]!) };
}

/** Entries a..b of a window's runs as a document's entries carry them: each one's end from the first one's start, and their bytes. */
function entryRuns(runs: { start: Uint32Array; data: Uint8Array }, a: number, b: number): { end: Uint32Array; data: Uint8Array } {
  const { start, data } = runs;
  const s0 = start[a]!;
  const end = new Uint32Array(b - a);
  for (let k = 0; k < b - a; k++) end[k] = start[a + k + 1]! - s0;
  return { end, data: data.subarray(s0 - start[0]!, start[b]! - start[0]!) };
}

/** Every term's postings in three arrays: term t's run is `[start[t], start[t + 1])` of `docs` and `entries`. */
interface Inverted {
  start: Uint32Array;
  docs: Uint32Array;
  entries: Uint32Array;
}

/** The forward index inverted by a counting sort over its term ids: documents come out ascending within each term. */
function invert(f: Forward, docCount: number, termCount: number): Inverted {
  const n = f.term.length;
  const start = new Uint32Array(termCount + 1);
  for (let e = 0; e < n; e++) start[f.term[e]! + 1]!++;
  for (let t = 0; t < termCount; t++) start[t + 1]! += start[t]!;
  const at = start.slice(0, termCount);
  const docs = new Uint32Array(n);
  const entries = new Uint32Array(n);
  for (let d = 0; d < docCount; d++)
    for (let e = f.start[d]!; e < f.start[d + 1]!; e++) {
      const p = at[f.term[e]!]!++;
      docs[p] = d;
      entries[p] = e;
    }
  return { start, docs, entries };
}

/** A document's terms as ids of its index's dictionary: title then content in stream order, the other fields in dictionary order. */
interface DocTerms {
  title: Uint32Array;
  content: Uint32Array;
  anchor: Uint32Array;
  url: Uint32Array;
  heading: Uint32Array;
}

/** Document `id`'s terms rebuilt from the forward index as the writer took them (for `analyzed`). */
function termsIn(f: Forward, id: number): DocTerms {
  const L = (field: Field) => f.lengths[id * FIELDS.length + FIELD_INDEX[field]] ?? 0;
  const titleLength = L('title');
  const stream = new Uint32Array(titleLength + L('content'));
  const lists = { anchor: new Uint32Array(L('anchor')), url: new Uint32Array(L('url')), heading: new Uint32Array(L('heading')) };
  const at = { anchor: 0, url: 0, heading: 0 };
  const first = f.start[id]!;
  const end = f.start[id + 1]!;
  for (let e = first; e < end; e++) {
    const t = f.term[e]!;
    for (const p of decodePositions(f, e)) stream[p] = t;
    for (const field of ['anchor', 'url', 'heading'] as const) for (let k = f.tf[FIELD_INDEX[field]]![e]!; k > 0; k--) lists[field][at[field]++] = t;
  }
  return { title: stream.subarray(0, titleLength), content: stream.subarray(titleLength), ...lists };
}

class SegmentedIndexReader implements IndexReader {
  readonly analyzer: Analyzer;
  private readonly words: string[];
  private readonly termIds = new Map<string, number>();
  private readonly df: Uint32Array[];
  private fwd: Forward | undefined;
  private inv: Inverted | undefined;
  private readonly docOffsets: Uint32Array;
  private readonly docJson: Uint8Array;
  private readonly storedCache: (StoredDoc | undefined)[];
  private urlIds: Map<string, number> | undefined;
  private cands: CandidateIndex | undefined;

  constructor(
    readonly dir: string,
    readonly meta: IndexMeta,
    private readonly deleted: Set<number>,
  ) {
    this.analyzer = Analyzer.ofIndex(meta.analyzer);
    const terms = load(dir, INDEX_FILES.terms);
    const words = column(terms.cols, 'words', Uint8Array, terms.file);
    this.words = words.length ? Buffer.from(words.buffer, words.byteOffset, words.length).toString('utf8').split('\n') : [];
    this.words.forEach((w, i) => this.termIds.set(w, i));
    this.df = FIELDS.map((f) => column(terms.cols, `df.${f}`, Uint32Array, terms.file));
    const docs = load(dir, INDEX_FILES.docs);
    this.docOffsets = column(docs.cols, 'offsets', Uint32Array, docs.file);
    this.docJson = column(docs.cols, 'json', Uint8Array, docs.file);
    this.storedCache = new Array(meta.docCount);
    if (this.docOffsets.length !== meta.docCount + 1 || this.words.length !== meta.termCount) throw inconsistent(dir);
    // A corrupt or torn file is refused on open, though these two are read only when needed.
    for (const name of [INDEX_FILES.forward, INDEX_FILES.positions, INDEX_FILES.sections]) new IndexFileColumns(dir, name).close();
  }

  /**
   * The forward index and positions, read on first use: dedup and merge,
   * which open every segment index, need only the stored fields of most.
   */
  private get forward(): Forward {
    if (!this.fwd) {
      const fwd = load(this.dir, INDEX_FILES.forward);
      const pos = load(this.dir, INDEX_FILES.positions);
      const sec = load(this.dir, INDEX_FILES.sections);
      this.fwd = {
        start: column(fwd.cols, 'start', Uint32Array, fwd.file),
        term: column(fwd.cols, 'term', Uint32Array, fwd.file),
        tf: FIELDS.map((f) => column(fwd.cols, `tf.${f}`, Uint16Array, fwd.file)),
        lengths: column(fwd.cols, 'lengths', Uint32Array, fwd.file),
        posStart: column(pos.cols, 'start', Uint32Array, pos.file),
        posData: column(pos.cols, 'data', Uint8Array, pos.file),
        secDoc: column(sec.cols, 'doc', Uint32Array, sec.file),
        secLength: column(sec.cols, 'length', Uint32Array, sec.file),
        secStart: column(sec.cols, 'start', Uint32Array, sec.file),
        secData: column(sec.cols, 'data', Uint8Array, sec.file),
      };
      if (this.fwd.start.length !== this.meta.docCount + 1 || this.fwd.secDoc.length !== this.meta.docCount + 1) throw inconsistent(this.dir);
    }
    return this.fwd;
  }

  /** The flexsearch index, imported on the first query (tools that only read statistics never pay for it). */
  private candidateIndex(): CandidateIndex {
    return (this.cands ??= CandidateIndex.import(this.analyzer, readIndexFile(this.dir, INDEX_FILES.candidates)));
  }

  /** Loads everything a query needs now rather than on the first query. */
  warm(): this {
    this.candidateIndex();
    this.postings(0);
    return this;
  }

  doc(id: number): StoredDoc {
    return (this.storedCache[id] ??= this.parseStored(id));
  }

  private parseStored(id: number): StoredDoc {
    if (!(id >= 0 && id < this.meta.docCount)) throw new RangeError(`no document ${id} in ${this.dir}`);
    const bytes = this.docJson.subarray(this.docOffsets[id], this.docOffsets[id + 1]);
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')) as StoredDoc;
  }

  idOf(url: string): number | undefined {
    if (!this.urlIds) {
      this.urlIds = new Map();
      for (let i = 0; i < this.meta.docCount; i++) this.urlIds.set(this.doc(i).url, i);
    }
    return this.urlIds.get(url);
  }

  isDeleted(id: number): boolean {
    return this.deleted.has(id);
  }

  candidates(terms: string[], opts: CandidateOptions): number[] {
    const extra = this.deleted.size;
    const ids = this.candidateIndex().search(terms, opts.limit + extra, opts.tags);
    const live = extra ? ids.filter((id) => !this.deleted.has(id)) : ids;
    return live.length > opts.limit ? live.slice(0, opts.limit) : live;
  }

  docFreq(field: Field, term: string): number {
    const t = this.termIds.get(term);
    return t === undefined ? 0 : this.df[FIELD_INDEX[field]]![t]!;
  }

  termId(term: string): number {
    return this.termIds.get(term) ?? -1;
  }

  entry(id: number, termId: number): number {
    if (termId < 0 || !(id >= 0 && id < this.meta.docCount)) return -1;
    const { start, term } = this.forward;
    let lo = start[id]!;
    let hi = start[id + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = term[mid]!;
      if (v === termId) return mid;
      if (v < termId) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  entryTf(entry: number, field: number): number {
    return this.forward.tf[field]![entry]!;
  }

  entryPositions(entry: number, max = Infinity): readonly number[] {
    return decodePositions(this.forward, entry, max);
  }

  sectionLengths(id: number): Uint32Array {
    const f = this.forward;
    return f.secLength.subarray(f.secDoc[id], f.secDoc[id + 1]);
  }

  entrySections(entry: number, out: number[] = []): number[] {
    return decodeSections(this.forward, entry, out);
  }

  /** Built from the forward index on first use (memory: 8 bytes an entry), so tools that never search do not pay for it. */
  postings(termId: number): Postings {
    const inv = (this.inv ??= invert(this.forward, this.meta.docCount, this.meta.termCount));
    if (!(termId >= 0 && termId < this.meta.termCount)) return { docs: inv.docs.subarray(0, 0), entries: inv.entries.subarray(0, 0) };
    const a = inv.start[termId]!;
    const b = inv.start[termId + 1]!;
    return { docs: inv.docs.subarray(a, b), entries: inv.entries.subarray(a, b) };
  }

  termFreq(id: number, field: Field, term: string): number {
    const e = this.entry(id, this.termId(term));
    return e < 0 ? 0 : this.forward.tf[FIELD_INDEX[field]]![e]!;
  }

  fieldLength(id: number, field: Field): number {
    return this.forward.lengths[id * FIELDS.length + FIELD_INDEX[field]] ?? 0;
  }

  positions(id: number, term: string): readonly number[] {
    const e = this.entry(id, this.termId(term));
    return e < 0 ? [] : decodePositions(this.forward, e);
  }

  /** The document as the writer took it. */
  analyzed(id: number): AnalyzedDoc {
    const t = termsIn(this.forward, id);
    const w = (ids: Uint32Array) => Array.from(ids, (i) => this.words[i]!);
    return { stored: this.doc(id), stream: w(t.title).concat(w(t.content)), titleLength: t.title.length, anchor: w(t.anchor), url: w(t.url), heading: w(t.heading) };
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
        const scratch = { at: new Int32Array(0) };
        for (let first = 0; first < n; first += WINDOW_DOCS) {
          const last = Math.min(n, first + WINDOW_DOCS);
          const start = fwd.read('start', Uint32Array, first, last + 1);
          const e0 = start[0]!;
          const e1 = start[last - first]!;
          const term = fwd.read('term', Uint32Array, e0, e1);
          const tfs = FIELDS.map((f) => fwd.read(`tf.${f}`, Uint16Array, e0, e1));
          const lengths = fwd.read('lengths', Uint32Array, first * FIELDS.length, last * FIELDS.length);
          const positions = readRuns(pos, e0, e1);
          const secDoc = sec.read('doc', Uint32Array, first, last + 1);
          const secLength = sec.read('length', Uint32Array, secDoc[0]!, secDoc[last - first]!);
          const sectionRuns = readRuns(sec, e0, e1);
          for (let id = first; id < last; id++) {
            if (!keep(id)) continue;
            const a = start[id - first]! - e0;
            const b = start[id - first + 1]! - e0;
            const m = b - a;
            const tf = new Uint16Array(m * FIELDS.length);
            tfs.forEach((col, f) => tf.set(col.subarray(a, b), f * m));
            const p = entryRuns(positions, a, b);
            const s = entryRuns(sectionRuns, a, b);
            const e = {
              tf,
              posEnd: p.end,
              posData: p.data,
              lengths: lengths.subarray((id - first) * FIELDS.length, (id - first + 1) * FIELDS.length),
              sections: secLength.subarray(secDoc[id - first]! - secDoc[0]!, secDoc[id - first + 1]! - secDoc[0]!),
              secEnd: s.end,
              secData: s.data,
            };
            yield [id, this.parseStored(id), { ...e, terms: term.subarray(a, b), order: candidateOrder(e, scratch) }];
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

  /** The term dictionary, sorted. */
  terms(): readonly string[] {
    return this.words;
  }

  close(): void {
    this.storedCache.length = 0;
    this.urlIds = undefined;
    this.fwd = undefined;
    this.inv = undefined;
  }
}

export type LoadedIndex = SegmentedIndexReader;

/** The meta of an index directory, or of an index root's CURRENT generation, without loading the index. */
export function readIndexMeta(dir: string): { indexDir: string; meta: IndexMeta } {
  const cur = currentIndex(dir);
  const indexDir = cur ? cur.dir : dir;
  // A merge killed before its first publish leaves only a build directory.
  if (!cur && !fs.existsSync(path.join(indexDir, INDEX_FILES.meta))) {
    throw new HzError('HZ_ERR_NOT_FOUND', `${dir} holds no index yet (no CURRENT generation and no ${INDEX_FILES.meta} file); run 'hazelnut index' and 'hazelnut merge'`);
  }
  try {
    return { indexDir, meta: JSON.parse(readIndexFile(indexDir, INDEX_FILES.meta).toString('utf8')) as IndexMeta };
  } catch (e) {
    if (isHzError(e)) throw e;
    throw new HzError('HZ_ERR_INDEX_FORMAT', `index meta ${path.join(indexDir, INDEX_FILES.meta)} is not valid JSON`);
  }
}

/**
 * Opens an index directory, or an index root (`<crawl>/index`, or the crawl
 * directory itself) through its CURRENT pointer.
 */
export async function openIndex(dir: string): Promise<LoadedIndex> {
  const { indexDir, meta } = readIndexMeta(dir);
  const deleted = readDeleted(indexDir);
  return new SegmentedIndexReader(indexDir, { ...meta, deletedCount: deleted.size }, deleted);
}
