/**
 * @module shared/index/writer
 * Builds an index (per segment or merged) and writes its files to a
 * directory: the flexsearch candidate index plus our own binary statistics —
 * a sorted term dictionary with document frequencies per field, a forward
 * index (per document: sorted term ids and term frequencies per field, field
 * lengths) and term positions in the title+content stream. Memory is bounded
 * by design: each added document goes to spill files at once (its stored
 * fields, its terms as ids, its candidate postings in batches), and `write`
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
import { CandidatePostings } from './candidates-file.js';
import { analyzeDoc, type AnalyzedDoc } from './document.js';
import { EntryBuilder, type DocEntries, type TermStreams } from './entries.js';
import { columnSource, INDEX_FILES, INDEX_FORMAT_VERSION, packColumns, writeIndexFile, writeIndexFileWith, writePackedColumns, type ColumnSource } from './format.js';
import { removeStaleTmp } from './publish.js';
import { SpillSink, SpillSource } from './spill.js';
import { FIELDS, type Field, type IndexInputDoc, type IndexMeta, type StoredDoc } from './types.js';

/** Nutch's indexer.max.tokens default. */
export const DEFAULT_MAX_TOKENS = 10_000;
const SPILL_PREFIX = 'hz-spill-';

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
  /** Candidate batch and export chunk sizes, smaller than flexsearch's only to test them on a small index. */
  candidateLimits?: ConstructorParameters<typeof CandidatePostings>[1];
}

export class IndexWriter {
  private readonly dict = new Map<string, number>();
  private readonly words: string[] = [];
  private readonly lengthSums = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;
  private readonly spill: string;
  private readonly terms: SpillSink;
  private readonly stored: SpillSink;
  private readonly storedOffsets = new Grow();
  private readonly candidates: CandidatePostings;
  private readonly builder = new EntryBuilder();
  private docs = 0;

  constructor(private readonly opts: IndexWriterOptions) {
    const parent = opts.spillDir ?? os.tmpdir();
    // Named with the pid, so the spill files of a killed build are removed by the next one.
    removeStaleTmp(parent, SPILL_PREFIX);
    this.spill = path.join(parent, `${SPILL_PREFIX}${crypto.randomBytes(4).toString('hex')}-${process.pid}`);
    fs.mkdirSync(this.spill, { recursive: true });
    this.terms = new SpillSink(path.join(this.spill, 'terms'));
    this.stored = new SpillSink(path.join(this.spill, 'stored'));
    this.storedOffsets.push(0);
    this.candidates = new CandidatePostings(this.spill, opts.candidateLimits);
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
    const text = new Uint32Array(e.order.length);
    for (let i = 0; i < text.length; i++) text[i] = e.terms[e.order[i]!]!;
    this.candidates.add(id, text, this.words, { host: s.host, site: s.site, type: s.type, lang: s.lang });
    FIELDS.forEach((f, k) => (this.lengthSums[f] += e.lengths[k]!));
    const t = this.terms;
    t.u32(n);
    t.u32s(e.lengths);
    t.u32s(e.terms);
    t.u16s(e.tf);
    t.u32s(e.posEnd);
    t.raw(e.posData);
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

    const sink = (name: string) => new SpillSink(path.join(this.spill, name));
    const dfs = FIELDS.map(() => new Uint32Array(T));
    const start = new Grow();
    const termCol = sink('col.term');
    const tfCols = FIELDS.map((f) => sink(`col.tf.${f}`));
    const posStart = sink('col.posStart');
    const posData = sink('col.posData');
    const lengths = new Uint32Array(this.docs * FIELDS.length);
    // The entry of each rank in the document at hand, and of each sorted entry.
    const slot = new Uint32Array(T);
    let entries = 0;
    let ranks = new Uint32Array(1024);
    let entryOf = new Uint32Array(1024);
    let docTf = new Uint16Array(1024);
    let docPosStart = new Uint32Array(1024);
    let bytes = new Uint8Array(4096);

    const src = new SpillSource(this.terms.file);
    try {
      for (let id = 0; id < this.docs; id++) {
        const n = src.u32();
        lengths.set(src.u32s(FIELDS.length), id * FIELDS.length);
        const terms = src.u32s(n);
        const tf = src.u16s(n * FIELDS.length);
        const posEnd = src.u32s(n);
        const data = src.bytes(n ? posEnd[n - 1]! : 0);
        start.push(entries);
        if (ranks.length < n) {
          ranks = new Uint32Array(2 * n);
          entryOf = new Uint32Array(2 * n);
          docTf = new Uint16Array(2 * n);
          docPosStart = new Uint32Array(2 * n);
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
        for (let j = 0; j < n; j++) {
          const k = (entryOf[j] = slot[sorted[j]!]!);
          docPosStart[j] = posData.bytes + b;
          for (let p = k ? posEnd[k - 1]! : 0, end = posEnd[k]!; p < end; p++) bytes[b++] = data[p]!;
        }
        posData.raw(bytes.subarray(0, b));
        termCol.u32s(sorted);
        posStart.u32s(docPosStart.subarray(0, n));
        for (let f = 0; f < FIELDS.length; f++) {
          const d = dfs[f]!;
          const fieldTf = tf.subarray(f * n, f * n + n);
          for (let j = 0; j < n; j++) {
            const v = fieldTf[entryOf[j]!]!;
            if (v > 0) d[sorted[j]!]!++;
            docTf[j] = v;
          }
          tfCols[f]!.u16s(docTf.subarray(0, n));
        }
        entries += n;
      }
    } finally {
      src.close();
    }
    start.push(entries);
    posStart.u32(posData.bytes);
    for (const s of [termCol, posStart, posData, ...tfCols]) s.close();

    const n = Math.max(this.docs, 1);
    const meta: IndexMeta = {
      version: INDEX_FORMAT_VERSION,
      createdAt: Date.now(),
      docCount: this.docs,
      deletedCount: 0,
      segments: [...new Set(this.opts.segments)].sort(),
      termCount: T,
      avgFieldLength: Object.fromEntries(FIELDS.map((f) => [f, this.lengthSums[f] / n])) as Record<Field, number>,
      analyzer: { ...this.opts.analyzer.options },
    };
    const packed = (name: string, cols: ColumnSource[]) => writeIndexFileWith(dir, name, (w) => writePackedColumns(w, cols));
    packed(INDEX_FILES.docs, [columnSource('offsets', this.storedOffsets.done()), this.stored.column('json', 'u8', this.stored.bytes)]);
    writeIndexFile(
      dir,
      INDEX_FILES.terms,
      packColumns({
        words: Buffer.from(byWord.map((i) => this.words[i]).join('\n')),
        ...Object.fromEntries(FIELDS.map((f, k) => [`df.${f}`, dfs[k]!])),
      }),
    );
    packed(INDEX_FILES.forward, [
      columnSource('start', start.done()),
      termCol.column('term', 'u32', entries),
      ...FIELDS.map((f, k) => tfCols[k]!.column(`tf.${f}`, 'u16', entries)),
      columnSource('lengths', lengths),
    ]);
    packed(INDEX_FILES.positions, [posStart.column('start', 'u32', entries + 1), posData.column('data', 'u8', posData.bytes)]);
    writeIndexFileWith(dir, INDEX_FILES.candidates, (w) => this.candidates.write(w, this.words));
    writeIndexFile(dir, INDEX_FILES.meta, Buffer.from(JSON.stringify(meta)));
    return meta;
  }
}
