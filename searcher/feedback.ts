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
 * lost on both judged sets. Near-copies count once (`nearCopy`): copies
 * among the first pages would pass one page's words for the pages' common
 * ones, and a run of copies below them would gain together and pass an
 * answer among them. Only questions get feedback (`isQuestion`).
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { lowerBound } from '../shared/bisect.js';
import { FIELDS, type IndexReader } from '../shared/index/types.js';
import type { AnalyzedQuery } from './query/analyze.js';
import { idf } from './rank/bm25f.js';
import { withParams, type RankParams } from './rank/params.js';
import { DocTerms } from './rank/docterms.js';
import { makeScorer, readerStats, termDocFreq, type Scorer } from './rank/score.js';
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

/** A feedback page: its term ids (ascending) and each one's count in its title and body, their length, and its first score. */
export interface FeedbackPage {
  terms: Uint32Array;
  counts: Uint32Array;
  length: number;
  score: number;
}

let counted = new Uint32Array(1024);

/** Page `id`'s title and body as term counts, from its forward-index entries (ascending by term; one bulk read of their counts). */
export function feedbackPage(reader: IndexReader, id: number, score: number): FeedbackPage {
  const [first, end] = reader.entryRange(id);
  if (counted.length < end - first) counted = new Uint32Array(2 * (end - first));
  reader.entryCounts(first, end, counted);
  let n = 0;
  for (let e = first; e < end; e++) if (counted[e - first]! > 0) n++;
  const terms = new Uint32Array(n);
  const counts = new Uint32Array(n);
  n = 0;
  for (let e = first; e < end; e++) if (counted[e - first]! > 0) (terms[n] = reader.entryTerm(e)), (counts[n++] = counted[e - first]!);
  return { terms, counts, length: Math.max(1, reader.fieldLength(id, 'content') + reader.fieldLength(id, 'title')), score };
}

/**
 * The words to add and the weight of each relative to one typed word: the
 * `terms` of highest Σ P(page | query) · P(word | page) · idf over `pages`,
 * each in two pages or more (a word of one page is that page's, not the
 * question's), none of them a number or in `skip` (the query's terms, stop
 * words); together they weigh `weight` × `typed` words. The pages' terms
 * are merged in id order; a word's idf is read only while its mass times
 * `idfBound` (the idf of a word in one page) can still reach the best, and
 * only the best are made strings.
 */
export function feedbackTerms(
  pages: readonly FeedbackPage[],
  termOf: (termId: number) => string,
  idfOf: (termId: number) => number,
  idfBound: number,
  skip: ReadonlySet<number>,
  params: Pick<FeedbackParams, 'terms' | 'weight'>,
  typed: number,
): Map<string, number> {
  const total = pages.reduce((s, p) => s + Math.max(0, p.score), 0);
  const shares = pages.map((p) => (total > 0 ? Math.max(0, p.score) / total : 1 / pages.length) / p.length);
  const at = pages.map(() => 0);
  const minSeen = Math.min(2, pages.length);
  const massed: [number, number][] = [];
  for (;;) {
    let t = Infinity;
    for (let i = 0; i < pages.length; i++) if (at[i]! < pages[i]!.terms.length && pages[i]!.terms[at[i]!]! < t) t = pages[i]!.terms[at[i]!]!;
    if (t === Infinity) break;
    let m = 0;
    let seen = 0;
    for (let i = 0; i < pages.length; i++) if (pages[i]!.terms[at[i]!] === t) (m += shares[i]! * pages[i]!.counts[at[i]!]!), seen++, at[i]!++;
    if (seen >= minSeen && !skip.has(t)) massed.push([t, m]);
  }
  massed.sort((a, b) => b[1] - a[1]);
  const byWeight = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);
  const best: [string, number][] = [];
  for (const [t, m] of massed) {
    const last = best.length >= params.terms ? best[best.length - 1]![1] : 0;
    if (m * idfBound < last) break;
    const w = m * idfOf(t);
    if (!(w > 0) || w < last) continue;
    const term = termOf(t);
    if (/^\p{N}+$/u.test(term)) continue;
    best.push([term, w]);
    best.sort(byWeight);
    if (best.length > params.terms) best.pop();
  }
  const sum = best.reduce((s, [, w]) => s + w, 0);
  return new Map(sum > 0 ? best.map(([t, w]) => [t, (params.weight * typed * w) / sum]) : []);
}

/**
 * Two pages are near-copies when their lengths and their term counts agree
 * this closely (weighted Jaccard): the pages of one template, release notes
 * or reference pages that differ in a name or a number. Measured on both
 * judged sets, 0.8, 0.9 and 0.95 rank alike.
 */
const COPY = 0.9;

/** A page's counts of some terms (by position, or by the ascending ids `terms`), and its length. */
interface Profile {
  terms?: Uint32Array;
  counts: Uint32Array;
  length: number;
}

const TITLE = FIELDS.indexOf('title');
const CONTENT = FIELDS.indexOf('content');

/** The added words' counts in the title and body of the page loaded in `docTerms`, and their length. */
const profileOf = (d: DocTerms): Profile => ({
  counts: Uint32Array.from(d.terms, (_, s) => d.freq(s, TITLE) + d.freq(s, CONTENT)),
  length: d.lengths[TITLE]! + d.lengths[CONTENT]!,
});

/** A feedback page's count of term `t` (0 when it lacks it). */
function countOf(p: FeedbackPage, t: number): number {
  const i = lowerBound(p.terms, t, 0);
  return p.terms[i] === t ? p.counts[i]! : 0;
}

