/**
 * @module shared/index/writer
 * Builds an index (per segment or merged) in memory and writes its files to a
 * directory: the flexsearch candidate index plus our own binary statistics —
 * a sorted term dictionary with document frequencies per field, a forward
 * index (per document: sorted term ids and term frequencies per field, field
 * lengths) and term positions in the title+content stream. Used by the
 * crawler only; publishing the directory atomically is publish.ts's job.
 */
import fs from 'node:fs';
import type { Analyzer } from '../analysis/analyzer.js';
import { CandidateIndex } from './candidates.js';
import { analyzeDoc, fieldLengths, type AnalyzedDoc } from './document.js';
import { INDEX_FILES, INDEX_FORMAT_VERSION, packColumns, writeIndexFile } from './format.js';
import { FIELDS, type Field, type IndexInputDoc, type IndexMeta } from './types.js';

/** Nutch's indexer.max.tokens default. */
export const DEFAULT_MAX_TOKENS = 10_000;
const TF_MAX = 0xffff;

class Grow<A extends Uint16Array | Uint32Array | Uint8Array> {
  len = 0;
  constructor(
    public arr: A,
    private readonly make: (n: number) => A,
  ) {}
  push(v: number): void {
    if (this.len === this.arr.length) {
      const next = this.make(this.arr.length * 2);
      next.set(this.arr);
      this.arr = next;
    }
    this.arr[this.len++] = v;
  }
  /** Unsigned LEB128. */
  pushVarint(v: number): void {
    while (v > 0x7f) {
      this.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    this.push(v);
  }
  done(): A {
    return this.arr.subarray(0, this.len) as A;
  }
}
const u32 = (n = 1024) => new Grow(new Uint32Array(n), (m) => new Uint32Array(m));
const u16 = (n = 1024) => new Grow(new Uint16Array(n), (m) => new Uint16Array(m));
const u8 = (n = 4096) => new Grow(new Uint8Array(n), (m) => new Uint8Array(m));

interface HeldDoc {
  stored: string;
  stream: Uint32Array;
  titleLength: number;
  anchor: Uint32Array;
  url: Uint32Array;
  heading: Uint32Array;
}

export interface IndexWriterOptions {
  analyzer: Analyzer;
  /** Segment names the documents come from (IndexMeta.segments). */
  segments: string[];
  /** Content terms kept per document. @default 10000 */
  maxTokens?: number;
}

export class IndexWriter {
  private readonly dict = new Map<string, number>();
  private readonly words: string[] = [];
  private readonly docs: HeldDoc[] = [];
  private readonly candidates: CandidateIndex;
  private readonly lengthSums = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;

  constructor(private readonly opts: IndexWriterOptions) {
    this.candidates = new CandidateIndex(opts.analyzer);
  }

  get docCount(): number {
    return this.docs.length;
  }

  /** Analyzes and adds a document; returns its id. */
  add(doc: IndexInputDoc): number {
    return this.addAnalyzed(analyzeDoc(this.opts.analyzer, doc, this.opts.maxTokens ?? DEFAULT_MAX_TOKENS));
  }

  addAnalyzed(d: AnalyzedDoc): number {
    const id = this.docs.length;
    const s = d.stored;
    // Title first, so flexsearch's positional slots favour title hits.
    const text = d.stream.slice(0, d.titleLength).concat(d.anchor, d.stream.slice(d.titleLength));
    this.candidates.add(id, text, { host: s.host, site: s.site, type: s.type, lang: s.lang });
    const len = fieldLengths(d);
    for (const f of FIELDS) this.lengthSums[f] += len[f];
    this.docs.push({
      stored: JSON.stringify(s),
      stream: this.intern(d.stream),
      titleLength: d.titleLength,
      anchor: this.intern(d.anchor),
      url: this.intern(d.url),
      heading: this.intern(d.heading),
    });
    return id;
  }

