/**
 * @module searcher/rank/score
 * The score of a document for a query: BM25F over title, anchor, url and
 * content, plus the proximity bonus, plus the section lift (what its best
 * section, searcher/rank/sections, or for a page longer than the body
 * window its windows, searcher/rank/windows, score above the page), plus a small
 * saturating link prior `linkWeight · boost/(boost+1)` from the link score
 * the indexer stored, plus the naming bonus (searcher/rank/naming): a page
 * whose title holds an identifier the query names, and the anchor votes of
 * links naming the page with the query's words. A navigation page's text score (all but the prior)
 * is multiplied by the weight the indexer gave its text
 * (crawler/parse/page-shape: the share of it that is prose), 1 for an
 * ordinary page; never above 1, so every bound of the score stays one.
 * IDFs, term ids and field constants are fixed once per query; a document
 * costs one forward-index lookup per term. `explain` returns every factor,
 * for the /explain page.
 */
import { FIELDS, type Field, type IndexReader } from '../../shared/index/types.js';
import { Bm25fQuery, idf, termBound, type TermScore, type TermStats } from './bm25f.js';
import { DocTerms } from './docterms.js';
import type { RankParams } from './params.js';
import { bodyPivot } from './pivot.js';
import { anchorVotes, identifierTerms, namingBonus } from './naming.js';
import { pairedWords, proximity, queryWords, unionPositions, type PairProximity } from './proximity.js';
import { sectionScorer, sectionVector } from './sections.js';
import { windowScorer, windowText, type LongPage } from './windows.js';

export interface Explanation {
  score: number;
  bm25f: number;
  terms: TermScore[];
  /** Words with synonyms: each alternative's terms; BM25F counts the best alternative of each. */
  alternatives: readonly (readonly (readonly string[])[])[];
  /** Related terms added to the query (searcher/query/expansion): each with the typed term it reads for and its weight. */
  related?: { term: string; of: string; weight: number }[];
  proximity: number;
  pairs: PairProximity[];
  /** The naming bonus: the page's title holds identifiers the query names; links to it name it with the query's words (the anchor votes). */
  naming: number;
  /** The page's best section, when it scores above the page. */
  section: { index: number; length: number; scoredLength: number; avgLength: number; bm25f: number; terms: TermScore[] } | undefined;
  /** A page longer than the body window (searcher/rank/windows): its opening's BM25F and its best window's. */
  windows: { opening: number; best: { start: number; length: number; bm25f: number; tf: Record<string, number> } } | undefined;
  /** What the page's parts add to its BM25F: the best of its best section's and its windows' text scores, less the page's (0 when none is above it). */
  sectionLift: number;
  /** The weight of the page's text (1, or a navigation page's prose share): BM25F, the section lift and proximity count times it. */
  prose: number;
  linkBoost: number;
  linkPrior: number;
  params: RankParams;
  docCount: number;
}

export interface Scorer {
  /** BM25F plus the link prior: cheap, for every candidate. */
  base(id: number): number;
  /**
   * An upper bound of `base(id)` from each term's score at idf 1 in the
   * document (`units[t]` for terms[t], 0 when absent): pruning scores in full
   * only the documents whose bound can reach the page.
   */
  bound(id: number, units: ArrayLike<number>): number;
  /** The proximity bonus and the naming bonus: positions are decoded, so only for the best candidates. */
  proximity(id: number): number;
  /**
   * What the page's parts add to its BM25F: its best section's and (for a
   * page longer than the body window) its windows' text scores above the
   * page's, 0 when none is above: section runs and positions are decoded, so
   * only for the best candidates.
   */
  sectionLift(id: number): number;
  explain(id: number): Explanation;
}

/**
 * Collection statistics of a reader; a term's document frequency is its
 * largest per-field one, the body's average length that of bodies cut at the
 * body window of `params` (searcher/rank/pivot).
 */
