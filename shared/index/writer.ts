/**
 * @module shared/index/writer
 * Builds an index (per segment or merged) and writes its files to a
 * directory: a sorted term dictionary with document frequencies per field,
 * a forward index (per document: sorted term ids and term frequencies per
 * field, field lengths), term positions in the title+content stream, the
 * sections each term occurs in (pages of two sections or more), the
 * postings (the forward index inverted, shared/index/postings) and the
 * docinfo (link scores, tags, URL hashes). Memory is bounded
 * by design: each added document goes to spill files at once (its stored
 * fields, its terms as ids), and `write`
 * streams them into the index files; what stays in memory is the term
 * dictionary (the vocabulary, not the documents), per-term counts, and a
 * few numbers a document (offsets, field lengths, tags). Used by the crawler
 * only; publishing the directory atomically is publish.ts's job.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Analyzer } from '../analysis/analyzer.js';
import { HzError } from '../errors.js';
import { DocInfoBuilder } from './docinfo.js';
import { analyzeDoc, type AnalyzedDoc } from './document.js';
import { EntryBuilder, type DocEntries, type TermStreams } from './entries.js';
import { INDEX_FILES, INDEX_FORMAT_VERSION, packColumns, writeIndexFile } from './format.js';
import { EntrySpillReader, spillEntries } from './entry-spill.js';
import { countEntryTfs, ForwardWriter } from './forward-writer.js';
import { positionSizes } from './position-bits.js';
import { removeStaleTmp } from './publish.js';
import { BlockBound } from './run-starts.js';
import { runsFromPositions } from './section-runs.js';
import { PostingsBuilder } from './postings.js';
import { mergePostings, type PostingsInput } from './postings-merge.js';
import { SpillSink, SpillSource } from './spill.js';
import { StoredFieldsWriter } from './stored-fields.js';
import type { TfCounts } from './tf-codes.js';
import { FIELDS, type Field, type IndexInputDoc, type IndexMeta, type StoredDoc } from './types.js';

/** Nutch's indexer.max.tokens default. */
export const DEFAULT_MAX_TOKENS = 10_000;
const SPILL_PREFIX = 'hz-spill-';
/** A blank past the cap (AnalyzedDoc.rest) among term ids: no term. */
export const NO_TERM = 0xffffffff;
const CONTENT = FIELDS.indexOf('content');

export interface IndexWriterOptions {
  analyzer: Analyzer;
  /** Segment names the documents come from (IndexMeta.segments). */
  segments: string[];
  /** Content terms kept per document. @default 10000 */
  maxTokens?: number;
  /** Where spill files go (a fresh directory is made inside, removed when the build ends). @default the OS temp directory */
  spillDir?: string;
  /** Postings sorted in memory a batch, smaller only to test several runs on a small index. */
  postingsBatch?: number;
  /** Whether the index holds postings: false for an index kept without them (IndexMeta.postings), whose postings file is then empty. @default true */
  postings?: boolean;
  /**
   * The indexes whose postings are the merged index's (merge): the documents
   * added are exactly their kept documents in order, and the postings file
   * is merged from theirs (shared/index/postings-merge) instead of inverted.
   */
  postingsFrom?: readonly PostingsInput[];
}

export class IndexWriter {
  private readonly dict = new Map<string, number>();
  private readonly words: string[] = [];
  private readonly lengthSums = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;
  private readonly spill: string;
  private readonly terms: SpillSink;
  private readonly stored: StoredFieldsWriter;
  private readonly info = new DocInfoBuilder();
  private readonly builder = new EntryBuilder();
  private docs = 0;
  /** Entries (distinct terms of a document) and bytes of positions over every document added. */
  private entries = 0;
  private posBits = 0;
  private posBytes = 0;
  /** Sections, their terms and the bytes of the entries' section runs over every document added. */
  private sectionCount = 0;
  private sectionTerms = 0;
  private secBytes = 0;
  private secRuns = 0;
  /** Frequencies too large for their place in the forward index (tf-codes), entries occurring in a field other than the content, whose frequency code is kept, and entries whose content frequency byte is not 1, which is kept (tf-sparse). */
  private readonly tfs: TfCounts = { overflow: 0, coded: 0, bytesKept: 0 };
  /** A bound on the bytes a block of section runs spans (run-starts). */
  private readonly secBound = new BlockBound();

