/**
 * @module shared/index/candidates-file
 * Writes the candidate file — flexsearch's own export of the index
 * CandidateIndex describes, byte for byte — without building flexsearch in
 * memory. What flexsearch's `add` would record (per term, the documents in
 * each resolution slot; per tag, its documents; the register) is collected
 * in batches; a full batch is sorted by term and written to a run file, and
 * `write` merges the runs term by term into the export, so memory holds one
 * batch, the tags and the register whatever the number of documents.
 * The slot rule and the export's chunking are flexsearch 0.8's
 * (index/add.js get_score, serialize.js); the test checks the bytes against
 * flexsearch's own export.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RESOLUTION, TAG_FIELDS, type Tags } from './candidates.js';
import type { IndexFileWriter } from './format.js';
import { SpillSink, SpillSource } from './spill.js';

/** Postings held before a batch is written to a run (4 bytes each, and 4 in the sort buffer). */
const BATCH_POSTINGS = 2_000_000;
/** flexsearch's export chunk sizes (serialize.js). */
const CHUNK_REG = 250_000;
const CHUNK_MAP = 5000;
const CHUNK_CTX = 1000;
/** flexsearch's encoder drops longer terms (the `maxlength` CandidateIndex sets). */
const MAX_TERM_LENGTH = 1 << 16;
/** `order` of a term flexsearch drops (empty or longer than MAX_TERM_LENGTH). */
const SKIPPED = -2;

/** flexsearch's slot for the i-th of n distinct terms of a document: early terms in low slots. */
export function slotOf(n: number, i: number): number {
  if (!i || RESOLUTION <= 1) return 0;
  return n <= RESOLUTION ? i : (((RESOLUTION - 1) / n) * i + 1) | 0;
}

/** Buffered text out to the file, escaped as a JSON string's contents when asked. */
class TextOut {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly w: IndexFileWriter) {}
  raw(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size > 1 << 20) this.flush();
  }
  /** `s` as it reads inside a JSON string (flexsearch's chunks are JSON text inside the outer JSON). */
  escaped(s: string): void {
    this.raw(JSON.stringify(s).slice(1, -1));
  }
  flush(): void {
    if (this.parts.length) this.w.write(Buffer.from(this.parts.join('')));
    this.parts = [];
    this.size = 0;
  }
}

export class CandidatePostings {
  /**
   * The batch: term orders, document after document. A posting's value (doc << 4 | slot) follows
   * from where it sits in its document, so only each document's id and end are kept beside them.
   */
  private terms = new Uint32Array(1 << 16);
  private held = 0;
  private batchDocs: number[] = [];
  private batchEnds: number[] = [];
  /** The counting sort's output, kept from one spill to the next. */
  private sorted = new Uint32Array(0);
  private readonly runs: string[] = [];
  private readonly reg: number[] = [];
  private readonly tags = new Map<string, Map<string, number[]>>(TAG_FIELDS.map((f) => [f, new Map()]));
  /** The document each term id was last seen in (dedupe within a document). */
  private seen: Int32Array = new Int32Array(1 << 16).fill(-1);
  /**
   * Per term id, its rank in order of first appearance in candidate text (-1: not yet; SKIPPED: a
   * term flexsearch drops), and the reverse: flexsearch's export lists terms in that order, and runs
   * are sorted by it.
   */
  private order: Int32Array = new Int32Array(1 << 16).fill(-1);
  private readonly byOrder: number[] = [];

  /** `limits` are flexsearch's and a batch's sizes; smaller ones exercise several runs and parts on a small index. */
  constructor(
    private readonly spillDir: string,
    private readonly limits = { batchPostings: BATCH_POSTINGS, chunkMap: CHUNK_MAP },
  ) {}

  /**
   * Records document `id` (ids come in increasing order) with its candidate
   * text as term ids in order, `words[termId]` their text, and its tags.
   * Batches hold terms by their order of first appearance.
   */
  add(id: number, text: ArrayLike<number>, words: readonly string[], tags: Tags): void {
    // Room for every term of the text, so the document's distinct terms (by order) go straight into the batch.
    if (this.held + text.length > this.terms.length) this.growBatch(this.held + text.length);
    const { terms, held } = this;
    let n = 0;
    for (let k = 0; k < text.length; k++) {
      const t = text[k]!;
      if (t >= this.seen.length) {
        this.seen = grownI32(this.seen, t);
        this.order = grownI32(this.order, t);
      }
      if (this.seen[t] === id) continue;
      let o = this.order[t]!;
      if (o < 0) {
        if (o === SKIPPED) continue;
        // A term's text is read once, when it first comes: its length decides for good.
        const len = words[t]!.length;
        if (len === 0 || len > MAX_TERM_LENGTH) {
          this.order[t] = SKIPPED;
          continue;
        }
        o = this.order[t] = this.byOrder.length;
        this.byOrder.push(t);
      }
      this.seen[t] = id;
      terms[held + n++] = o;
    }
    if (n) {
      this.reg.push(id);
      this.held += n;
      this.batchDocs.push(id);
      this.batchEnds.push(this.held);
      if (this.held >= this.limits.batchPostings) this.spill();
    }
    for (const f of TAG_FIELDS) {
      const v = tags[f];
      if (!v) continue;
      const m = this.tags.get(f)!;
      const ids = m.get(v);
      if (ids) ids.push(id);
      else m.set(v, [id]);
    }
  }

