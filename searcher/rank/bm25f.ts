/**
 * @module searcher/rank/bm25f
 * BM25F (Robertson, Zaragoza, Taylor 2004): each field's term frequency is
 * length-normalised with its own b and weighted, the weighted sum is
 * saturated once with k1, then multiplied by the term's IDF. Saturating
 * after the sum is what keeps a word repeated in title, anchors and body
 * from counting three times over. Pure arithmetic: statistics come through
 * `TermStats` and `DocStats`, so a merged index, per-segment indexes or a
 * remote shard can all feed the same scorer.
 */
import { FIELDS, type Field } from '../../shared/index/types.js';

export interface FieldParams {
  /** Weight of one occurrence in this field relative to one in the body. Range 0–10. */
  weight: number;
  /** Length normalisation, 0 (none) … 1 (full). */
  b: number;
  /**
   * Length past which the field's length counts in full (as b = 1): a body
   * longer than this many terms is taken for several texts side by side, not
   * one wordy text, so an occurrence in it weighs what it would in a window
   * of this length holding its share of the occurrences. Infinity when absent.
   */
  window?: number;
}

export interface Bm25fParams {
  /**
   * Term-frequency saturation, typically 0.5–3. Higher lets repeated
   * occurrences keep counting; documentation pages gained from a k1 above
   * the textbook 1.2 (reference/ranking.md §4).
   */
  k1: number;
  fields: Record<Field, FieldParams>;
}

/** Collection statistics. */
export interface TermStats {
  docCount: number;
  avgFieldLength(field: Field): number;
  /** Documents holding the term in any field (an estimate is fine). */
  docFreq(term: string): number;
  /** The average section's length (searcher/rank/sections); the index's own when absent. */
  avgSectionLength?: number;
}

/** One document's statistics. */
export interface DocStats {
  termFreq(field: Field, term: string): number;
  fieldLength(field: Field): number;
}

export interface TermScore {
  term: string;
  idf: number;
  /** Weighted, length-normalised frequency summed over fields, before saturation. */
  tf: number;
  score: number;
  fields: Partial<Record<Field, { tf: number; length: number; avgLength: number; normalised: number }>>;
}

