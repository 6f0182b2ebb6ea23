/**
 * @module shared/index/postings
 * The postings file: the forward index inverted as it is written, so a
 * searcher reads a term's documents from disk instead of inverting the whole
 * forward index in its heap. Per term its documents ascending, each with its
 * frequency in each field, in compressed blocks of 128
 * (shared/index/postings-codec) with skip data and a score bound a block,
 * so a query can pass over the blocks that cannot rank without decoding them.
 * Documents come in id order; a batch of postings is sorted by term (a
 * counting sort keeps each term's documents ascending) and written to a run
 * file, and `write` takes each term's slices from the runs in order: memory
 * holds one batch whatever the index's size, and every posting is written
 * and read twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { columnSource, INDEX_FILES, writeIndexFileWith, writePackedColumns } from './format.js';
import { blockBound, emptyBound, type BlockBound } from './postings-bounds.js';
import { BLOCK, blockBuffers, encodeBlock, MAX_BLOCK_WORDS, type DecodedBlock } from './postings-codec.js';
import { RunReader, writeRun } from './postings-runs.js';
import { SpillSink } from './spill.js';
import { FIELDS } from './types.js';

/**
 * Postings held before a batch is written to a run (16 bytes each, and
 * about as many for the sort): at 2 million the batch and its sort took 80 MB,
 * the peak of a crawl's memory; at half a million, about 23 MB, for four times the runs,
 * each read back through a small buffer (RUN_READ_BYTES) so the runs of a
 * large index hold little too.
 */
const BATCH_POSTINGS = 500_000;
/** The read-ahead of each run while the runs are merged. */
const RUN_READ_BYTES = 64 << 10;
const F = FIELDS.length;
/**
 * A posting in the batch: its document, then its frequencies by field two to
 * a 32-bit word. Kept together, a posting is one read where the sort gathers
 * the batch by term in an order all over it.
 */
const W = 1 + Math.ceil(F / 2);

export class PostingsBuilder {
  /** The batch's postings' terms, and the postings (W words each, `tf` their frequencies' view), grown by doubling up to `batch` postings. */
  private term = new Uint32Array(1024);
  private rec = new Uint32Array(1024 * W);
  private tf = new Uint16Array(this.rec.buffer);
  private held = 0;
  private readonly runs: string[] = [];

  /** `batch` is smaller only to exercise several runs on a small index. */
  constructor(
    private readonly spillDir: string,
    private readonly batch = BATCH_POSTINGS,
  ) {}

  /** Room for `n` postings in the batch (at most `batch`). */
  private room(n: number): void {
    if (this.held + n <= this.term.length) return;
    const size = Math.min(this.batch, Math.max(2 * this.term.length, this.held + n));
    const term = new Uint32Array(size);
    term.set(this.term.subarray(0, this.held));
    const rec = new Uint32Array(size * W);
    rec.set(this.rec.subarray(0, this.held * W));
    [this.term, this.rec, this.tf] = [term, rec, new Uint16Array(rec.buffer)];
  }

  /**
   * Adds document `doc`'s postings (documents in ascending order): its terms
   * `terms` (ascending) and `tf(f)[j]`, term j's frequency in field f.
   */
  add(doc: number, terms: Uint32Array, tf: (f: number) => Uint16Array): void {
    for (let from = 0; from < terms.length; ) {
      const n = Math.min(terms.length - from, this.batch - this.held);
      this.room(n);
      const h = this.held;
      const rec = this.rec;
      this.term.set(terms.subarray(from, from + n), h);
      for (let j = 0; j < n; j++) rec[(h + j) * W] = doc;
      for (let f = 0; f < F; f++) {
        const col = tf(f);
        for (let j = 0; j < n; j++) this.tf[2 * ((h + j) * W + 1) + f] = col[from + j]!;
      }
      this.held += n;
      from += n;
      if (this.held === this.batch) this.spill();
    }
  }

