/**
 * @module searcher/rank/score
 * The score of a document for a query: BM25F over title, anchor, url and
 * content, plus the proximity bonus, plus a small saturating link prior
 * `linkWeight · boost/(boost+1)` from the link score the indexer stored.
 * IDFs, term ids and field constants are fixed once per query; a document
 * costs one forward-index lookup per term. `explain` returns every factor,
 * for the /explain page.
 */
import { FIELDS, type Field, type IndexReader } from '../../shared/index/types.js';
import { Bm25fQuery, idf, type TermScore, type TermStats } from './bm25f.js';
import { DocTerms } from './docterms.js';
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

/** Saturating link prior: grows with the link score but never past `weight`. */
export function linkPrior(boost: number, weight: number): number {
  const b = Number.isFinite(boost) && boost > 0 ? boost : 0;
  return (weight * b) / (b + 1);
}

/**
 * A scorer for `terms` (distinct, in query order). `docTerms`, when given,
 * must hold them: a search shares one with its matcher, so each candidate's
 * entries are looked up once.
 */
export function makeScorer(
  reader: IndexReader,
  terms: readonly string[],
  params: RankParams,
  docTerms = new DocTerms(reader, terms),
  /** Terms that score at less than full weight (synonyms); BM25F is linear in a term's idf. */
  weights: ReadonlyMap<string, number> = new Map(),
): Scorer {
  const stats = readerStats(reader);
  const idfs = terms.map((t) => idf(stats.docCount, stats.docFreq(t)) * (weights.get(t) ?? 1));
  const slots = terms.map((t) => docTerms.slot(t));
  const query = new Bm25fQuery(idfs, stats, params.bm25f.k1, params.bm25f.fields, slots);
  // Proximity reads at most maxPositions of each word, so no more are decoded.
  const positions = (max?: number) => slots.map((s) => docTerms.positions(s, max));
  const bonus = (max?: number) => proximity(terms, positions(max), idfs, params.proximity);
  return {
    base(id) {
      return query.score(docTerms.load(id)) + linkPrior(reader.doc(id).boost, params.linkWeight);
    },
    proximity(id) {
      if (terms.length < 2 || params.proximity.weight === 0) return 0;
      docTerms.load(id);
      return bonus(params.proximity.maxPositions).bonus;
    },
    explain(id) {
      docTerms.load(id);
      const termScores = terms.map((t, i) => query.explainTerm(t, i, docTerms));
      const base = termScores.reduce((s, t) => s + t.score, 0);
      const prox = bonus();
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
