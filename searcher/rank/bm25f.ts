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
 * The weighted, length-normalised frequency of a term summed over fields;
 * fills `out` with each field's factors when given (for /explain).
 */
function weightedTf(term: string, doc: DocStats, stats: TermStats, p: Bm25fParams, out?: TermScore['fields']): number {
  let tf = 0;
  for (const f of FIELDS) {
    const fp = p.fields[f];
    if (fp.weight === 0) continue;
    const raw = doc.termFreq(f, term);
    if (raw === 0) continue;
    const length = doc.fieldLength(f);
    const avgLength = stats.avgFieldLength(f) || 1;
    const normalised = raw / (1 - fp.b + (fp.b * length) / avgLength);
    if (out) out[f] = { tf: raw, length, avgLength, normalised };
    tf += fp.weight * normalised;
  }
  return tf;
}

const saturate = (tf: number, idfValue: number, k1: number) => (tf === 0 ? 0 : (idfValue * tf * (k1 + 1)) / (tf + k1));

/** Score of one query term in one document, with its factors for /explain. */
export function bm25fTerm(term: string, doc: DocStats, stats: TermStats, p: Bm25fParams): TermScore {
  const fields: TermScore['fields'] = {};
  const tf = weightedTf(term, doc, stats, p, fields);
  const i = idf(stats.docCount, stats.docFreq(term));
  return { term, idf: i, tf, score: saturate(tf, i, p.k1), fields };
}

/** Sum over the query terms, IDFs computed once per query by the caller. */
export function bm25f(terms: readonly string[], idfs: readonly number[], doc: DocStats, stats: TermStats, p: Bm25fParams): number {
  let total = 0;
  for (let t = 0; t < terms.length; t++) total += saturate(weightedTf(terms[t]!, doc, stats, p), idfs[t]!, p.k1);
  return total;
}