/** Robertson–Spärck Jones IDF, kept positive (the +1 inside the log). */
export function idf(docCount: number, df: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/**
 * A field's length normalisation: a raw tf is divided by this (1 at average
 * length). Past `window` terms it grows in proportion to the length: the tf
 * is scaled to the window's share of the field, then normalised at the
 * window's length.
 */
export function lengthNorm(length: number, avgLength: number, b: number, window = Infinity): number {
  if (length <= window) return 1 - b + (b * length) / avgLength;
  return ((1 - b + (b * window) / avgLength) * length) / window;
}

const saturate = (tf: number, idfValue: number, k1: number) => (tf === 0 ? 0 : (idfValue * tf * (k1 + 1)) / (tf + k1));

/**
 * An upper bound of a term's score at `idf` in a document where it scores
 * `unit` at idf 1 (a Bm25fQuery with idf 1 gives it): the score is linear in
 * the idf, and the margin covers rounding. Pruning (searcher/prune) takes its
 * bounds from here, so it stays exact when the formula changes with them.
 */
export function termBound(unit: number, idfValue: number): number {
  return unit * idfValue * (1 + 1e-9);
}

const F = FIELDS.length;

/**
 * One document's statistics as flat arrays: `lengths[f]` of field
 * FIELDS[f], `tf[row * FIELDS.length + f]` the raw frequency of the term in
 * that row (0 when absent).
 */
export interface DocVector {
  readonly lengths: ArrayLike<number>;
  readonly tf: ArrayLike<number>;
}

/**
 * BM25F prepared for one query, for scoring many documents: IDFs and field
 * constants fixed once, each document's length norms computed once for all
 * its terms, no lookup by name and no allocation per document.
 */
export class Bm25fQuery {
  private readonly weight: Float64Array;
  private readonly b: Float64Array;
  private readonly window: Float64Array;
  private readonly avg: Float64Array;
  private readonly norms = new Float64Array(F);

  /** `rows[t]`: the DocVector row of query term t (default: row t). */
  constructor(
    readonly idfs: readonly number[],
    stats: TermStats,
    private readonly k1: number,
    fields: Bm25fParams['fields'],
    private readonly rows: ArrayLike<number> = idfs.map((_, t) => t),
  ) {
    this.weight = Float64Array.from(FIELDS, (f) => fields[f].weight);
    this.b = Float64Array.from(FIELDS, (f) => fields[f].b);
    this.window = Float64Array.from(FIELDS, (f) => fields[f].window ?? Infinity);
    this.avg = Float64Array.from(FIELDS, (f) => stats.avgFieldLength(f) || 1);
  }

  score(doc: DocVector): number {
    this.setNorms(doc);
    let total = 0;
    for (let t = 0; t < this.idfs.length; t++) total += saturate(this.weightedTf(t, doc), this.idfs[t]!, this.k1);
    return total;
  }

  /** Each term's score, into `out` (one per term): for callers that combine them otherwise than by a sum. */
  termScores(doc: DocVector, out: Float64Array): Float64Array {
    this.setNorms(doc);
    for (let t = 0; t < this.idfs.length; t++) out[t] = saturate(this.weightedTf(t, doc), this.idfs[t]!, this.k1);
    return out;
  }

  /** One term's score with every factor, for /explain. */
  explainTerm(term: string, t: number, doc: DocVector): TermScore {
    this.setNorms(doc);
    const fields: TermScore['fields'] = {};
    const w = this.weightedTf(t, doc, fields);
    return { term, idf: this.idfs[t]!, tf: w, score: saturate(w, this.idfs[t]!, this.k1), fields };
  }

  /**
   * Each term's weighted tf in `doc` over every field but `body` and
   * `heading`, into `out`: what the parts of a document that differ only in
   * their body share (searcher/rank/sections; a part's heading is in its body).
   */
  sharedTf(doc: DocVector, body: number, heading: number, out: Float64Array): Float64Array {
    this.setNorms(doc);
    for (let t = 0; t < this.idfs.length; t++) {
      const row = this.rows[t]! * F;
      let w = 0;
      for (let f = 0; f < F; f++) if (f !== body && f !== heading && this.weight[f] !== 0) w += (this.weight[f]! * doc.tf[row + f]!) / this.norms[f]!;
      out[t] = w;
    }
    return out;
  }

  /** Field f's weight over its length norm at `length`: one occurrence's share of a term's weighted tf. */
  unitTf(f: number, length: number): number {
    return this.weight[f]! / lengthNorm(length, this.avg[f]!, this.b[f]!, this.window[f]!);
  }

  /** Term t's score at weighted tf `w`. */
  termScore(t: number, w: number): number {
    return saturate(w, this.idfs[t]!, this.k1);
  }

  private setNorms(doc: DocVector): void {
    for (let f = 0; f < F; f++) this.norms[f] = lengthNorm(doc.lengths[f]!, this.avg[f]!, this.b[f]!, this.window[f]!);
  }

  /** The weighted, length-normalised frequency summed over fields; fills `out` with each field's factors when given. */
  private weightedTf(t: number, doc: DocVector, out?: TermScore['fields']): number {
    const row = this.rows[t]! * F;
    let w = 0;
    for (let f = 0; f < F; f++) {
      if (this.weight[f] === 0) continue;
      const raw = doc.tf[row + f]!;
      if (raw === 0) continue;
      const normalised = raw / this.norms[f]!;
      if (out) out[FIELDS[f]!] = { tf: raw, length: doc.lengths[f]!, avgLength: this.avg[f]!, normalised };
      w += this.weight[f]! * normalised;
    }
    return w;
  }
}

/** A DocStats as a DocVector over `terms`. */
function vectorOf(terms: readonly string[], doc: DocStats): DocVector {
  return { lengths: FIELDS.map((f) => doc.fieldLength(f)), tf: terms.flatMap((t) => FIELDS.map((f) => doc.termFreq(f, t))) };
}

/** Score of one query term in one document, with its factors. */
export function bm25fTerm(term: string, doc: DocStats, stats: TermStats, p: Bm25fParams): TermScore {
  return new Bm25fQuery([idf(stats.docCount, stats.docFreq(term))], stats, p.k1, p.fields).explainTerm(term, 0, vectorOf([term], doc));
}

/** Sum over the query terms, IDFs computed once per query by the caller. */
export function bm25f(terms: readonly string[], idfs: readonly number[], doc: DocStats, stats: TermStats, p: Bm25fParams): number {
  return new Bm25fQuery(idfs, stats, p.k1, p.fields).score(vectorOf(terms, doc));
}
