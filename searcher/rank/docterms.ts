/**
 * @module searcher/rank/docterms
 * A query's terms looked up in the index: dictionary ids once per query,
 * then the forward-index entries of one document at a time. Matching,
 * BM25F and proximity all read the entries of the document at hand, so a
 * candidate costs one binary search per term, not one per term, field and
 * rule, and no term is looked up by its string per document. A search over
 * many candidates finds which of them hold each term, and their frequencies,
 * at once from the terms' postings (`locate`), from the blocks that hold
 * them: read in postings order, the pages of the common terms' blocks are
 * read again by the next query. The entries themselves, which the postings
 * do not keep, are found in the forward index only when a candidate's
 * positions or sections are read: most candidates are passed over on their
 * frequencies alone.
 */
import { FIELDS, type IndexReader } from '../../shared/index/types.js';
import type { DocVector } from './bm25f.js';
import { lowerBound } from '../../shared/bisect.js';
import { BLOCK, blockBuffers } from '../../shared/index/postings-codec.js';
import { TF_MAX } from '../../shared/index/tf-codes.js';

const F = FIELDS.length;
const TITLE = FIELDS.indexOf('title');
const CONTENT = FIELDS.indexOf('content');
/** A located document's entry of a term it holds, not searched for yet. */
const UNSEARCHED = -2;
/** A block decoded by `locate`: its documents, then the frequencies of the places it looks up. */
const block = blockBuffers();
/** The places of a block `locate` looks up, and the rows of `ids` they are. */
const places = new Uint8Array(BLOCK);
const rows = new Uint32Array(BLOCK);

/** Also the BM25F view of the document at hand: its field lengths and each slot's frequencies. */
export class DocTerms implements DocVector {
  /** Distinct terms, in the order first given; a term's slot is its index here. */
  readonly terms: readonly string[];
  private readonly ids: Int32Array;
  private readonly entries: Int32Array;
  readonly lengths = new Float64Array(F);
  /** `tf[slot * FIELDS.length + f]`. */
  readonly tf: Float64Array;
  private doc = -1;
  /** The document whose lengths and frequencies `lengths` and `tf` hold. */
  private filled = -1;
  /** Entries of the located documents: `located[i * terms + slot]` (UNSEARCHED until asked for, -1 for none). */
  private located = new Int32Array(0);
  /** Where each located entry's posting stands in its term's list (`block * BLOCK + place`), -1 for none: as `located`. */
  private locatedAt = new Int32Array(0);
  /** The located documents, ascending. */
  private locatedIds: Uint32Array = new Uint32Array(0);
  /** Frequencies of the located documents: `locatedTf[(i * terms + slot) * FIELDS.length + f]`. */
  private locatedTf = new Uint16Array(0);
  /** The document at hand's index among the located ones, -1 when it is not one of them. */
  private row = -1;

  constructor(
    private readonly reader: IndexReader,
    terms: Iterable<string>,
  ) {
    this.terms = [...new Set(terms)];
    this.ids = Int32Array.from(this.terms, (t) => reader.termId(t));
    this.entries = new Int32Array(this.terms.length).fill(-1);
    this.tf = new Float64Array(this.terms.length * F);
  }

  /** The slot of a term given to the constructor. */
  slot(term: string): number {
    const s = this.terms.indexOf(term);
    if (s < 0) throw new RangeError(`term ${term} is not one of the query's`);
    return s;
  }

  /** Makes `id` the document at hand with its field lengths and frequencies (a no-op when it already is). */
  load(id: number): this {
    this.select(id);
    if (this.filled !== id) this.fill();
    return this;
  }

  /** Makes `id` the document at hand for `has`, `freq` and `positions` only (matching needs no more). */
  select(id: number): this {
    if (id === this.doc) return this;
    // A located document's entries are found by one search among the located ids, not one per term.
    const i = lowerBound(this.locatedIds, id, 0);
    if (this.locatedIds[i] === id) return this.selectAt(i, id);
    for (let s = 0; s < this.ids.length; s++) this.entries[s] = this.reader.entry(id, this.ids[s]!);
    this.doc = id;
    this.row = -1;
    return this;
  }

