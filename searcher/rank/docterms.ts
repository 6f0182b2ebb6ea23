/**
 * @module searcher/rank/docterms
 * A query's terms looked up in the index: dictionary ids once per query,
 * then the forward-index entries of one document at a time. Matching,
 * BM25F and proximity all read the entries of the document at hand, so a
 * candidate costs one binary search per term, not one per term, field and
 * rule, and no term is looked up by its string per document.
 */
import { FIELDS, type IndexReader } from '../../shared/index/types.js';
import type { DocVector } from './bm25f.js';

const F = FIELDS.length;

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

  /** Makes `id` the document at hand (a no-op when it already is). */
  load(id: number): this {
    if (id === this.doc) return this;
    const r = this.reader;
    for (let f = 0; f < F; f++) this.lengths[f] = r.fieldLength(id, FIELDS[f]!);
    for (let s = 0; s < this.ids.length; s++) {
      const e = (this.entries[s] = r.entry(id, this.ids[s]!));
      for (let f = 0; f < F; f++) this.tf[s * F + f] = e < 0 ? 0 : r.entryTf(e, f);
    }
    this.doc = id;
    return this;
  }

  /** Whether the document at hand holds the term in any field. */
  has(slot: number): boolean {
    return this.entries[slot]! >= 0;
  }

  /** Raw frequency in the document at hand; `field` is an index into FIELDS. */
  freq(slot: number, field: number): number {
    return this.tf[slot * F + field]!;
  }

  /** Positions in the document at hand's title + content stream; the first `max` when given. */
  positions(slot: number, max?: number): readonly number[] {
    const e = this.entries[slot]!;
    return e < 0 ? [] : this.reader.entryPositions(e, max);
  }
}
