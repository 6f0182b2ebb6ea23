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
import { DocInfoBuilder } from './docinfo.js';
import { analyzeDoc, type AnalyzedDoc } from './document.js';
import { EntryBuilder, type DocEntries, type TermStreams } from './entries.js';
import { columnSource, INDEX_FILES, INDEX_FORMAT_VERSION, packColumns, PackedColumnsWriter, writeIndexFile, writeIndexFileWith, writePackedColumns } from './format.js';
import { removeStaleTmp } from './publish.js';
import { PostingsBuilder } from './postings.js';
import { SpillSink, SpillSource } from './spill.js';
import { FIELDS, type Field, type IndexInputDoc, type IndexMeta, type StoredDoc } from './types.js';

/** Nutch's indexer.max.tokens default. */
export const DEFAULT_MAX_TOKENS = 10_000;
const SPILL_PREFIX = 'hz-spill-';
/** A blank past the cap (AnalyzedDoc.rest) among term ids: no term. */
export const NO_TERM = 0xffffffff;

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
}

export class IndexWriter {
  private readonly dict = new Map<string, number>();
  private readonly words: string[] = [];
  private readonly lengthSums = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;
  private readonly spill: string;
  private readonly terms: SpillSink;
  private readonly stored: SpillSink;
  private readonly storedOffsets = new Grow();
  private readonly info = new DocInfoBuilder();
  private readonly builder = new EntryBuilder();
  private docs = 0;
  /** Entries (distinct terms of a document) and bytes of positions over every document added. */
  private entries = 0;
  private posBytes = 0;
  /** Sections, their terms and the bytes of the entries' section runs over every document added. */
  private sectionCount = 0;
  private sectionTerms = 0;
  private secBytes = 0;

