/**
 * @module searcher/feedback
 * Pseudo-relevance feedback for questions (after RM3: Lavrenko and Croft
 * 2001, Abdul-Jaleel et al. 2004). A question often names its answer in
 * other words than the answer page's, and the pages the first ranking puts
 * on top share some of the answer's vocabulary even when they are not the
 * answer. So the words most typical of the best `pages` of the first ranking
 * (each page's share of their scores times the word's share of the page's
 * title and body, times its IDF so that a site's common words do not lead,
 * in two pages or more) are scored as optional terms, at `weight` of the
 * typed words together, for the ranks below those pages only: the words
 * were drawn from the feedback pages, so on them they only confirm the first
 * ranking; below them they are evidence the first ranking lacked. Scoring
 * them on the feedback pages too (plain RM3) lifts those pages further and
 * lost on both judged sets. Only questions get feedback (`isQuestion`).
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import type { IndexReader } from '../shared/index/types.js';
import type { AnalyzedQuery } from './query/analyze.js';
import { idf } from './rank/bm25f.js';
import { withParams, type RankParams } from './rank/params.js';
import { makeScorer, readerStats } from './rank/score.js';
import { byScore, PROXIMITY_DEPTH } from './ranking.js';
import type { RankedHit } from './group.js';

export interface FeedbackParams {
  /** Pages of the first ranking the words are taken from; 0 turns feedback off. */
  pages: number;
  /** Words added at most. */
  terms: number;
  /** What the added words weigh together, relative to the typed words together. */
  weight: number;
  /** A query of at least this many words, stop words included, reads as a question. */
  minWords: number;
}

/**
 * Whether a query reads as a question: words of the default fields only (no
 * field, filter, date or exclusion: whoever typed those asked for exactly
 * that; a quoted phrase counts as one word), at least `minWords` of them
 * counting stop and question words (a question is a sentence; keyword
 * queries name a few things).
 */
export function isQuestion(query: Pick<AnalyzedQuery, 'required' | 'excluded' | 'filters' | 'dates' | 'stopped'>, minWords: number): boolean {
  if (query.excluded.length || query.filters.length || query.dates.length) return false;
  if (!query.required.every((g) => g.every((m) => m.field === 'default'))) return false;
  return query.required.length + query.stopped.length >= minWords;
}

/** A feedback page: each term id's count in its title and body, their length, and its first score. */
export interface FeedbackPage {
  counts: Map<number, number>;
  length: number;
  score: number;
}

let counted = new Uint32Array(1024);

/** Page `id`'s title and body as term counts, from its forward-index entries (one bulk read of their counts). */
export function feedbackPage(reader: IndexReader, id: number, score: number): FeedbackPage {
  const counts = new Map<number, number>();
  const [first, end] = reader.entryRange(id);
  if (counted.length < end - first) counted = new Uint32Array(2 * (end - first));
  reader.entryCounts(first, end, counted);
  for (let e = first; e < end; e++) if (counted[e - first]! > 0) counts.set(reader.entryTerm(e), counted[e - first]!);
  return { counts, length: Math.max(1, reader.fieldLength(id, 'content') + reader.fieldLength(id, 'title')), score };
}

/**
 * The words to add and the weight of each relative to one typed word: the
 * `terms` of highest Σ P(page | query) · P(word | page) · idf over `pages`,
 * each in two pages or more (a word of one page is that page's, not the
 * question's), none of them a number or in `skip` (the query's terms, stop
 * words); together they weigh `weight` × `typed` words.
 */
