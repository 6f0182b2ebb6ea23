/**
 * @module searcher/search
 * One search, as NutchBean.search did it: candidates from the index, the
 * query's rules checked on each, the BM25F re-rank, then hits per site and
 * the page. A query of plain words is counted and ranked exactly however
 * many documents match (searcher/counted); any other takes a candidate
 * pool `searcher.candidates` deep (searcher/candidate-pool), and its total says
 * "about" when the pool filled up.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { NO_RELATED, type RelatedTerms } from '../shared/index/related-terms.js';
import type { CandidateOptions, StoredDoc } from '../shared/index/types.js';
import { analyzeQuery, type AnalyzedQuery } from './query/analyze.js';
import { browsable } from './query/match.js';
import { parseQuery, type ParsedQuery } from './query/parse.js';
import { countableTerms, searchCounted } from './counted.js';
import { addFeedback } from './feedback.js';
import { countFacets, noFacets, type Facets } from './facets.js';
import { groupBySite } from './group.js';
import type { TermStats } from './rank/bm25f.js';
import type { Scorer } from './rank/score.js';
import { boundPool, matchPool } from './candidate-pool.js';
import { rankPruned } from './prune.js';
import { addProximity, bonusOf, pageHits, partialsJoin, PROXIMITY_DEPTH, rankByBase, SECTION_DEPTH, type BonusMemo } from './ranking.js';
import type { SearchSettings } from './settings.js';
import type { Snapshot } from './snapshot.js';

export { addProximity, PROXIMITY_DEPTH, rankByBase, SECTION_DEPTH };

export interface SearchRequest {
  query: string;
  start?: number;
  hitsPerPage?: number;
  /** ≤ 0 shows every hit; default `searcher.hits.per.site`. */
  hitsPerSite?: number;
}

/**
 * A match as ranking, grouping and the facets read it: its tags from the
 * docinfo, no stored fields (those are read for the hits shown alone).
 */
export interface Match {
  id: number;
  score: number;
  site: string;
  type: string;
  lang: string;
  /** Holds every query word (false for a partial match). */
  full: boolean;
}

export interface Hit extends Match {
  doc: StoredDoc;
  /** Listed under its site's first hit. */
  grouped: boolean;
  /** Further hits of this site were hidden by grouping. */
  moreFromSite: boolean;
}

export interface SearchResult {
  /** The query as asked. */
  raw: string;
  parsed: ParsedQuery;
  query: AnalyzedQuery;
  hits: Hit[];
  start: number;
  hitsPerPage: number;
  hitsPerSite: number;
  /** Matching documents (before grouping): all of them when `exact`, else those of the candidate pool. */
  total: number;
  /** Of the total, documents holding only some of the words (ranked among those holding all). */
  partial: number;
  /** False when the candidate pool of a query other than plain words filled up, so more documents may match. */
  exact: boolean;
  /** Hits hidden by hits-per-site grouping. */
  hidden: number;
  /** The matches counted by site, type and language. */
  facets: Facets;
  hasNext: boolean;
  ms: number;
}

/** Where the page starts, how many hits it shows, and how many a site. */
export interface Paging {
  start: number;
  hitsPerPage: number;
  hitsPerSite: number;
}

export function clampPaging(req: SearchRequest, maxHitsPerPage: number, defaultHitsPerSite: number): Paging {
  const int = (v: number | undefined, d: number) => (v === undefined || !Number.isFinite(v) ? d : Math.trunc(v));
  return {
    start: Math.min(Math.max(0, int(req.start, 0)), 100_000),
    hitsPerPage: Math.min(Math.max(1, int(req.hitsPerPage, 10)), maxHitsPerPage),
    hitsPerSite: Math.max(0, int(req.hitsPerSite, defaultHitsPerSite)),
  };
}

/** A query's matches in one index, scored (BM25F + link prior) but not ranked. */
export interface Matches {
  /** Documents holding every word. */
  full: Match[];
  /** Documents holding only some of the words. */
  some: Match[];
  /** False when the candidate pool filled up, so more documents may match. */
  exact: boolean;
  scorer: Scorer;
}

/**
 * Candidates from the index, the query's rules checked on each, and their
 * base scores. `stats` are the collection statistics scores are computed
 * with: the index's own by default, a broker's over every shard otherwise.
 */
export function findMatches(snap: Snapshot, query: AnalyzedQuery, stats?: TermStats, limit = snap.settings.candidates): Matches {
  const { matches, exact, scorer, docTerms } = matchPool(snap, query, { limit, stats });
  const full: Match[] = [];
  const some: Match[] = [];
  for (const { hit, row } of matches) {
    docTerms.selectAt(row, hit.id);
    hit.score = scorer.base(hit.id);
    (hit.full ? full : some).push(hit);
  }
  return { full, some, exact, scorer };
}

/**
 * The pool's matches ranked with pruning (searcher/prune): only those whose
 * bound can reach what is shown are scored in full.
 */