  constructor(private readonly opts: IndexWriterOptions) {
    const parent = opts.spillDir ?? os.tmpdir();
    // Named with the pid, so the spill files of a killed build are removed by the next one.
    removeStaleTmp(parent, SPILL_PREFIX);
    this.spill = path.join(parent, `${SPILL_PREFIX}${crypto.randomBytes(4).toString('hex')}-${process.pid}`);
    fs.mkdirSync(this.spill, { recursive: true });
    this.terms = new SpillSink(path.join(this.spill, 'terms'));
    this.stored = new StoredFieldsWriter(new SpillSink(path.join(this.spill, 'stored')));
  }

  private get withPostings(): boolean {
    return this.opts.postings ?? true;
  }

  get docCount(): number {
    return this.docs;
  }

  /** Analyzes and adds a document; returns its id. */
  add(doc: IndexInputDoc): number {
    return this.addAnalyzed(analyzeDoc(this.opts.analyzer, doc, this.opts.maxTokens ?? DEFAULT_MAX_TOKENS));
  }

  addAnalyzed(d: AnalyzedDoc): number {
    const ids = (terms: readonly string[], from = 0, to = terms.length) => {
      const out = new Uint32Array(to - from);
      for (let i = from; i < to; i++) out[i - from] = this.termId(terms[i]!);
      return out;
    };
    return this.addTerms(d.stored, {
      title: ids(d.stream, 0, d.titleLength),
      anchor: ids(d.anchor),
      content: ids(d.stream, d.titleLength),
      url: ids(d.url),
      heading: ids(d.heading),
      ...(d.sections ? { rest: Uint32Array.from(d.rest ?? [], (t) => (t === '' ? NO_TERM : this.termId(t))), sections: d.sections } : {}),
    });
  }

  /** A document whose terms are ids given by `termId` (the indexer maps an analysis thread's dictionary once per word). */
  addTerms(s: StoredDoc, terms: TermStreams): number {
    return this.addEntries(s, this.builder.build(terms));
  }

  /** A document in the stored form, its terms ids given by `termId` (merge reads it so from a segment index). */
  addEntries(s: StoredDoc, e: DocEntries): number {
    const id = this.docs++;
    const n = e.terms.length;
    // An index written before runs were taken from positions (section-runs) carries them for every page.
    if (e.secData.length && runsFromPositions(e.sections, e.lengths[CONTENT]!)) e = { ...e, secEnd: new Uint32Array(n), secData: new Uint8Array(0) };
    this.info.add(s);
    FIELDS.forEach((f, k) => (this.lengthSums[f] += e.lengths[k]!));
    spillEntries(this.terms, e);
    countEntryTfs(e, this.tfs);
    this.entries += n;
    const pos = positionSizes(e);
    this.posBits += pos.bits;
    this.posBytes += pos.bytes;
    // A document without section runs has no starts in the sections file (forward-writer).
    const runs = e.secData.length ? n : 0;
    this.secRuns += runs;
    this.secBound.add(runs, e.secData.length);
    this.sectionCount += e.sections.length;
    for (let i = 0; i < e.sections.length; i++) this.sectionTerms += e.sections[i]!;
    this.secBytes += e.secData.length;
    this.stored.add(s);
    return id;
  }

  /** The id of a term in this index's dictionary, added if new. */
  termId(t: string): number {
    let id = this.dict.get(t);
    if (id === undefined) {
      id = this.words.length;
      this.dict.set(t, id);
      this.words.push(t);
    }
    return id;
  }

  /** Writes every index file into `dir` (created if missing) and removes the spill files; returns the meta written. */
  async write(dir: string): Promise<IndexMeta> {
    try {
      return this.writeFiles(dir);
    } finally {
      this.discard();
    }
  }

  /** Removes the spill files (a build that will not be written). */
  discard(): void {
    fs.rmSync(this.spill, { recursive: true, force: true });
  }

  private writeFiles(dir: string): IndexMeta {
    fs.mkdirSync(dir, { recursive: true });
    this.terms.close();
    const { byWord, rank } = this.sortDictionary();
    return this.writeRest(dir, byWord, this.writeDocuments(dir, rank, byWord));
  }

  /** The term ids in dictionary order, and each one's place in it. */
  private sortDictionary(): { byWord: number[]; rank: Uint32Array } {
    const T = this.words.length;
    const byWord = Array.from({ length: T }, (_, i) => i).sort((a, b) => (this.words[a]! < this.words[b]! ? -1 : 1));
    const rank = new Uint32Array(T);
    byWord.forEach((tmp, r) => (rank[tmp] = r));
    return { byWord, rank };
  }