  /**
   * Finds the entries and frequencies of documents `ids` (ascending) by
   * walking each term's blocks beside them: only the blocks holding one of
   * `ids` are decoded, so a common term costs the blocks its candidates are
   * in, not its whole list, and a document's entry is searched for only
   * where it holds the term. `selectAt(i, ids[i])` then makes `ids[i]` the
   * document at hand without a search.
   */
  locate(ids: Uint32Array): void {
    const S = this.ids.length;
    const n = ids.length;
    const located = (this.located = new Int32Array(n * S).fill(-1));
    const locatedAt = (this.locatedAt = new Int32Array(n * S).fill(-1));
    const locatedTf = (this.locatedTf = new Uint16Array(n * S * F));
    this.locatedIds = ids;
    for (let s = 0; s < S; s++) {
      const t = this.ids[s]!;
      if (t < 0) continue;
      const { blocks, last, decode, decodePlaces } = this.reader.postingBlocks(t);
      let b = -1;
      let count = 0;
      let pos = 0;
      // The places of the block at hand that hold one of `ids`: only their frequencies are unpacked.
      let k = 0;
      const found = () => {
        if (k === 0) return;
        decodePlaces(b, places, k, block);
        for (let j = 0; j < k; j++) {
          const at = rows[j]! * S + s;
          located[at] = UNSEARCHED;
          locatedAt[at] = b * BLOCK + places[j]!;
          for (let f = 0; f < F; f++) locatedTf[at * F + f] = block.tf[f]![j]!;
        }
        k = 0;
      };
      for (let i = 0; i < n; i++) {
        const id = ids[i]!;
        if (b < 0 || last[b]! < id) {
          found();
          b = lowerBound(last, id, b < 0 ? 0 : b);
          if (b === blocks) break;
          count = decode(b, block, false);
          pos = 0;
        }
        while (pos < count && block.docs[pos]! < id) pos++;
        if (pos === count || block.docs[pos] !== id) continue;
        places[k] = pos;
        rows[k++] = i;
      }
      found();
    }
    this.doc = -1;
    this.row = -1;
  }

  /** Makes `id`, the i-th document given to `locate`, the document at hand (as `select`). */
  selectAt(i: number, id: number): this {
    const S = this.ids.length;
    for (let s = 0; s < S; s++) this.entries[s] = this.located[i * S + s]!;
    this.doc = id;
    this.row = i;
    return this;
  }

  /** Where the i-th located document's posting of a slot stands in its term's list (`block * BLOCK + place`); -1 when it lacks the term. */
  postingAt(i: number, slot: number): number {
    return this.locatedAt[i * this.ids.length + slot]!;
  }

  /** The forward-index entry of a slot in the document at hand; -1 when it lacks the term. */
  entry(slot: number): number {
    const e = this.entries[slot]!;
    if (e !== UNSEARCHED) return e;
    const found = (this.entries[slot] = this.reader.entry(this.doc, this.ids[slot]!));
    return (this.located[this.row * this.ids.length + slot] = found);
  }

  private fill(): void {
    const r = this.reader;
    for (let f = 0; f < F; f++) this.lengths[f] = r.fieldLength(this.doc, FIELDS[f]!);
    for (let s = 0; s < this.ids.length; s++) for (let f = 0; f < F; f++) this.tf[s * F + f] = this.freq(s, f);
    this.filled = this.doc;
  }

  /** Whether the document at hand holds the term in any field. */
  has(slot: number): boolean {
    return this.entries[slot] !== -1;
  }

  /** Raw frequency in the document at hand; `field` is an index into FIELDS. */
  freq(slot: number, field: number): number {
    if (!this.has(slot)) return 0;
    return this.row < 0 ? this.reader.entryTf(this.entries[slot]!, field) : this.locatedTf[(this.row * this.ids.length + slot) * F + field]!;
  }

  /**
   * How many positions (title + content occurrences) a slot has in the document at hand, when its postings told:
   * undefined for a document not located, or a count at its cap (TF_MAX) in either field.
   */
  positionCount(slot: number): number | undefined {
    if (this.row < 0) return undefined;
    if (!this.has(slot)) return 0;
    const at = (this.row * this.ids.length + slot) * F;
    const title = this.locatedTf[at + TITLE]!;
    const content = this.locatedTf[at + CONTENT]!;
    return title < TF_MAX && content < TF_MAX ? title + content : undefined;
  }

  /** Whether a slot may have positions in the document at hand: false when it lacks the term, or its postings told it has none there (anchors or URL only). */
  mayHavePositions(slot: number): boolean {
    return this.has(slot) && this.positionCount(slot) !== 0;
  }

  /**
   * Positions in the document at hand's title + content stream; the first `max` when given. A located document's
   * count of them is known: with none, no entry is searched for, and the forward file's counts are not read.
   */
  positions(slot: number, max?: number): readonly number[] {
    const count = this.positionCount(slot);
    if (count === 0) return [];
    const e = this.entry(slot);
    return e < 0 ? [] : this.reader.entryPositions(e, max, count);
  }
}