function rankPool(snap: Snapshot, query: AnalyzedQuery, paging: Paging, blocks?: CandidateOptions['stats']): { ranked: Match[]; partial: number; exact: boolean; scorer: Scorer } {
  const pm = matchPool(snap, query, { limit: snap.settings.candidates, blocks });
  const { matches, exact, scorer, docTerms } = pm;
  let full = 0;
  for (const m of matches) if (m.hit.full) full++;
  const ranked = partialsJoin(full, snap.settings.partialBelow) ? matches : matches.filter((m) => m.hit.full);
  const pool = boundPool(snap, query, ranked, pm);
  const needs = { top: Math.max(PROXIMITY_DEPTH, paging.start + paging.hitsPerPage), hitsPerSite: paging.hitsPerSite, keepTop: paging.hitsPerPage };
  const { order, scores } = rankPruned(pool, (i) => (docTerms.selectAt(ranked[i]!.row, pool.id[i]!), scorer.base(pool.id[i]!)), needs);
  const hits = order.map((i) => {
    const { hit } = ranked[i]!;
    hit.score = scores[i]!;
    return hit;
  });
  return { ranked: hits, partial: ranked.length - full, exact, scorer };
}

/**
 * The requested page of a ranked list, grouped by site, with what the result
 * page tells about the whole list. `docOf` gives the stored fields of the
 * hits shown and of the facets' sample pages, the only ones read.
 */
export function pageOfRanked<H extends Match>(ranked: H[], paging: { start: number; hitsPerPage: number; hitsPerSite: number }, docOf: (hit: H) => StoredDoc) {
  // What the plain ranking puts on the first page stays visible: grouping only folds the tail.
  const page = groupBySite(ranked, paging.hitsPerSite, paging.start, paging.hitsPerPage, paging.hitsPerPage);
  return { hits: pageHits(page, docOf), hidden: page.hidden, hasNext: page.hasNext, facets: countFacets(ranked, docOf), total: ranked.length };
}

/** The query as the index reads it: parsed, analyzed with the index's analyzer, the settings' stop words and synonyms, and the index's related terms. */
export function readQuery(raw: string, analyzer: Analyzer, settings: SearchSettings, related: RelatedTerms = NO_RELATED): { parsed: ParsedQuery; query: AnalyzedQuery } {
  const parsed = parseQuery(raw);
  return { parsed, query: analyzeQuery(parsed, analyzer, settings.stopWords, settings.synonyms, { terms: related, weight: settings.relatedWeight }) };
}

/** The result of a query that names no word to look for, nor a filter to browse by. */
export function emptyResult(raw: string, q: { parsed: ParsedQuery; query: AnalyzedQuery }, paging: Paging, ms: number): SearchResult {
  return { raw, ...q, hits: [], ...paging, total: 0, partial: 0, exact: true, hidden: 0, facets: noFacets(), hasNext: false, ms };
}

/** Whether the query can match anything: it names a word, or a filter to browse by. */
export const searchable = (query: AnalyzedQuery) => query.required.length > 0 || browsable(query);

/**
 * `exhaustive` scores every match (the exact ranking's reference in tests);
 * `blocks` counts the postings blocks the candidate stage decoded and passed
 * over; `bonuses`, when given, holds the proximity and section bonuses
 * worked out (BonusMemo.computed counts them).
 */
export function search(snap: Snapshot, req: SearchRequest, opts: { exhaustive?: boolean; blocks?: CandidateOptions['stats']; bonuses?: BonusMemo } = {}): SearchResult {
  const t0 = performance.now();
  const { settings } = snap;
  const paging = clampPaging(req, settings.maxHitsPerPage, settings.hitsPerSite);
  const q = readQuery(req.query, snap.analyzer, settings, snap.related);
  if (!searchable(q.query)) return emptyResult(req.query, q, paging, performance.now() - t0);
  const terms = opts.exhaustive ? undefined : countableTerms(q.query);
  if (terms) return { raw: req.query, ...q, ...paging, ...searchCounted(snap, q.query, terms, paging, opts.blocks, opts.bonuses), exact: true, ms: performance.now() - t0 };
  let m: { ranked: Match[]; partial: number; exact: boolean; scorer: Scorer };
  if (opts.exhaustive) {
    const found = findMatches(snap, q.query, undefined, snap.reader.meta.docCount + 1);
    m = { ...rankByBase(found.full, found.some, settings.partialBelow), exact: found.exact, scorer: found.scorer };
  } else m = rankPool(snap, q.query, paging, opts.blocks);
  addProximity(m.ranked, bonusOf(m.scorer, opts.bonuses));
  addFeedback(snap.reader, snap.analyzer, q.query, m.ranked, settings);
  const docOf = (h: Match) => snap.reader.doc(h.id);
  return { raw: req.query, ...q, ...paging, ...pageOfRanked(m.ranked, paging, docOf), partial: m.partial, exact: m.exact, ms: performance.now() - t0 };
}
