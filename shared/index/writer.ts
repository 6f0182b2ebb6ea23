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
import type { DocTerms } from './reader.js';
import { columnSource, INDEX_FILES, INDEX_FORMAT_VERSION, packColumns, writeIndexFile, writeIndexFileWith, writePackedColumns, type ColumnSource } from './format.js';
import { removeStaleTmp } from './publish.js';
import { SpillSink, SpillSource } from './spill.js';
import { FIELDS, type Field, type IndexInputDoc, type IndexMeta, type StoredDoc } from './types.js';

/** Nutch's indexer.max.tokens default. */
export const DEFAULT_MAX_TOKENS = 10_000;
const TF_MAX = 0xffff;
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

  /** A document whose terms are ids given by `termId` (merge maps a segment index's dictionary once instead of every term). */
  addTerms(s: StoredDoc, { title, content, anchor, url, heading }: DocTerms): number {
    const id = this.docs++;
    // Title first, so flexsearch's positional slots favour title hits.
    const text = new Uint32Array(title.length + anchor.length + content.length);
    text.set(title);
    text.set(anchor, title.length);
    text.set(content, title.length + anchor.length);
    this.candidates.add(id, text, this.words, { host: s.host, site: s.site, type: s.type, lang: s.lang });
    const len: Record<Field, number> = { title: title.length, anchor: anchor.length, url: url.length, heading: heading.length, content: content.length };
    for (const f of FIELDS) this.lengthSums[f] += len[f];
    const t = this.terms;
    for (const n of [title.length, content.length, anchor.length, url.length, heading.length]) t.u32(n);
    for (const a of [title, content, anchor, url, heading]) t.u32s(a);
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

    const perField = <V>(make: (f: Field) => V) => Object.fromEntries(FIELDS.map((f) => [f, make(f)])) as Record<Field, V>;
    const sink = (name: string) => new SpillSink(path.join(this.spill, name));
    const df = perField(() => new Uint32Array(T));
    const tf = perField(() => new Uint32Array(T));
    const mark = new Int32Array(T).fill(-1);
    const cursor = new Uint32Array(T);
    const start = new Grow();
    const termCol = sink('col.term');
    const tfCols = perField((f) => sink(`col.tf.${f}`));
    const posStart = sink('col.posStart');
    const posData = sink('col.posData');
    const lengths = new Uint32Array(this.docs * FIELDS.length);
    let entries = 0;
    const tfs = FIELDS.map((f) => tf[f]);
    const dfs = FIELDS.map((f) => df[f]);
    let touched = new Uint32Array(1024);
    let varints = new Uint8Array(4096);

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
        start.push(entries);
        let distinct = 0;
        const see = (a: Uint32Array, field: Uint32Array) => {
          for (const t of a) {
            if (mark[t] !== id) {
              mark[t] = id;
              touched[distinct++] = rank[t]!;
            }
            field[t]!++;
          }
        };
        if (touched.length < streamLength + anchor.length + url.length + heading.length) touched = new Uint32Array(2 * (streamLength + anchor.length + url.length + heading.length));
        see(title, tf.title);
        see(content, tf.content);
        see(anchor, tf.anchor);
        see(url, tf.url);
        see(heading, tf.heading);
        // Entries in dictionary order: sort the ranks (a native numeric sort), then back to term ids.
        const ranks = touched.subarray(0, distinct).sort();

        // Positions: bucket the stream by term (counting sort), then delta-encode each bucket.
        let next = 0;
        for (const r of ranks) {
          const t = byWord[r]!;
          cursor[t] = next;
          next += tf.title[t]! + tf.content[t]!;
        }
        const pos = new Uint32Array(streamLength);
        for (let i = 0; i < titleLength!; i++) pos[cursor[title[i]!]!++] = i;
        for (let i = 0; i < contentLength!; i++) pos[cursor[content[i]!]!++] = i + titleLength!;
        const docTf = FIELDS.map(() => new Uint16Array(distinct));
        const docPosStart = new Uint32Array(distinct);
        if (varints.length < 5 * streamLength) varints = new Uint8Array(10 * streamLength);
        let bytes = 0;
        let from = 0;
        for (let k = 0; k < distinct; k++) {
          const r = ranks[k]!;
          const t = byWord[r]!;
          docPosStart[k] = posData.bytes + bytes;
          const n = tf.title[t]! + tf.content[t]!;
          let prev = 0;
          for (let j = from; j < from + n; j++) {
            // Unsigned LEB128 of the gap.
            for (let v = pos[j]! - prev; ; v >>>= 7) {
              if (v <= 0x7f) {
                varints[bytes++] = v;
                break;
              }
              varints[bytes++] = (v & 0x7f) | 0x80;
            }
            prev = pos[j]!;
          }
          from += n;
          for (let fi = 0; fi < FIELDS.length; fi++) {
            const v = tfs[fi]![t]!;
            if (v > 0) dfs[fi]![r]!++;
            docTf[fi]![k] = Math.min(v, TF_MAX);
            tfs[fi]![t] = 0;
          }
        }
        entries += distinct;
        posData.raw(varints.subarray(0, bytes));
        termCol.u32s(ranks);
        posStart.u32s(docPosStart);
        FIELDS.forEach((f, fi) => tfCols[f].u16s(docTf[fi]!));
        const len = { title: titleLength!, anchor: anchorLength!, url: urlLength!, heading: headingLength!, content: contentLength! };
        FIELDS.forEach((f, k) => (lengths[id * FIELDS.length + k] = len[f]));
      }
    } finally {
      src.close();
    }
    start.push(entries);
    posStart.u32(posData.bytes);
    for (const s of [termCol, posStart, posData, ...FIELDS.map((f) => tfCols[f])]) s.close();

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
        ...Object.fromEntries(FIELDS.map((f) => [`df.${f}`, df[f]])),
      }),
    );
    packed(INDEX_FILES.forward, [
      columnSource('start', start.done()),
      termCol.column('term', 'u32', entries),
      ...FIELDS.map((f) => tfCols[f].column(`tf.${f}`, 'u16', entries)),
      columnSource('lengths', lengths),
    ]);
    packed(INDEX_FILES.positions, [posStart.column('start', 'u32', entries + 1), posData.column('data', 'u8', posData.bytes)]);
    writeIndexFileWith(dir, INDEX_FILES.candidates, (w) => this.candidates.write(w, this.words));
    writeIndexFile(dir, INDEX_FILES.meta, Buffer.from(JSON.stringify(meta)));
    return meta;
  }
}