export function readerStats(reader: IndexReader, params?: Pick<RankParams, 'bm25f'>): TermStats {
  const body = bodyPivot(reader, params?.bm25f.fields.content.window ?? Infinity);
  return {
    docCount: reader.meta.docCount,
    avgFieldLength: (f: Field) => (f === 'content' ? body : reader.meta.avgFieldLength[f]),
    docFreq: (term: string) => termDocFreq(reader, reader.termId(term)),
    avgSectionLength: reader.meta.avgSectionLength,
  };
}

/** A term's document frequency by its id: its largest per-field one, as readerStats counts it. */
export const termDocFreq = (reader: IndexReader, termId: number): number => Math.max(...FIELDS.map((f) => reader.docFreqOf(f, termId)));

/**
 * Sums term scores, except that the alternatives of one word (the word and
 * its synonyms, each a list of term indexes) add only the best of them: they
 * name one thing, so a page that uses every synonym once, like an index of
 * pages about each, does not outscore the page about the thing itself.
 * Lucene's DisjunctionMax over a word's expansions, in effect.
 */
export function combiner(termCount: number, groups: readonly (readonly (readonly number[])[])[]): (scores: ArrayLike<number>) => number {
  const grouped = new Uint8Array(termCount);
  for (const g of groups) for (const a of g) for (const t of a) grouped[t] = 1;
  return (scores) => {
    let total = 0;
    for (let t = 0; t < termCount; t++) if (!grouped[t]) total += scores[t]!;
    for (const g of groups) {
      let best = 0;
      for (const a of g) {
        let s = 0;
        for (const t of a) s += scores[t]!;
        if (s > best) best = s;
      }
      total += best;
    }
    return total;
  };
}