export function feedbackTerms(
  pages: readonly FeedbackPage[],
  termOf: (termId: number) => string,
  idfOf: (term: string) => number,
  skip: ReadonlySet<string>,
  params: Pick<FeedbackParams, 'terms' | 'weight'>,
  typed: number,
): Map<string, number> {
  const total = pages.reduce((s, p) => s + Math.max(0, p.score), 0);
  const mass = new Map<number, number>();
  const seen = new Map<number, number>();
  for (const p of pages) {
    const share = total > 0 ? Math.max(0, p.score) / total : 1 / pages.length;
    for (const [t, n] of p.counts) {
      mass.set(t, (mass.get(t) ?? 0) + (share * n) / p.length);
      seen.set(t, (seen.get(t) ?? 0) + 1);
    }
  }
  const scored: [string, number][] = [];
  for (const [t, m] of mass) {
    if (seen.get(t)! < Math.min(2, pages.length)) continue;
    const term = termOf(t);
    if (skip.has(term) || /^\p{N}+$/u.test(term)) continue;
    const w = m * idfOf(term);
    if (w > 0) scored.push([term, w]);
  }
  scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const top = scored.slice(0, params.terms);
  const sum = top.reduce((s, [, w]) => s + w, 0);
  return new Map(sum > 0 ? top.map(([t, w]) => [t, (params.weight * typed * w) / sum]) : []);
}

/** What one query's feedback has read, kept while its pool is ranked again (searcher/counted asks once a depth). */
export interface FeedbackMemo {
  pages: Map<number, FeedbackPage>;
  /** The feedback pages (ids and scores) the words were last drawn from; the bonus of each page below them, and how it is scored. */
  from?: string;
  bonus: Map<number, number>;
  score?: (id: number) => number;
}

export const feedbackMemo = (): FeedbackMemo => ({ pages: new Map(), bonus: new Map() });

const analyzedStops = new WeakMap<ReadonlySet<string>, { analyzer: Analyzer; terms: string[] }>();

/** The stop words' terms, analyzed once a stop list and analyzer rather than once a question. */
function stopTerms(analyzer: Analyzer, stopWords: ReadonlySet<string>): string[] {
  const known = analyzedStops.get(stopWords);
  if (known?.analyzer === analyzer) return known.terms;
  const terms = [...stopWords].flatMap((w) => analyzer.terms(w));
  analyzedStops.set(stopWords, { analyzer, terms });
  return terms;
}

/**
 * Adds the feedback words' BM25F (no link prior) to the hits ranked from
 * `params.pages` to PROXIMITY_DEPTH of a list ranked with its bonuses (in
 * place; see addProximity: the bonus is never negative and only those are
 * sorted again); nothing when the query is no question or no word qualifies.
 */
export function addFeedback<H extends RankedHit>(
  reader: IndexReader,
  analyzer: Analyzer,
  query: AnalyzedQuery,
  ranked: H[],
  settings: { rank: RankParams; feedback: FeedbackParams; stopWords: ReadonlySet<string> },
  memo: FeedbackMemo = feedbackMemo(),
): void {
  const params = settings.feedback;
  const top = Math.min(PROXIMITY_DEPTH, ranked.length);
  if (params.pages <= 0 || params.weight <= 0 || top <= params.pages || !isQuestion(query, params.minWords)) return;
  const first = ranked.slice(0, params.pages);
  const from = first.map((h) => `${h.id}:${h.score}`).join(' ');
  if (memo.from !== from) {
    memo.from = from;
    memo.bonus.clear();
    const stats = readerStats(reader, settings.rank);
    const idfOf = (t: string) => idf(stats.docCount, stats.docFreq(t));
    const pageOf = (h: H) => {
      let p = memo.pages.get(h.id);
      if (!p) memo.pages.set(h.id, (p = feedbackPage(reader, h.id, 0)));
      return { ...p, score: h.score };
    };
    const skip = new Set([...query.terms, ...stopTerms(analyzer, settings.stopWords)]);
    const added = feedbackTerms(first.map(pageOf), (t) => reader.term(t), idfOf, skip, params, query.required.length);
    const scorer = added.size ? makeScorer(reader, [...added.keys()], withParams(settings.rank, { linkWeight: 0 }), undefined, added, [], stats) : undefined;
    memo.score = scorer && ((id) => scorer.base(id));
  }
  const score = memo.score;
  if (!score) return;
  for (let i = params.pages; i < top; i++) {
    const h = ranked[i]!;
    let b = memo.bonus.get(h.id);
    if (b === undefined) memo.bonus.set(h.id, (b = score(h.id)));
    h.score += b;
  }
  ranked.splice(0, top, ...ranked.slice(0, top).sort(byScore));
}
