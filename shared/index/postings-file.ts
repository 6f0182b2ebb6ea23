/**
 * @module shared/index/postings-file
 * The postings file (shared/index/postings) as a reader reads it: a term's
 * blocks with their skip data and bounds, each decoded only when asked
 * (`blocks`), or the term's postings decoded whole (`postings`, `tfs`) for
 * the callers that walk all of them. A term's compressed words and skip
 * data are read in one piece and kept, the most recently used, as are the
 * whole terms decoded, their frequencies with them (a query asks for both).
 * The bound of a term's only block is worked out when the term is read
 * (shared/index/postings-bounds); an index of format 10 to 8 keeps every
 * block's.
 */
import { HzError } from '../errors.js';
import type { CacheBudget } from './cache-budget.js';
import { INDEX_FILES } from './format.js';
import { Lru } from './lru.js';
import { PageCache, PagedFile, type PagedColumn } from './paged.js';
import { blockBound, boundsKept, emptyBound } from './postings-bounds.js';
import { BLOCK, blockBuffers, decodeBlock, decodePlaces, type DecodedBlock } from './postings-codec.js';
import { FIELDS, type Postings, type TermBlocks } from './types.js';

const F = FIELDS.length;
/** Bytes of skip data and bounds a block: last and where it starts (4 each), a largest tf (2) and a shortest length (4) a field, the largest boost (8). */
const BLOCK_BYTES = 4 + 4 + 6 * F + 8;

const EMPTY: TermBlocks = {
  count: 0,
  blocks: 0,
  last: new Uint32Array(0),
  maxTf: FIELDS.map(() => new Uint16Array(0)),
  minLength: FIELDS.map(() => new Uint32Array(0)),
  maxBoost: new Float64Array(0),
  decode: () => 0,
  decodePlaces: () => {},
};

/** Terms a kept first block covers: every sixteenth term's is kept, the others' counted on from it. */
const EVERY_SHIFT = 4;

/** Blocks of `count` postings. */
const blocksOf = (count: number) => Math.ceil(count / BLOCK);

export class PostingsFile {
  private readonly file: PagedFile;
  private readonly termCount: number;
  /** Each term's first posting, read where it lies. */
  private readonly start: PagedColumn;
  /**
   * The first block of every sixteenth term (of term `k · 16`): both columns
   * held whole were 16 MB of every searcher worker at a million pages'
   * 2.1 million terms, for the few terms a query reads.
   */
  private readonly firstBlocks: Uint32Array;
  /** The first block with a kept bound of every sixteenth term, as firstBlocks; undefined when every block's is kept (an older index). */
  private readonly firstBounds: Uint32Array | undefined;
  private readonly cols: { at: PagedColumn; last: PagedColumn; maxTf: PagedColumn[]; minLen: PagedColumn[]; boost: PagedColumn; data: PagedColumn };
  /** Terms' blocks as read, with their bytes (the compressed words and the skip data). */
  private readonly read: Lru<number, { blocks: TermBlocks; bytes: number }>;
  /** The commonest terms' postings and frequencies decoded whole stay (4 + 2 a field bytes a posting). */
  private readonly decoded: Lru<number, Postings & { tfs: Uint16Array[] }>;