  private intern(terms: string[]): Uint32Array {
    const out = new Uint32Array(terms.length);
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i]!;
      let id = this.dict.get(t);
      if (id === undefined) {
        id = this.words.length;
        this.dict.set(t, id);
        this.words.push(t);
      }
      out[i] = id;
    }
    return out;
  }

  /** Writes every index file into `dir` (created if missing); returns the meta written. */
  async write(dir: string): Promise<IndexMeta> {
    fs.mkdirSync(dir, { recursive: true });
    const T = this.words.length;
    const byWord = Array.from({ length: T }, (_, i) => i).sort((a, b) => (this.words[a]! < this.words[b]! ? -1 : 1));
    const rank = new Uint32Array(T);
    byWord.forEach((tmp, r) => (rank[tmp] = r));

    const perField = <V>(make: () => V) => Object.fromEntries(FIELDS.map((f) => [f, make()])) as Record<Field, V>;
    const df = perField(() => new Uint32Array(T));
    const tf = perField(() => new Uint32Array(T));
    const mark = new Int32Array(T).fill(-1);
    const cursor = new Uint32Array(T);
    const start = u32(this.docs.length + 1);
    const termCol = u32();
    const tfCols = perField(() => u16());
    const posStart = u32();
    const posData = u8();
    const lengths = new Uint32Array(this.docs.length * FIELDS.length);

    this.docs.forEach((d, id) => {
      start.push(termCol.len);
      const touched: number[] = [];
      const see = (t: number) => {
        if (mark[t] !== id) {
          mark[t] = id;
          touched.push(t);
        }
      };
      for (let i = 0; i < d.stream.length; i++) {
        const t = d.stream[i]!;
        see(t);
        (i < d.titleLength ? tf.title : tf.content)[t]!++;
      }
      for (const t of d.anchor) (see(t), tf.anchor[t]!++);
      for (const t of d.url) (see(t), tf.url[t]!++);
      for (const t of d.heading) (see(t), tf.heading[t]!++);
      touched.sort((a, b) => rank[a]! - rank[b]!);

      // Positions: bucket the stream by term (counting sort), then delta-encode each bucket.
      let at = 0;
      for (const t of touched) {
        cursor[t] = at;
        at += tf.title[t]! + tf.content[t]!;
      }
      const pos = new Uint32Array(d.stream.length);
      for (let i = 0; i < d.stream.length; i++) pos[cursor[d.stream[i]!]!++] = i;
      let from = 0;
      for (const t of touched) {
        termCol.push(rank[t]!);
        posStart.push(posData.len);
        const n = tf.title[t]! + tf.content[t]!;
        let prev = 0;
        for (let k = from; k < from + n; k++) {
          posData.pushVarint(pos[k]! - prev);
          prev = pos[k]!;
        }
        from += n;
        for (const f of FIELDS) {
          const v = tf[f][t]!;
          if (v > 0) df[f][rank[t]!]!++;
          tfCols[f].push(Math.min(v, TF_MAX));
          tf[f][t] = 0;
        }
      }
      const len = { title: d.titleLength, anchor: d.anchor.length, url: d.url.length, heading: d.heading.length, content: d.stream.length - d.titleLength };
      FIELDS.forEach((f, k) => (lengths[id * FIELDS.length + k] = len[f]));
    });
    start.push(termCol.len);
    posStart.push(posData.len);

    const storedBytes = this.docs.map((d) => Buffer.from(d.stored));
    const docOffsets = new Uint32Array(this.docs.length + 1);
    storedBytes.forEach((b, i) => (docOffsets[i + 1] = docOffsets[i]! + b.length));

    const n = Math.max(this.docs.length, 1);
    const meta: IndexMeta = {
      version: INDEX_FORMAT_VERSION,
      createdAt: Date.now(),
      docCount: this.docs.length,
      deletedCount: 0,
      segments: [...new Set(this.opts.segments)].sort(),
      termCount: T,
      avgFieldLength: Object.fromEntries(FIELDS.map((f) => [f, this.lengthSums[f] / n])) as Record<Field, number>,
      analyzer: { ...this.opts.analyzer.options },
    };
    writeIndexFile(dir, INDEX_FILES.docs, packColumns({ offsets: docOffsets, json: Buffer.concat(storedBytes) }));
    writeIndexFile(
      dir,
      INDEX_FILES.terms,
      packColumns({
        words: Buffer.from(byWord.map((i) => this.words[i]).join('\n')),
        ...Object.fromEntries(FIELDS.map((f) => [`df.${f}`, df[f]])),
      }),
    );
    writeIndexFile(
      dir,
      INDEX_FILES.forward,
      packColumns({
        start: start.done(),
        term: termCol.done(),
        ...Object.fromEntries(FIELDS.map((f) => [`tf.${f}`, tfCols[f].done()])),
        lengths,
      }),
    );
    writeIndexFile(dir, INDEX_FILES.positions, packColumns({ start: posStart.done(), data: posData.done() }));
    writeIndexFile(dir, INDEX_FILES.candidates, await this.candidates.export());
    writeIndexFile(dir, INDEX_FILES.meta, Buffer.from(JSON.stringify(meta)));
    return meta;
  }
}