/** Whether two pages are near-copies: lengths within COPY of each other, and Σ min / Σ max of their counts at least COPY. */
function nearCopy(a: Profile, b: Profile): boolean {
  if (Math.min(a.length, b.length) < COPY * Math.max(a.length, b.length)) return false;
  let lo = 0;
  let hi = 0;
  for (let i = 0, j = 0; i < a.counts.length || j < b.counts.length; ) {
    const x = i < a.counts.length ? (a.terms?.[i] ?? i) : Infinity;
    const y = j < b.counts.length ? (b.terms?.[j] ?? j) : Infinity;
    const ca = x <= y ? a.counts[i++]! : 0;
    const cb = y <= x ? b.counts[j++]! : 0;
    lo += Math.min(ca, cb);
    hi += Math.max(ca, cb);
  }
  return hi > 0 && lo >= COPY * hi;
}

/** What one query's feedback has read, kept while its pool is ranked again (searcher/counted asks once a depth). */
export interface FeedbackMemo {
  pages: Map<number, FeedbackPage>;
  /** The first pages (ids and scores) the words were last drawn from, through the last feedback page; the bonus of each page below them, and how it is scored. */
  from: string[];
  bonus: Map<number, number>;
  /** Each scored page's counts of the added words in its title and body, and their length (near-copies gain once). */
  profile: Map<number, Profile>;
  /** The feedback pages' profiles over the added words. */
  chosen: Profile[];
  /** The added words' scorer, and their entries to find the pages to score in (`locate`, one walk of their postings). */
  scorer?: Scorer;
  docTerms?: DocTerms;
}

export const feedbackMemo = (): FeedbackMemo => ({ pages: new Map(), from: [], bonus: new Map(), profile: new Map(), chosen: [] });

const stopIds = new WeakMap<IndexReader, { analyzer: Analyzer; stopWords: ReadonlySet<string>; ids: number[] }>();

/** The stop words' term ids in `reader`, analyzed and looked up once a reader, stop list and analyzer rather than once a question. */
function stopTermIds(reader: IndexReader, analyzer: Analyzer, stopWords: ReadonlySet<string>): number[] {
  const known = stopIds.get(reader);
  if (known?.analyzer === analyzer && known.stopWords === stopWords) return known.ids;
  const ids = [...stopWords].flatMap((w) => analyzer.terms(w)).map((t) => reader.termId(t));
  stopIds.set(reader, { analyzer, stopWords, ids });
  return ids;
}

/**
 * Adds the feedback words' BM25F (no link prior) to the hits ranked below
 * the feedback pages down to PROXIMITY_DEPTH of a list ranked with its
 * bonuses, near-copies once (in place; see addProximity: the bonus is
 * never negative and only those are sorted again); nothing when the query
 * is no question or no word qualifies.
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
  const mark = (h: H) => `${h.id}:${h.score}`;
  if (memo.from.length === 0 || memo.from.some((m, i) => m !== mark(ranked[i]!))) {
    memo.bonus.clear();
    memo.profile.clear();
    const stats = readerStats(reader, settings.rank);
    const idfOf = (t: number) => idf(stats.docCount, termDocFreq(reader, t));
    const pageOf = (h: H) => {
      let p = memo.pages.get(h.id);
      if (!p) memo.pages.set(h.id, (p = feedbackPage(reader, h.id, 0)));
      return { ...p, score: h.score };
    };
    // The first `pages` that are no near-copy of a page before them (a copy says what its page says), among the first 2 × `pages`.
    const first: FeedbackPage[] = [];
    let end = 0;
    for (; end < Math.min(top - 1, 2 * params.pages) && first.length < params.pages; end++) {
      const p = pageOf(ranked[end]!);
      if (!first.some((q) => nearCopy(q, p))) first.push(p);
    }
    memo.from = ranked.slice(0, end).map(mark);
    const skip = new Set([...query.terms.map((t) => reader.termId(t)), ...stopTermIds(reader, analyzer, settings.stopWords)]);
    const added = feedbackTerms(first, (t) => reader.term(t), idfOf, idf(stats.docCount, 1), skip, params, query.required.length);
    memo.docTerms = added.size ? new DocTerms(reader, added.keys()) : undefined;
    memo.scorer = memo.docTerms && makeScorer(reader, memo.docTerms.terms, withParams(settings.rank, { linkWeight: 0 }), memo.docTerms, added, [], stats);
    const ids = Uint32Array.from(memo.docTerms?.terms ?? [], (t) => reader.termId(t));
    memo.chosen = first.map((p) => ({ counts: Uint32Array.from(ids, (t) => countOf(p, t)), length: p.length }));
  }
  const { scorer, docTerms } = memo;
  const end = memo.from.length;
  if (!scorer || !docTerms) return;
  const unscored = ranked.slice(end, top).filter((h) => !memo.bonus.has(h.id));
  // The pages' entries of the added words from the words' postings, the blocks holding them decoded once, not one forward lookup a word and page.
  if (unscored.length) docTerms.locate(Uint32Array.from(unscored, (h) => h.id).sort());
  for (const h of unscored) {
    memo.bonus.set(h.id, scorer.base(h.id));
    memo.profile.set(h.id, profileOf(docTerms));
  }
  // A page whose added words are a near-copy of a page above it that has them counted (a feedback page, or one that gained) gains nothing: a run of copies is one page's evidence, not one for each.
  const counted = [...memo.chosen];
  for (let i = end; i < top; i++) {
    const h = ranked[i]!;
    const b = memo.bonus.get(h.id)!;
    const p = memo.profile.get(h.id)!;
    if (b <= 0 || counted.some((q) => nearCopy(q, p))) continue;
    h.score += b;
    counted.push(p);
  }
  ranked.splice(0, top, ...ranked.slice(0, top).sort(byScore));
}