  private growBatch(n: number): void {
    const t = new Uint32Array(Math.max(n, this.terms.length * 2));
    t.set(this.terms.subarray(0, this.held));
    this.terms = t;
  }

  /** Writes the held postings as a run: per term (by first appearance), its count and values in document order. */
  private spill(): void {
    if (!this.held) return;
    let maxTerm = 0;
    for (let k = 0; k < this.held; k++) if (this.terms[k]! > maxTerm) maxTerm = this.terms[k]!;
    const starts = new Uint32Array(maxTerm + 2);
    for (let k = 0; k < this.held; k++) starts[this.terms[k]! + 1]!++;
    for (let t = 0; t <= maxTerm; t++) starts[t + 1]! += starts[t]!;
    if (this.sorted.length < this.held) this.sorted = new Uint32Array(this.terms.length);
    const sorted = this.sorted;
    const at = starts.slice(0, maxTerm + 1);
    for (let d = 0, from = 0; d < this.batchDocs.length; d++) {
      const id = this.batchDocs[d]! << 4;
      const end = this.batchEnds[d]!;
      for (let k = from; k < end; k++) sorted[at[this.terms[k]!]!++] = id | slotOf(end - from, k - from);
      from = end;
    }
    const sink = new SpillSink(path.join(this.spillDir, `run-${this.runs.length}`));
    for (let t = 0; t <= maxTerm; t++) {
      const n = starts[t + 1]! - starts[t]!;
      if (!n) continue;
      sink.u32(t);
      sink.u32(n);
      sink.u32s(sorted.subarray(starts[t]!, starts[t + 1]!));
    }
    sink.close();
    this.runs.push(sink.file);
    this.held = 0;
    this.batchDocs = [];
    this.batchEnds = [];
  }

  /** Writes the whole export (the candidate file's payload) to `w`. */
  write(w: IndexFileWriter, words: readonly string[]): void {
    this.spill();
    // Nothing more is added: the batch and the sort buffer are let go before the runs are read.
    this.terms = this.sorted = new Uint32Array(0);
    const out = new TextOut(w);
    let parts = 0;
    const open = (key: string) => out.raw(`${parts++ ? ',' : '['}[${JSON.stringify(key)},"`);
    const close = () => out.raw('"]');
    const regSize = this.reg.length;

    // "text.N.map": [term, slots] entries, CHUNK_MAP × (CHUNK_REG / register size) to a part.
    const perChunk = regSize ? ((this.limits.chunkMap * (CHUNK_REG / regSize)) | 0) : 0;
    const sources = this.runs.map((f) => new SpillSource(f));
    try {
      const heads = sources.map((s) => (s.more() ? s.u32() : -1));
      let inChunk = 0;
      let chunks = 0;
      for (;;) {
        let term = -1;
        for (const h of heads) if (h >= 0 && (term < 0 || h < term)) term = h;
        if (term < 0) break;
        const slots: (number[] | null)[] = [];
        sources.forEach((s, k) => {
          if (heads[k] !== term) return;
          for (const v of s.u32s(s.u32())) {
            const slot = v & 15;
            while (slots.length <= slot) slots.push(null);
            (slots[slot] ??= []).push(v >>> 4);
          }
          heads[k] = s.more() ? s.u32() : -1;
        });
        if (inChunk === 0) {
          open(`text.${++chunks}.map`);
          out.raw('[');
        } else out.raw(',');
        // Only the word can hold characters to escape: the slots' JSON is digits, commas, brackets and null.
        out.raw('[');
        out.escaped(JSON.stringify(words[this.byOrder[term]!]));
        out.raw(`,${JSON.stringify(slots)}]`);
        if (++inChunk === perChunk) {
          out.raw(']');
          close();
          inChunk = 0;
        }
      }
      if (inChunk > 0) {
        out.raw(']');
        close();
      }
    } finally {
      for (const s of sources) s.close();
      for (const f of this.runs) fs.rmSync(f, { force: true });
    }

    // "N.reg": the documents with text, CHUNK_REG to a part.
    for (let i = 0, n = 1; i < regSize; i += CHUNK_REG, n++) {
      open(`${n}.reg`);
      out.escaped(JSON.stringify(this.reg.slice(i, i + CHUNK_REG)));
      close();
    }

    // "1.tag": per tag field, [value, ids] entries (the fields always fit one part).
    const fieldsPerChunk = regSize ? ((CHUNK_CTX * (CHUNK_REG / regSize)) | 0) : 0;
    if (fieldsPerChunk && fieldsPerChunk < TAG_FIELDS.length) throw new Error(`${regSize} documents are more than one candidate file holds`);
    open('1.tag');
    out.escaped(JSON.stringify([...this.tags].map(([f, m]) => [f, [...m]])));
    close();
    out.raw(']');
    out.flush();
  }
}

function grownI32(a: Int32Array, need: number): Int32Array {
  const b = new Int32Array(Math.max(a.length * 2, need + 1)).fill(-1);
  b.set(a);
  return b;
}