  /**
   * Writes the batch as a run (postings-runs): sorted by term into one array, per term present,
   * ascending, the term, its count and its postings as the batch holds them (W words each), then
   * written whole: a run holds a few postings a term, and a write per term and column cost more than the sort.
   */
  private spill(): void {
    if (!this.held) return;
    const n = this.held;
    const term = this.term;
    let maxTerm = 0;
    for (let i = 0; i < n; i++) if (term[i]! > maxTerm) maxTerm = term[i]!;
    const count = new Uint32Array(maxTerm + 1);
    for (let i = 0; i < n; i++) count[term[i]!]!++;
    // Where each term's postings go in the run, past its term and count.
    const at = new Uint32Array(maxTerm + 1);
    let o = 0;
    for (let t = 0; t <= maxTerm; t++) if (count[t]! > 0) (at[t] = o + 2), (o += 2 + count[t]! * W);
    const run = new Uint32Array(o);
    for (let t = 0; t <= maxTerm; t++) if (count[t]! > 0) (run[at[t]! - 2] = t), (run[at[t]! - 1] = count[t]!);
    const rec = this.rec;
    for (let i = 0; i < n; i++) {
      const to = at[term[i]!]!;
      at[term[i]!] = to + W;
      for (let w = 0, r = i * W; w < W; w++) run[to + w] = rec[r + w]!;
    }
    const file = path.join(this.spillDir, `postings-${this.runs.length}`);
    writeRun(file, run, W);
    this.runs.push(file);
    this.held = 0;
  }

  /**
   * Writes `<dir>/postings` (shared/index/postings-codec): `counts[t]` is
   * term t's number of postings, over every document added; `lengths` each
   * document's field lengths (`[doc * F + f]`) and `boosts` its link score,
   * from which each block's bound is kept beside its skip data.
   */
  write(dir: string, counts: Uint32Array, lengths: Uint32Array, boosts: Float64Array): void {
    this.spill();
    const T = counts.length;
    const start = new Uint32Array(T + 1);
    for (let t = 0; t < T; t++) start[t + 1] = start[t]! + counts[t]!;
    const blocks = new BlockWriter(this.spillDir, lengths, boosts);
    const sources = this.runs.map((f) => new RunReader(f, RUN_READ_BYTES));
    try {
      for (;;) {
        let term = -1;
        for (const { head } of sources) if (head >= 0 && (term < 0 || head < term)) term = head;
        if (term < 0) break;
        // Runs in the order written: documents ascending within the term.
        for (const s of sources)
          if (s.head === term) {
            const n = s.read();
            blocks.add(s.docs, s.tf, n);
          }
        blocks.endTerm();
      }
      blocks.write(dir, start);
    } finally {
      for (const s of sources) s.close();
      for (const f of this.runs) fs.rmSync(f, { force: true });
      blocks.remove();
    }
  }
}

/** Per-block columns, kept in spill files as blocks are made: their names and types in the postings file (the bounds for a term of more than one block only). */
const BLOCK_COLUMNS = [
  { name: 'block.last', type: 'u32' },
  ...FIELDS.map((f) => ({ name: `block.maxtf.${f}`, type: 'u16' as const })),
  ...FIELDS.map((f) => ({ name: `block.minlen.${f}`, type: 'u32' as const })),
  { name: 'block.boost', type: 'f64' },
] as const;
const [LAST, MAX_TF, MIN_LEN, BOOST] = [0, 1, 1 + F, 1 + 2 * F];

/**
 * Cuts each term's postings into blocks as they come from the runs and
 * spills each block's words and its skip data: its last document and where
 * its words start, and its bound (shared/index/postings-bounds) when the
 * term has more than one block. Merge writes the blocks of postings it
 * takes from other indexes through it too (shared/index/postings-merge).
 */