  /**
   * Opens `<dir>/postings` of an index of `termCount` terms; a file of other terms or blocks is refused by `inconsistent`.
   * `docs` gives the documents' field lengths and link scores, which the bound of a term's only block is worked out from.
   */
  constructor(
    dir: string,
    cache: PageCache,
    termCount: number,
    inconsistent: () => HzError,
    budget: Pick<CacheBudget, 'postings' | 'decoded'>,
    private readonly docs: () => { lengths: Uint32Array; boosts: Float64Array },
  ) {
    this.read = new Lru(budget.postings, (b) => b.bytes);
    this.decoded = new Lru(budget.decoded, (p) => p.docs.byteLength * (1 + F / 2) || 1);
    this.file = new PagedFile(dir, INDEX_FILES.postings, cache);
    try {
      const f = this.file;
      this.cols = {
        at: f.column('block.at', 'u32'),
        last: f.column('block.last', 'u32'),
        maxTf: FIELDS.map((n) => f.column(`block.maxtf.${n}`, 'u16')),
        minLen: FIELDS.map((n) => f.column(`block.minlen.${n}`, 'u32')),
        boost: f.column('block.boost', 'f64'),
        data: f.column('data', 'u32'),
      };
      this.termCount = termCount;
      this.start = f.column('start', 'u32');
      if (this.start.length !== termCount + 1) throw inconsistent();
      const start = f.all('start', Uint32Array);
      this.firstBlocks = new Uint32Array((termCount >>> EVERY_SHIFT) + 1);
      const firstBounds = new Uint32Array(this.firstBlocks.length);
      let B = 0;
      let bounded = 0;
      for (let t = 0; t < termCount; t++) {
        const count = start[t + 1]! - start[t]!;
        B += blocksOf(count);
        if (boundsKept(count)) bounded += blocksOf(count);
        if (((t + 1) & ((1 << EVERY_SHIFT) - 1)) === 0) (this.firstBlocks[(t + 1) >>> EVERY_SHIFT] = B), (firstBounds[(t + 1) >>> EVERY_SHIFT] = bounded);
      }
      const { at, last, maxTf, minLen, boost } = this.cols;
      this.firstBounds = boost.length === bounded ? firstBounds : undefined;
      if (at.length !== B + 1 || last.length !== B || [boost, ...maxTf, ...minLen].some((c) => c.length !== (this.firstBounds ? bounded : B))) throw inconsistent();
    } catch (e) {
      this.file.close();
      throw e;
    }
  }

  private has(termId: number): boolean {
    return termId >= 0 && termId < this.termCount;
  }

  /** A term's postings. */
  private count(termId: number): number {
    return this.file.u32(this.start, termId + 1) - this.file.u32(this.start, termId);
  }

  /** A term's first block and its first block with a kept bound: the nearest kept ones' and the blocks of the terms between. */
  private firstBlock(termId: number): { block: number; bound: number } {
    const k = termId >>> EVERY_SHIFT;
    let b = this.firstBlocks[k]!;
    let bound = this.firstBounds?.[k] ?? b;
    // Each start read once: a term's end is the next one's start.
    let at = this.file.u32(this.start, k << EVERY_SHIFT);
    for (let t = k << EVERY_SHIFT; t < termId; t++) {
      const next = this.file.u32(this.start, t + 1);
      b += blocksOf(next - at);
      if (!this.firstBounds || boundsKept(next - at)) bound += blocksOf(next - at);
      at = next;
    }
    return { block: b, bound };
  }

