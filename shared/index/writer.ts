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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Analyzer } from '../analysis/analyzer.js';
import { CandidatePostings } from './candidates-file.js';
import { analyzeDoc, fieldLengths, type AnalyzedDoc } from './document.js';
import { columnSource, INDEX_FILES, INDEX_FORMAT_VERSION, IndexFileWriter, packColumns, writeIndexFile, writePackedColumns, type ColumnSource } from './format.js';
import { SpillSink, SpillSource } from './spill.js';
import { FIELDS, type Field, type IndexInputDoc, type IndexMeta } from './types.js';

/** Nutch's indexer.max.tokens default. */
export const DEFAULT_MAX_TOKENS = 10_000;
const TF_MAX = 0xffff;

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
  private docs = 0;

  constructor(private readonly opts: IndexWriterOptions) {
    this.spill = fs.mkdtempSync(path.join(opts.spillDir ?? os.tmpdir(), 'hz-index-'));
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
    const id = this.docs++;
    const s = d.stored;
    // Interned in the candidate text's order (title, anchors, content), so term ids follow first appearance
    // there, as flexsearch's term order does. Title first, so flexsearch's positional slots favour title hits.
    const title = this.intern(d.stream, 0, d.titleLength);
    const anchor = this.intern(d.anchor, 0, d.anchor.length);
    const content = this.intern(d.stream, d.titleLength, d.stream.length);
    const text = new Uint32Array(title.length + anchor.length + content.length);
    text.set(title);
    text.set(anchor, title.length);
    text.set(content, title.length + anchor.length);
    this.candidates.add(id, text, this.words, { host: s.host, site: s.site, type: s.type, lang: s.lang });
    const url = this.intern(d.url, 0, d.url.length);
    const heading = this.intern(d.heading, 0, d.heading.length);
    const len = fieldLengths(d);
    for (const f of FIELDS) this.lengthSums[f] += len[f];
    const t = this.terms;
    for (const n of [title.length, content.length, anchor.length, url.length, heading.length]) t.u32(n);
    for (const a of [title, content, anchor, url, heading]) t.u32s(a);
    this.stored.raw(Buffer.from(JSON.stringify(s)));
    this.storedOffsets.push(this.stored.bytes);
    return id;
  }

  private intern(terms: readonly string[], from: number, to: number): Uint32Array {
    const out = new Uint32Array(to - from);
    for (let i = from; i < to; i++) {
      const t = terms[i]!;
      let id = this.dict.get(t);
      if (id === undefined) {
        id = this.words.length;
        this.dict.set(t, id);
        this.words.push(t);
      }
      out[i - from] = id;
    }
    return out;
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

    const perField = <V>(make: () => V) => Object.fromEntries(FIELDS.map((f) => [f, make()])) as Record<Field, V>;
    const sink = (name: string) => new SpillSink(path.join(this.spill, name));
    const df = perField(() => new Uint32Array(T));
    const tf = perField(() => new Uint32Array(T));
    const mark = new Int32Array(T).fill(-1);
    const cursor = new Uint32Array(T);
    const start = new Grow();
    const termCol = sink('col.term');
    const tfCols = perField((): SpillSink | undefined => undefined);
    for (const f of FIELDS) tfCols[f] = sink(`col.tf.${f}`);
    const posStart = sink('col.posStart');
    const posData = sink('col.posData');
    const lengths = new Uint32Array(this.docs * FIELDS.length);
    let entries = 0;

    const src = new SpillSource(this.terms.file);
    try {
      for (let id = 0; id < this.docs; id++) {
        const [titleLength, contentLength, anchorLength, urlLength, headingLength] = src.u32s(5);
        const title = src.u32s(titleLength!);
        const content = src.u32s(contentLength!);
        const anchor = src.u32s(anchorLength!);
        const url = src.u32s(urlLength!);
        const heading = src.u32s(headingLength!);
        const streamLength = titleLength! + contentLength!;
        const at = (i: number) => (i < titleLength! ? title[i]! : content[i - titleLength!]!);
        start.push(entries);
        const touched: number[] = [];
        const see = (t: number) => {
          if (mark[t] !== id) {
            mark[t] = id;
            touched.push(t);
          }
        };
        for (const t of title) (see(t), tf.title[t]!++);
        for (const t of content) (see(t), tf.content[t]!++);
        for (const t of anchor) (see(t), tf.anchor[t]!++);
        for (const t of url) (see(t), tf.url[t]!++);
        for (const t of heading) (see(t), tf.heading[t]!++);
        touched.sort((a, b) => rank[a]! - rank[b]!);

        // Positions: bucket the stream by term (counting sort), then delta-encode each bucket.
        let next = 0;
        for (const t of touched) {
          cursor[t] = next;
          next += tf.title[t]! + tf.content[t]!;
        }
        const pos = new Uint32Array(streamLength);
        for (let i = 0; i < streamLength; i++) pos[cursor[at(i)]!++] = i;
        let from = 0;
        for (const t of touched) {
          termCol.u32(rank[t]!);
          posStart.u32(posData.bytes);
          entries++;
          const n = tf.title[t]! + tf.content[t]!;
          let prev = 0;
          for (let k = from; k < from + n; k++) {
            posData.varint(pos[k]! - prev);
            prev = pos[k]!;
          }
          from += n;
          for (const f of FIELDS) {
            const v = tf[f][t]!;
            if (v > 0) df[f][rank[t]!]!++;
            tfCols[f]!.u16(Math.min(v, TF_MAX));
            tf[f][t] = 0;
          }
        }
        const len = { title: titleLength!, anchor: anchorLength!, url: urlLength!, heading: headingLength!, content: contentLength! };
        FIELDS.forEach((f, k) => (lengths[id * FIELDS.length + k] = len[f]));
      }
    } finally {
      src.close();
    }
    start.push(entries);
    posStart.u32(posData.bytes);
    for (const s of [termCol, posStart, posData, ...FIELDS.map((f) => tfCols[f]!)]) s.close();

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
    const packed = (name: string, cols: ColumnSource[]) => {
      const w = new IndexFileWriter(dir, name);
      try {
        writePackedColumns(w, cols);
      } catch (e) {
        w.abandon();
        throw e;
      }
      w.close();
    };
    packed(INDEX_FILES.docs, [columnSource('offsets', this.storedOffsets.done()), this.stored.column('json', 'u8', this.stored.bytes)]);
    writeIndexFile(
      dir,
      INDEX_FILES.terms,
      packColumns({
        words: Buffer.from(byWord.map((i) => this.words[i]).join('\n')),
        ...Object.fromEntries(FIELDS.map((f) => [`df.${f}`, df[f]])),
      }),
    );
    packed(INDEX_FILES.forward, [
      columnSource('start', start.done()),
      termCol.column('term', 'u32', entries),
      ...FIELDS.map((f) => tfCols[f]!.column(`tf.${f}`, 'u16', entries)),
      columnSource('lengths', lengths),
    ]);
    packed(INDEX_FILES.positions, [posStart.column('start', 'u32', entries + 1), posData.column('data', 'u8', posData.bytes)]);
    const cw = new IndexFileWriter(dir, INDEX_FILES.candidates);
    try {
      this.candidates.write(cw, this.words);
    } catch (e) {
      cw.abandon();
      throw e;
    }
    cw.close();
    writeIndexFile(dir, INDEX_FILES.meta, Buffer.from(JSON.stringify(meta)));
    return meta;
  }
}
