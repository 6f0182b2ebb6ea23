/**
 * @module shared/index/postings-merge
 * The postings file of a merged index made from its inputs' postings files
 * rather than by inverting its documents again: the merged index's
 * documents are the inputs' kept documents, input by input and in id order
 * within each, so a term's postings are the concatenation of its postings in
 * each input with their documents renumbered and the documents left out
 * dropped. The inputs' dictionaries are sorted as the merged one is, so the
 * terms are a k-way merge walked once front to back; per term each input's
 * blocks are decoded, remapped and cut into blocks again, each block's bound
 * recomputed from the merged index's field lengths and link scores. An
 * input's postings of an older format hold forward-index entries, passed
 * over: the merged index's are found in its forward index. Memory holds a
 * window of each input's columns and a few numbers a document, whatever the
 * postings' size.
 */
import { HzError } from '../errors.js';
import { IndexFileColumns, INDEX_FILES } from './format.js';
import { BLOCK, blockBuffers, decodeBlock, type DecodedBlock } from './postings-codec.js';
import { BlockWriter } from './postings.js';

/** Elements of an input's column read at a time. */
const WINDOW = 1 << 18;

/** An index whose postings a merge takes: where it is, its sorted dictionary, and each of its documents' id in the merged index (-1: left out). */
export interface PostingsInput {
  dir: string;
  words: readonly string[];
  docOf: Int32Array;
}

/** What the merged index knows of its documents when its postings are written. */
export interface MergedDocs {
  /** The merged index's dictionary, sorted. */
  words: readonly string[];
  /** Each document's field lengths (`[doc * FIELDS.length + f]`) and link score: the blocks' bounds. */
  lengths: Uint32Array;
  boosts: Float64Array;
}

/** A column of an input read a window at a time, for ranges that only move forward. */
class ColumnWindow<C extends Uint32Array | Float64Array> {
  private from = 0;
  private to = 0;
  private buf: C;

  constructor(
    private readonly cols: IndexFileColumns,
    private readonly name: string,
    private readonly ctor: { new (n: number): C; BYTES_PER_ELEMENT: number },
  ) {
    this.buf = new ctor(0);
  }

  /** Elements `a` to `b` (exclusive), valid until the next call. */
  range(a: number, b: number): C {
    if (a < this.from || b > this.to) {
      this.from = a;
      this.to = Math.max(b, Math.min(a + WINDOW, this.cols.length(this.name)));
      this.buf = this.cols.read(this.name, this.ctor, this.from, this.to);
    }
    return this.buf.subarray(a - this.from, b - this.from) as C;
  }
}

/** One input's postings file walked term by term in dictionary order. */
class InputCursor {
  private readonly file: IndexFileColumns;
  private readonly start: ColumnWindow<Uint32Array>;
  private readonly at: ColumnWindow<Uint32Array>;
  private readonly last: ColumnWindow<Uint32Array>;
  private readonly data: ColumnWindow<Uint32Array>;
  private readonly terms: number;
  /** The term at hand and its first block. */
  term = 0;
  private block = 0;

  constructor(readonly input: PostingsInput) {
    const fwd = new IndexFileColumns(input.dir, INDEX_FILES.forward);
    const docStarts = fwd.length('start');
    fwd.close();
    this.file = new IndexFileColumns(input.dir, INDEX_FILES.postings);
    this.terms = input.words.length;
    if (this.file.length('start') !== this.terms + 1 || docStarts !== input.docOf.length + 1)
      throw new HzError('HZ_ERR_INDEX_FORMAT', `index ${input.dir}: its postings file disagrees with its dictionary or documents`);
    this.start = new ColumnWindow(this.file, 'start', Uint32Array);
    this.at = new ColumnWindow(this.file, 'block.at', Uint32Array);
    this.last = new ColumnWindow(this.file, 'block.last', Uint32Array);
    this.data = new ColumnWindow(this.file, 'data', Uint32Array);
  }

  get done(): boolean {
    return this.term >= this.terms;
  }

  get word(): string {
    return this.input.words[this.term]!;
  }

  /** Postings of the term at hand. */
  private count(): number {
    const s = this.start.range(this.term, this.term + 2);
    return s[1]! - s[0]!;
  }

  /** Moves past the term at hand. */
  next(): void {
    this.block += Math.ceil(this.count() / BLOCK);
    this.term++;
  }

  /**
   * Appends the term at hand's postings of kept documents to `out`,
   * renumbered; returns how many.
   */
  copy(out: BlockWriter): number {
    const count = this.count();
    const blocks = Math.ceil(count / BLOCK);
    const b0 = this.block;
    const at = this.at.range(b0, b0 + blocks + 1);
    const w0 = at[0]!;
    const words = this.data.range(w0, at[blocks]!);
    const last = this.last.range(b0, b0 + blocks);
    const buf = (this.buf ??= blockBuffers());
    let n = 0;
    for (let b = 0; b < blocks; b++) {
      const got = decodeBlock(words, at[b]! - w0, b ? last[b - 1]! : -1, buf);
      if (got !== Math.min(BLOCK, count - b * BLOCK)) throw new HzError('HZ_ERR_INDEX_FORMAT', `index file ${this.file.file}: block ${b0 + b} holds ${got} postings, not ${Math.min(BLOCK, count - b * BLOCK)}`);
      n += out.addRenumbered(buf, this.input.docOf);
    }
    return n;
  }

  private buf: DecodedBlock | undefined;

  close(): void {
    this.file.close();
  }
}

/**
 * Writes `<dir>/postings` of the merged index `docs` from its inputs'
 * postings files (spill files in `spillDir`); returns each term's number of
 * postings.
 */
export function mergePostings(dir: string, spillDir: string, inputs: readonly PostingsInput[], docs: MergedDocs): Uint32Array {
  const T = docs.words.length;
  const counts = new Uint32Array(T);
  const start = new Uint32Array(T + 1);
  const blocks = new BlockWriter(spillDir, docs.lengths, docs.boosts);
  const cursors: InputCursor[] = [];
  try {
    for (const input of inputs) cursors.push(new InputCursor(input));
    for (let r = 0; r < T; r++) {
      const w = docs.words[r]!;
      for (const c of cursors) {
        // Terms of an input none of whose documents is kept are not in the merged dictionary: passed over.
        while (!c.done && c.word < w) c.next();
        if (!c.done && c.word === w) {
          counts[r]! += c.copy(blocks);
          c.next();
        }
      }
      blocks.endTerm();
      start[r + 1] = start[r]! + counts[r]!;
    }
    blocks.write(dir, start);
  } finally {
    for (const c of cursors) c.close();
    blocks.remove();
  }
  return counts;
}