  /** A term's blocks: read on first use (its words and skip data in one piece each), decoded when asked. */
  blocks(termId: number): TermBlocks {
    if (!this.has(termId)) return EMPTY;
    const known = this.read.get(termId);
    if (known) return known.blocks;
    const count = this.count(termId);
    const { block: b0, bound } = this.firstBlock(termId);
    const b1 = b0 + blocksOf(count);
    const f = this.file;
    const at = f.read(this.cols.at, Uint32Array, b0, b1 + 1);
    const words = f.read(this.cols.data, Uint32Array, at[0]!, at[b1 - b0]!);
    const last = f.read(this.cols.last, Uint32Array, b0, b1);
    const decode = (b: number, out: DecodedBlock, withTf = true) => {
      const n = decodeBlock(words, at[b]! - at[0]!, b ? last[b - 1]! : -1, out, withTf);
      if (n !== Math.min(BLOCK, count - b * BLOCK)) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${f.file}: block ${b0 + b} holds ${n} postings, not ${Math.min(BLOCK, count - b * BLOCK)}`);
      return n;
    };
    const places = (b: number, ps: ArrayLike<number>, k: number, out: DecodedBlock) => decodePlaces(words, at[b]! - at[0]!, ps, k, out);
    const t = { count, blocks: b1 - b0, last, decode, decodePlaces: places };
    const blocks: TermBlocks = this.firstBounds && !boundsKept(count) ? this.withOnlyBound(t) : { ...t, ...this.keptBounds(bound, bound + b1 - b0) };
    return this.read.set(termId, { blocks, bytes: words.byteLength + (b1 - b0) * BLOCK_BYTES + 4 }).blocks;
  }

  /** The bounds of blocks `b0..b1` with a kept bound. */
  private keptBounds(b0: number, b1: number): Pick<TermBlocks, 'maxTf' | 'minLength' | 'maxBoost'> {
    const f = this.file;
    return {
      maxTf: this.cols.maxTf.map((c) => f.read(c, Uint16Array, b0, b1)),
      minLength: this.cols.minLen.map((c) => f.read(c, Uint32Array, b0, b1)),
      maxBoost: f.read(this.cols.boost, Float64Array, b0, b1),
    };
  }

  /** A term of one block whose bound is worked out on first use: a count of its documents, or their frequencies, needs none. */
  private withOnlyBound(t: Omit<TermBlocks, 'maxTf' | 'minLength' | 'maxBoost'>): TermBlocks {
    let b: Pick<TermBlocks, 'maxTf' | 'minLength' | 'maxBoost'> | undefined;
    const bound = () => (b ??= this.onlyBound(t.count, t.decode));
    return {
      ...t,
      get maxTf() {
        return bound().maxTf;
      },
      get minLength() {
        return bound().minLength;
      },
      get maxBoost() {
        return bound().maxBoost;
      },
    };
  }

  /** The bound of a term's only block, worked out from the block (none for a term without postings). */
  private onlyBound(count: number, decode: TermBlocks['decode']): Pick<TermBlocks, 'maxTf' | 'minLength' | 'maxBoost'> {
    const b = blockBuffers();
    if (count && decode(0, b)) {
      const { lengths, boosts } = this.docs();
      const x = blockBound(b, lengths, boosts, emptyBound());
      return { maxTf: x.maxTf.map((v) => Uint16Array.of(v)), minLength: x.minLength.map((v) => Uint32Array.of(v)), maxBoost: Float64Array.of(x.maxBoost) };
    }
    return { maxTf: FIELDS.map(() => new Uint16Array(0)), minLength: FIELDS.map(() => new Uint32Array(0)), maxBoost: new Float64Array(0) };
  }

  /** A term's postings decoded whole, the most recently used kept. */
  postings(termId: number): Postings {
    return this.whole(termId);
  }

  /** A term's frequency in each field in each of its postings (not to be written to: the arrays are kept). */
  tfs(termId: number): Uint16Array[] {
    return this.whole(termId).tfs;
  }

  /** A term's postings and frequencies, its blocks decoded once for all, the most recently used kept. */
  private whole(termId: number): Postings & { tfs: Uint16Array[] } {
    const known = this.decoded.get(termId);
    if (known) return known;
    const tb = this.blocks(termId);
    const docs = new Uint32Array(tb.count);
    const tfs = FIELDS.map(() => new Uint16Array(tb.count));
    const buf = blockBuffers();
    for (let b = 0; b < tb.blocks; b++) {
      const n = tb.decode(b, buf);
      docs.set(buf.docs.subarray(0, n), b * BLOCK);
      for (let f = 0; f < F; f++) tfs[f]!.set(buf.tf[f]!.subarray(0, n), b * BLOCK);
    }
    const p = { docs, tfs };
    return this.has(termId) ? this.decoded.set(termId, p) : p;
  }

  clear(): void {
    this.read.clear();
    this.decoded.clear();
  }

  close(): void {
    this.clear();
    this.file.close();
  }
}