  /**
   * Reads the spilled documents back once, writing the forward index,
   * positions, sections and postings; returns each term's document
   * frequency per field (by rank).
   */
  private writeDocuments(dir: string, rank: Uint32Array, byWord: number[]): Uint32Array[] {
    const T = rank.length;
    const counts = new Uint32Array(T * COUNTS);
    const from = this.opts.postingsFrom;
    const invert = this.withPostings && !from;
    const shape = { docs: this.docs, entries: this.entries, ...this.tfs, posBits: this.posBits, posBytes: this.posBytes, sectionCount: this.sectionCount, secBytes: this.secBytes, secRuns: this.secRuns, secOffsets: this.secBound.fits };
    const fw = new ForwardWriter(dir, shape, T);
    try {
      const postings = new PostingsBuilder(this.spill, this.opts.postingsBatch);
      const src = new SpillSource(this.terms.file);
      const spilled = new EntrySpillReader(src);
      try {
        for (let id = 0; id < this.docs; id++) {
          const { sorted, tf } = fw.add(spilled, rank);
          countTerms(sorted, tf, counts);
          if (invert) postings.add(id, sorted, tf);
        }
      } finally {
        src.close();
      }
      if (from) {
        const postingCounts = countColumn(counts, 0);
        const words = byWord.map((i) => this.words[i]!);
        const merged = mergePostings(dir, this.spill, from, { words, lengths: fw.lengths, boosts: this.info.boosts });
        const t = merged.findIndex((n, r) => n !== postingCounts[r]);
        if (t >= 0) throw new HzError('HZ_ERR_INDEX_FORMAT', `the postings of '${words[t]}' in the indexes merged (${from.map((i) => i.dir).join(', ')}) number ${merged[t]}, their documents' entries ${postingCounts[t]}: index those segments again`);
      } else postings.write(dir, this.withPostings ? countColumn(counts, 0) : new Uint32Array(T), fw.lengths, this.info.boosts);
    } catch (e) {
      fw.abandon();
      throw e;
    }
    fw.close();
    return FIELDS.map((_, f) => countColumn(counts, 1 + f));
  }

  /** The meta, stored fields, term dictionary and docinfo files. */
  private writeRest(dir: string, byWord: number[], dfs: Uint32Array[]): IndexMeta {
    const T = byWord.length;
    const n = Math.max(this.docs, 1);
    const meta: IndexMeta = {
      version: INDEX_FORMAT_VERSION,
      createdAt: Date.now(),
      docCount: this.docs,
      deletedCount: 0,
      segments: [...new Set(this.opts.segments)].sort(),
      termCount: T,
      avgFieldLength: Object.fromEntries(FIELDS.map((f) => [f, this.lengthSums[f] / n])) as Record<Field, number>,
      avgSectionLength: this.sectionCount ? this.sectionTerms / this.sectionCount : 0,
      sectionCount: this.sectionCount,
      analyzer: { ...this.opts.analyzer.options },
      postings: this.withPostings,
    };
    this.stored.write(dir);
    writeIndexFile(
      dir,
      INDEX_FILES.terms,
      packColumns({
        words: Buffer.from(byWord.map((i) => this.words[i]).join('\n')),
        ...Object.fromEntries(FIELDS.map((f, k) => [`df.${f}`, dfs[k]!])),
      }),
    );
    this.info.write(dir);
    writeIndexFile(dir, INDEX_FILES.meta, Buffer.from(JSON.stringify(meta)));
    return meta;
  }
}

/**
 * Counts kept per term by rank, side by side (`[rank * COUNTS + c]`): its postings, then its
 * document frequency in each field. A document's entries are spread over the whole dictionary,
 * and beside one another a term's counts are one cache line to update, not one an array.
 */
const COUNTS = 1 + FIELDS.length;

/** Adds a document's entries (ranks ascending, frequencies in that order) to each term's counts. */
function countTerms(sorted: Uint32Array, tf: (field: number) => Uint16Array, counts: Uint32Array): void {
  const n = sorted.length;
  for (let j = 0; j < n; j++) counts[sorted[j]! * COUNTS]!++;
  for (let f = 0; f < FIELDS.length; f++) {
    const fieldTf = tf(f);
    for (let j = 0; j < n; j++) if (fieldTf[j]! > 0) counts[sorted[j]! * COUNTS + 1 + f]!++;
  }
}

/** Count `c` of every term, by rank. */
function countColumn(counts: Uint32Array, c: number): Uint32Array {
  const out = new Uint32Array(counts.length / COUNTS);
  for (let r = 0; r < out.length; r++) out[r] = counts[r * COUNTS + c]!;
  return out;
}