/** A long page's windows as /explain shows them: each query term's count in the best window. */
function windowFactors(long: LongPage, terms: readonly string[]): NonNullable<Explanation['windows']> {
  const { start, length, score, tf } = long.best;
  return { opening: long.opening, best: { start, length, bm25f: score, tf: Object.fromEntries(terms.map((t, i) => [t, tf[i]!])) } };
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
  /** Words with synonyms: the terms of each alternative (AnalyzedQuery.alternatives). */
  alternatives: readonly (readonly (readonly string[])[])[] = [],
  /** Collection statistics: the reader's own, or a broker's over every shard (global IDF and field lengths). */
  stats: TermStats = readerStats(reader, params),
): Scorer {
  const idfs = terms.map((t) => idf(stats.docCount, stats.docFreq(t)) * (weights.get(t) ?? 1));
  const slots = terms.map((t) => docTerms.slot(t));
  const query = new Bm25fQuery(idfs, stats, params.bm25f.k1, params.bm25f.fields, slots);
  const groups = alternatives.map((g) => g.map((a) => a.map((t) => terms.indexOf(t)).filter((i) => i >= 0)));
  const combine = combiner(terms.length, groups);
  const termScores = new Float64Array(terms.length);
  const bm25 = (doc: DocTerms) => (groups.length ? combine(query.termScores(doc, termScores)) : query.score(doc));
  // A section is scored against the average section, the rest of the statistics the page's.
  const avgSection = stats.avgSectionLength ?? reader.meta.avgSectionLength;
  const sectionStats: TermStats = { ...stats, avgFieldLength: (f) => (f === 'content' ? avgSection : stats.avgFieldLength(f)) };
  const sectionQuery = new Bm25fQuery(idfs, sectionStats, params.bm25f.k1, params.bm25f.fields, slots);
  /** The best section above the page's own BM25F `page` of the document loaded in docTerms. */
  const best = sectionScorer(reader, docTerms, sectionQuery, slots, combine, avgSection);
  const window = params.bm25f.fields.content.window ?? Infinity;
  const windows = windowScorer(reader, docTerms, query, slots, combine, window);
  /** The best section and, for a page longer than the window, its windows, of the document loaded, whose BM25F is `page`; the lift above it. */
  const parts = (id: number, page: number) => {
    const section = best(id, page);
    const long = windows(id);
    return { section, long, lift: Math.max(section ? section.score : page, long ? windowText(page, long) : page) - page };
  };
  const words = queryWords(terms.length, groups);
  const wordNames = words.map((w) => w.map((t) => terms[t]).join('|'));
  const wordIdfs = words.map((w) => Math.max(...w.map((t) => idfs[t]!)));
  // Proximity reads at most maxPositions of each word, so no more are decoded; none of a word no pair can count.
  const positions = (max = params.proximity.maxPositions) => {
    const read = pairedWords(words.map((w) => w.some((t) => docTerms.mayHavePositions(slots[t]!))));
    return words.map((w, i) => (read[i] ? unionPositions(w.map((t) => docTerms.positions(slots[t]!, max)), max) : []));
  };
  const bonus = (max?: number) => proximity(wordNames, positions(max), wordIdfs, params.proximity);
  const bounds = new Float64Array(terms.length);
  const prior = (id: number) => linkPrior(reader.boost(id), params.linkWeight);
  const identifiers = identifierTerms(terms, (t) => weights.get(t) ?? 1);
  const titleField = FIELDS.indexOf('title');
  const anchorField = FIELDS.indexOf('anchor');
  const votes = new Float64Array(terms.length);
  /** The naming bonus of the document selected in docTerms: its title naming the query's identifiers, links to it naming its words. */
  const naming = () =>
    namingBonus(identifiers, (t) => docTerms.freq(slots[t]!, titleField), params.namingWeight) +
    anchorVotes(idfs, (t) => docTerms.freq(slots[t]!, anchorField), params.bm25f.k1, params.anchorVoteWeight, combine, votes);
  return {
    base(id) {
      return reader.prose(id) * bm25(docTerms.load(id)) + prior(id);
    },
    bound(id, units) {
      let sum = 0;
      for (let t = 0; t < terms.length; t++) sum += bounds[t] = termBound(units[t]!, idfs[t]!);
      return (groups.length ? combine(bounds) : sum) + prior(id);
    },
    proximity(id) {
      const near = words.length > 1 && params.proximity.weight > 0;
      if (!near && identifiers.length === 0 && params.anchorVoteWeight === 0) return 0;
      // Positions and title counts need the entries only, not the whole frequency vector.
      docTerms.select(id);
      return reader.prose(id) * ((near ? bonus(params.proximity.maxPositions).bonus : 0) + naming());
    },
    sectionLift(id) {
      // Most pages have one section and fit the window: no lift, so their BM25F is not needed.
      if (reader.sectionLengths(id).length < 2 && !(reader.fieldLength(id, 'content') > window)) return 0;
      return reader.prose(id) * parts(id, bm25(docTerms.load(id))).lift;
    },
    explain(id) {
      docTerms.load(id);
      const termScores = terms.map((t, i) => query.explainTerm(t, i, docTerms));
      const base = combine(termScores.map((t) => t.score));
      const { section, long, lift } = parts(id, base);
      const asDoc = section && sectionVector(docTerms, slots, section);
      const sectionTerms = asDoc ? terms.map((t, i) => sectionQuery.explainTerm(t, i, asDoc)) : [];
      const prox = bonus();
      const boost = reader.boost(id);
      const prior = linkPrior(boost, params.linkWeight);
      const prose = reader.prose(id);
      const named = naming();
      return {
        score: prose * (base + lift + prox.bonus + named) + prior,
        bm25f: base,
        terms: termScores,
        alternatives,
        proximity: prox.bonus,
        pairs: prox.pairs,
        naming: named,
        section: section && asDoc ? { index: section.index, length: section.length, scoredLength: section.scoredLength, avgLength: avgSection, bm25f: section.score, terms: sectionTerms } : undefined,
        windows: long && windowFactors(long, terms),
        sectionLift: lift,
        prose,
        linkBoost: boost,
        linkPrior: prior,
        params,
        docCount: stats.docCount,
      };
    },
  };
}
