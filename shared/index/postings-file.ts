/**
 * @module shared/index/postings-file
 * The postings file (shared/index/postings) as a reader reads it: a term's
 * blocks with their skip data and bounds, each decoded only when asked
 * (`blocks`), or the term's postings decoded whole (`postings`, `tf`) for
 * the callers that walk all of them. A term's compressed words and skip
 * data are read in one piece and kept, the most recently used, as are the
 * whole terms decoded.
 */
import { HzError } from '../errors.js';
import { INDEX_FILES } from './format.js';
import { Lru } from './lru.js';
import { PageCache, PagedFile, type PagedColumn } from './paged.js';
import { BLOCK, blockBuffers, decodeBlock, type DecodedBlock } from './postings-codec.js';
import { FIELDS, type Postings, type TermBlocks } from './types.js';

const F = FIELDS.length;
/** Compressed words and skip data a reader keeps read (4 bytes each): 16 MiB. */
const CACHED_WORDS = 4_000_000;
/** Postings a reader keeps decoded whole (8 bytes each, the commonest terms' stay): 16 MiB. */
const CACHED_POSTINGS = 2_000_000;
/** Words of skip data and bounds a block: last, where it starts, a largest tf and a shortest length a field, the largest boost. */
const BLOCK_WORDS = 3 + 2 * F + 2;

const EMPTY: TermBlocks = {
  count: 0,
  blocks: 0,
  last: new Uint32Array(0),
  maxTf: FIELDS.map(() => new Uint16Array(0)),
  minLength: FIELDS.map(() => new Uint32Array(0)),
  maxBoost: new Float64Array(0),
  decode: () => 0,
};

export class PostingsFile {
  private readonly file: PagedFile;
  /** Each term's first posting, and first block. */
  private readonly start: Uint32Array;
  private readonly firstBlock: Uint32Array;
  private readonly cols: { at: PagedColumn; last: PagedColumn; maxTf: PagedColumn[]; minLen: PagedColumn[]; boost: PagedColumn; data: PagedColumn };
  private readonly read = new Lru<number, TermBlocks>(CACHED_WORDS, (b) => b.blocks * BLOCK_WORDS + b.count / 4 + 1);
  private readonly decoded = new Lru<number, Postings>(CACHED_POSTINGS, (p) => p.docs.length || 1);

  /** Opens `<dir>/postings` of an index of `termCount` terms; a file of other terms or blocks is refused by `inconsistent`. */
  constructor(dir: string, cache: PageCache, termCount: number, inconsistent: () => HzError) {
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
      this.start = f.all('start', Uint32Array);
      if (this.start.length !== termCount + 1) throw inconsistent();
      this.firstBlock = new Uint32Array(termCount + 1);
      for (let t = 0; t < termCount; t++) this.firstBlock[t + 1] = this.firstBlock[t]! + Math.ceil((this.start[t + 1]! - this.start[t]!) / BLOCK);
      const B = this.firstBlock[termCount]!;
      const { at, last, maxTf, minLen, boost } = this.cols;
      if (at.length !== B + 1 || [last, boost, ...maxTf, ...minLen].some((c) => c.length !== B)) throw inconsistent();
    } catch (e) {
      this.file.close();
      throw e;
    }
  }

  private has(termId: number): boolean {
    return termId >= 0 && termId < this.start.length - 1;
  }

  /** A term's blocks: read on first use (its words and skip data in one piece each), decoded when asked. */
  blocks(termId: number): TermBlocks {
    if (!this.has(termId)) return EMPTY;
    const known = this.read.get(termId);
    if (known) return known;
    const b0 = this.firstBlock[termId]!;
    const b1 = this.firstBlock[termId + 1]!;
    const f = this.file;
    const at = f.read(this.cols.at, Uint32Array, b0, b1 + 1);
    const words = f.read(this.cols.data, Uint32Array, at[0]!, at[b1 - b0]!);
    const last = f.read(this.cols.last, Uint32Array, b0, b1);
    const count = this.start[termId + 1]! - this.start[termId]!;
    const decode = (b: number, out: DecodedBlock, withTf = true) => {
      const n = decodeBlock(words, at[b]! - at[0]!, b ? last[b - 1]! : -1, out, withTf);
      if (n !== Math.min(BLOCK, count - b * BLOCK)) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${f.file}: block ${b0 + b} holds ${n} postings, not ${Math.min(BLOCK, count - b * BLOCK)}`);
      return n;
    };
    return this.read.set(termId, {
      count,
      blocks: b1 - b0,
      last,
      maxTf: this.cols.maxTf.map((c) => f.read(c, Uint16Array, b0, b1)),
      minLength: this.cols.minLen.map((c) => f.read(c, Uint32Array, b0, b1)),
      maxBoost: f.read(this.cols.boost, Float64Array, b0, b1),
      decode,
    });
  }

  /** A term's postings decoded whole, the most recently used kept. */
  postings(termId: number): Postings {
    if (!this.has(termId)) return { docs: new Uint32Array(0), entries: new Uint32Array(0) };
    const known = this.decoded.get(termId);
    if (known) return known;
    const tb = this.blocks(termId);
    const docs = new Uint32Array(tb.count);
    const entries = new Uint32Array(tb.count);
    const buf = blockBuffers();
    for (let b = 0; b < tb.blocks; b++) {
      const n = tb.decode(b, buf, false);
      docs.set(buf.docs.subarray(0, n), b * BLOCK);
      entries.set(buf.entries.subarray(0, n), b * BLOCK);
    }
    return this.decoded.set(termId, { docs, entries });
  }

  /** A term's frequency in each field in each of its postings, its blocks decoded once for all the fields. */
  tfs(termId: number): Uint16Array[] {
    const tb = this.blocks(termId);
    const out = FIELDS.map(() => new Uint16Array(tb.count));
    const buf = blockBuffers();
    for (let b = 0; b < tb.blocks; b++) {
      const n = tb.decode(b, buf);
      for (let f = 0; f < out.length; f++) out[f]!.set(buf.tf[f]!.subarray(0, n), b * BLOCK);
    }
    return out;
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