  constructor(private readonly opts: IndexWriterOptions) {
    const parent = opts.spillDir ?? os.tmpdir();
    // Named with the pid, so the spill files of a killed build are removed by the next one.
    removeStaleTmp(parent, SPILL_PREFIX);
    this.spill = path.join(parent, `${SPILL_PREFIX}${crypto.randomBytes(4).toString('hex')}-${process.pid}`);
    fs.mkdirSync(this.spill, { recursive: true });
    this.terms = new SpillSink(path.join(this.spill, 'terms'));
    this.stored = new SpillSink(path.join(this.spill, 'stored'));
    this.storedOffsets.push(0);
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
    this.info.add(s);
    FIELDS.forEach((f, k) => (this.lengthSums[f] += e.lengths[k]!));
    const t = this.terms;
    t.u32(n);
    t.u32s(e.lengths);
    t.u32s(e.terms);
    t.u16s(e.tf);
    t.u32s(e.posEnd);
    t.u32(e.sections.length);
    t.u32s(e.sections);
    t.u32s(e.secEnd);
    t.raw(e.secData);
    t.raw(e.posData);
    this.entries += n;
    this.posBytes += e.posData.length;
    this.sectionCount += e.sections.length;
    for (let i = 0; i < e.sections.length; i++) this.sectionTerms += e.sections[i]!;
    this.secBytes += e.secData.length;
    this.stored.raw(Buffer.from(JSON.stringify(s)));
    this.storedOffsets.push(this.stored.bytes);
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
    this.stored.close();
    const T = this.words.length;
    const byWord = Array.from({ length: T }, (_, i) => i).sort((a, b) => (this.words[a]! < this.words[b]! ? -1 : 1));
    const rank = new Uint32Array(T);
    byWord.forEach((tmp, r) => (rank[tmp] = r));

    const dfs = FIELDS.map(() => new Uint32Array(T));
    /** Postings of each term (by rank): the documents holding it in any field. */
    const postingCounts = new Uint32Array(T);
    const entries = this.entries;
    // Every column's length is known from the documents added: the forward index and positions are written
    // in place as the spilled documents are read, the columns side by side.
    const forward = new PackedColumnsWriter(dir, INDEX_FILES.forward, [
      { name: 'start', type: 'u32', length: this.docs + 1 },
      { name: 'term', type: 'u32', length: entries },
      ...FIELDS.map((f) => ({ name: `tf.${f}`, type: 'u16' as const, length: entries })),
      { name: 'lengths', type: 'u32', length: this.docs * FIELDS.length },
    ]);
    const [START, TERM, TF, LENGTHS] = [0, 1, 2, 2 + FIELDS.length];
    let positions: PackedColumnsWriter | undefined;
    let sections: PackedColumnsWriter | undefined;
    try {
      positions = new PackedColumnsWriter(dir, INDEX_FILES.positions, [
        { name: 'start', type: 'u32', length: entries + 1 },
        { name: 'data', type: 'u8', length: this.posBytes },
      ]);
      const [POS_START, POS_DATA] = [0, 1];
      sections = new PackedColumnsWriter(dir, INDEX_FILES.sections, [
        { name: 'doc', type: 'u32', length: this.docs + 1 },
        { name: 'length', type: 'u32', length: this.sectionCount },
        { name: 'start', type: 'u32', length: entries + 1 },
        { name: 'data', type: 'u8', length: this.secBytes },
      ]);
      const [SEC_DOC, SEC_LENGTH, SEC_START, SEC_DATA] = [0, 1, 2, 3];
      const secDoc = new Uint32Array(this.docs + 1);
      let docSecStart = new Uint32Array(1024);
      let secIn = new Uint8Array(1024);
      let secOut = new Uint8Array(1024);
      let secAt = 0;
      let secCount = 0;
      const bytesOf = (a: Uint16Array | Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      const start = new Uint32Array(this.docs + 1);
      const lengths = new Uint32Array(this.docs * FIELDS.length);
      // The entry of each rank in the document at hand, and of each sorted entry.
      const slot = new Uint32Array(T);
      let ranks = new Uint32Array(1024);
      let entryOf = new Uint32Array(1024);
      let docTf = FIELDS.map(() => new Uint16Array(1024));
      const postings = new PostingsBuilder(this.spill, this.opts.postingsBatch);
      let docPosStart = new Uint32Array(1024);
      let bytes = new Uint8Array(4096);
      let at = 0;
      let posAt = 0;

      const src = new SpillSource(this.terms.file);
      try {
        for (let id = 0; id < this.docs; id++) {
          const n = src.u32();
          lengths.set(src.u32s(FIELDS.length), id * FIELDS.length);
          const terms = src.u32s(n);
          const tf = src.u16s(n * FIELDS.length);
          const posEnd = src.u32s(n);
          const docSections = src.u32s(src.u32());
          const secEnd = src.u32s(n);
          // Spilled bytes are a view until the next read: the section runs are copied before the positions are read.
          const secBytes = n ? secEnd[n - 1]! : 0;
          if (secIn.length < secBytes) secIn = new Uint8Array(2 * secBytes);
          secIn.set(src.bytes(secBytes));
          const secData = secIn;
          const data = src.bytes(n ? posEnd[n - 1]! : 0);
          secDoc[id] = secCount;
          secCount += docSections.length;
          sections.append(SEC_LENGTH, bytesOf(docSections));
          if (secOut.length < secBytes) secOut = new Uint8Array(2 * secBytes);
          start[id] = at;
          if (ranks.length < n) {
            ranks = new Uint32Array(2 * n);
            entryOf = new Uint32Array(2 * n);
            docTf = FIELDS.map(() => new Uint16Array(2 * n));
            docPosStart = new Uint32Array(2 * n);
            docSecStart = new Uint32Array(2 * n);
          }
          if (bytes.length < data.length) bytes = new Uint8Array(2 * data.length);
          for (let k = 0; k < n; k++) {
            const r = rank[terms[k]!]!;
            ranks[k] = r;
            slot[r] = k;
          }
          // Entries in dictionary order: a native numeric sort of the ranks.
          const sorted = ranks.subarray(0, n).sort();
          let b = 0;
          let sb = 0;
          for (let j = 0; j < n; j++) {
            const k = (entryOf[j] = slot[sorted[j]!]!);
            docPosStart[j] = posAt + b;
            for (let p = k ? posEnd[k - 1]! : 0, end = posEnd[k]!; p < end; p++) bytes[b++] = data[p]!;
            docSecStart[j] = secAt + sb;
            for (let p = k ? secEnd[k - 1]! : 0, end = secEnd[k]!; p < end; p++) secOut[sb++] = secData[p]!;
          }
          positions.append(POS_DATA, bytes.subarray(0, b));
          posAt += b;
          sections.append(SEC_DATA, secOut.subarray(0, sb));
          sections.append(SEC_START, bytesOf(docSecStart.subarray(0, n)));
          secAt += sb;
          forward.append(TERM, bytesOf(sorted));
          for (let j = 0; j < n; j++) postingCounts[sorted[j]!]!++;
          positions.append(POS_START, bytesOf(docPosStart.subarray(0, n)));
          for (let f = 0; f < FIELDS.length; f++) {
            const d = dfs[f]!;
            const fieldTf = tf.subarray(f * n, f * n + n);
            const out = docTf[f]!;
            for (let j = 0; j < n; j++) {
              const v = fieldTf[entryOf[j]!]!;
              if (v > 0) d[sorted[j]!]!++;
              out[j] = v;
            }
            forward.append(TF + f, bytesOf(out.subarray(0, n)));
          }
          postings.add(id, sorted, at, (f) => docTf[f]!);
          at += n;
        }
      } finally {
        src.close();
      }
      start[this.docs] = at;
      postings.write(dir, postingCounts, lengths, this.info.boosts);
      positions.append(POS_START, bytesOf(Uint32Array.of(posAt)));
      secDoc[this.docs] = secCount;
      sections.append(SEC_DOC, bytesOf(secDoc));
      sections.append(SEC_START, bytesOf(Uint32Array.of(secAt)));
      forward.append(START, bytesOf(start));
      forward.append(LENGTHS, bytesOf(lengths));
    } catch (e) {
      forward.abandon();
      positions?.abandon();
      sections?.abandon();
      throw e;
    }
    forward.close();
    positions.close();
    sections.close();

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
    };
    writeIndexFileWith(dir, INDEX_FILES.docs, (w) =>
      writePackedColumns(w, [columnSource('offsets', this.storedOffsets.done()), this.stored.column('json', 'u8', this.stored.bytes)]),
    );
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