export class BlockWriter {
  private readonly b = blockBuffers();
  /** Where each block is encoded before it is spilled: one array for all, not one a block. */
  private readonly encoded = new Uint32Array(MAX_BLOCK_WORDS);
  private prevDoc = -1;
  private words = 0;
  private count = 0;
  /** Blocks whose bound is kept. */
  private bounded = 0;
  /** The term at hand's blocks so far. */
  private termBlocks = 0;
  /** The bound of the term at hand's first block, kept once a second block shows it has more than one. */
  private readonly first = emptyBound();
  private readonly bound = emptyBound();
  private readonly data: SpillSink;
  private readonly cols: SpillSink[];
  private readonly at: SpillSink;

  constructor(
    spillDir: string,
    private readonly lengths: Uint32Array,
    private readonly boosts: Float64Array,
  ) {
    this.data = new SpillSink(path.join(spillDir, 'postings-data'));
    this.at = new SpillSink(path.join(spillDir, 'postings-block-at'));
    this.cols = BLOCK_COLUMNS.map((c) => new SpillSink(path.join(spillDir, `postings-${c.name}`)));
  }

  /** Appends a decoded block's postings (continuing the term at hand's documents in ascending order), each renumbered by `docOf`, those it maps to -1 left out; returns how many were appended. */
  addRenumbered(block: DecodedBlock, docOf: Int32Array): number {
    const b = this.b;
    const { docs, tf } = block;
    let added = 0;
    for (let i = 0; i < block.n; i++) {
      const to = docOf[docs[i]!]!;
      if (to < 0) continue;
      b.docs[b.n] = to;
      for (let f = 0; f < F; f++) b.tf[f]![b.n] = tf[f]![i]!;
      added++;
      if (++b.n === BLOCK) this.flush();
    }
    return added;
  }

  /** Appends the first `n` postings of `docs` and `tf` (one array a field), continuing the term at hand's documents in ascending order. */
  add(docs: Uint32Array, tf: Uint16Array[], n: number): void {
    const b = this.b;
    for (let i = 0; i < n; i++) {
      b.docs[b.n] = docs[i]!;
      for (let f = 0; f < F; f++) b.tf[f]![b.n] = tf[f]![i]!;
      if (++b.n === BLOCK) this.flush();
    }
  }

  endTerm(): void {
    this.flush();
    this.prevDoc = -1;
    this.termBlocks = 0;
  }

  private flush(): void {
    const b = this.b;
    if (!b.n) return;
    const words = encodeBlock(b, this.prevDoc, this.encoded);
    this.at.u32(this.words);
    this.data.u32s(words);
    this.words += words.length;
    this.count++;
    const last = b.docs[b.n - 1]!;
    this.cols[LAST]!.u32(last);
    if (this.termBlocks++ === 0) blockBound(b, this.lengths, this.boosts, this.first);
    else {
      if (this.termBlocks === 2) this.spillBound(this.first);
      this.spillBound(blockBound(b, this.lengths, this.boosts, this.bound));
    }
    this.prevDoc = last;
    b.n = 0;
  }

  private spillBound(x: BlockBound): void {
    for (let f = 0; f < F; f++) {
      this.cols[MAX_TF + f]!.u16(x.maxTf[f]!);
      this.cols[MIN_LEN + f]!.u32(x.minLength[f]!);
    }
    this.cols[BOOST]!.f64(x.maxBoost);
    this.bounded++;
  }

  /** Writes the postings file: each term's first posting (`start`), the blocks' columns, and their words. */
  write(dir: string, start: Uint32Array): void {
    this.at.u32(this.words);
    this.close();
    const B = this.count;
    writeIndexFileWith(dir, INDEX_FILES.postings, (w) =>
      writePackedColumns(w, [
        columnSource('start', start),
        this.at.column('block.at', 'u32', B + 1),
        ...BLOCK_COLUMNS.map((c, k) => this.cols[k]!.column(c.name, c.type, k === LAST ? B : this.bounded)),
        this.data.column('data', 'u32', this.words),
      ]),
    );
  }

  private closed = false;

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of [this.data, this.at, ...this.cols]) s.close();
  }

  /** Closes and removes the spill files. */
  remove(): void {
    this.close();
    for (const s of [this.data, this.at, ...this.cols]) fs.rmSync(s.file, { force: true });
  }
}
