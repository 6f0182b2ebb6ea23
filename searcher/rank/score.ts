/**
 * @module searcher/rank/score
 * The score of a document for a query: BM25F over title, anchor, url and
 * content, plus the proximity bonus, plus a small saturating link prior
 * `linkWeight · boost/(boost+1)` from the link score the indexer stored.
 * IDFs are computed once per query. `explain` returns every factor, for
 * the /explain page.
 */
import { FIELDS, type Field, type IndexReader } from '../../shared/index/types.js';
import { bm25f, bm25fTerm, idf, type DocStats, type TermScore, type TermStats } from './bm25f.js';
import type { RankParams } from './params.js';
import { proximity, type PairProximity } from './proximity.js';

export interface Explanation {
  score: number;
  bm25f: number;
  terms: TermScore[];
  proximity: number;
  pairs: PairProximity[];
  linkBoost: number;
  linkPrior: number;
  params: RankParams;
  docCount: number;
}

export interface Scorer {
  /** BM25F plus the link prior: cheap, for every candidate. */
  base(id: number): number;
  /** The proximity bonus: positions are decoded, so only for the best candidates. */
  proximity(id: number): number;
  explain(id: number): Explanation;
}

/** Collection statistics of a reader; a term's document frequency is its largest per-field one. */
export function readerStats(reader: IndexReader): TermStats {
  return {
    docCount: reader.meta.docCount,
    avgFieldLength: (f: Field) => reader.meta.avgFieldLength[f],
    docFreq: (term: string) => Math.max(...FIELDS.map((f) => reader.docFreq(f, term))),
  };
}

function docStats(reader: IndexReader, id: number): DocStats {
  return { termFreq: (f, t) => reader.termFreq(id, f, t), fieldLength: (f) => reader.fieldLength(id, f) };
}

/** Saturating link prior: grows with the link score but never past `weight`. */
export function linkPrior(boost: number, weight: number): number {
  const b = Number.isFinite(boost) && boost > 0 ? boost : 0;
  return (weight * b) / (b + 1);
}

export function makeScorer(reader: IndexReader, terms: readonly string[], params: RankParams): Scorer {
  const stats = readerStats(reader);
  const idfs = terms.map((t) => idf(stats.docCount, stats.docFreq(t)));
  const positionsOf = (id: number) => terms.map((t) => reader.positions(id, t));
  return {
    base(id) {
      return bm25f(terms, idfs, docStats(reader, id), stats, params.bm25f) + linkPrior(reader.doc(id).boost, params.linkWeight);
    },
    proximity(id) {
      return terms.length > 1 && params.proximity.weight > 0 ? proximity(terms, positionsOf(id), idfs, params.proximity).bonus : 0;
    },
    explain(id) {
      const ds = docStats(reader, id);
      const termScores = terms.map((t) => bm25fTerm(t, ds, stats, params.bm25f));
      const base = termScores.reduce((s, t) => s + t.score, 0);
      const prox = proximity(terms, positionsOf(id), idfs, params.proximity);
      const boost = reader.doc(id).boost;
      const prior = linkPrior(boost, params.linkWeight);
      return {
        score: base + prox.bonus + prior,
        bm25f: base,
        terms: termScores,
        proximity: prox.bonus,
        pairs: prox.pairs,
        linkBoost: boost,
        linkPrior: prior,
        params,
        docCount: stats.docCount,
      };
    },
  };
}
