/**
 * @module searcher/search
 * One search, as NutchBean.search did it: candidates from the index (every
 * word first, then the best partial matches, `searcher.candidates` deep),
 * then the query's rules checked on each (AND, OR, phrases on positions,
 * exclusions, field restrictions, filters), then the BM25F re-rank, then
 * hits per site and the page. The total is exact when the candidate pool
 * held every match, and says "about" when it filled up.
 */
import type { CandidateOptions, StoredDoc } from '../shared/index/types.js';
import { analyzeQuery, type AnalyzedQuery } from './query/analyze.js';
import { browsable, Matcher, matchTerms } from './query/match.js';
import { parseQuery, type ParsedQuery } from './query/parse.js';
import { countFacets, type Facets } from './facets.js';
import { groupBySite } from './group.js';
import { DocTerms } from './rank/docterms.js';
import { makeScorer } from './rank/score.js';
import type { Snapshot } from './snapshot.js';

export interface SearchRequest {
  query: string;
  start?: number;
  hitsPerPage?: number;
  /** ≤ 0 shows every hit; default `searcher.hits.per.site`. */
  hitsPerSite?: number;
}

export interface Hit {
  id: number;
  score: number;
  site: string;
  doc: StoredDoc;
  /** Holds every query word (false for a partial match). */
  full: boolean;
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
  /** Matching documents (before grouping). */
  total: number;
  /** Of the total, documents holding only some of the words (ranked among those holding all). */
  partial: number;
  /** False when the candidate pool filled up, so more documents may match. */
  exact: boolean;
  /** Hits hidden by hits-per-site grouping. */
  hidden: number;
  /** The matches counted by site, type and language. */
  facets: Facets;
  hasNext: boolean;
  ms: number;
}

/** Candidates (by BM25F + link prior) that get the proximity bonus (reference/ranking.md: over the top 100). */
const PROXIMITY_DEPTH = 100;

/** OR groups multiply candidate lookups; past this many combinations the rest share one lookup. */
const MAX_EXPANSIONS = 16;

/** The cross product of OR alternatives, as term lists for candidate lookups. */
function expansions(q: AnalyzedQuery): string[][] {
  let out: string[][] = [[]];
  for (const group of q.required) {
    if (out.length * group.length > MAX_EXPANSIONS) {
      out = out.map((e) => [...e, ...group.flatMap((m) => m.terms)]);
      continue;
    }
    out = out.flatMap((e) => group.map((m) => [...e, ...m.terms]));
  }
  return out.map((e) => [...new Set(e)]);
}

/** Exact tag values the index can filter candidates by (one positive value per tag). */
function candidateTags(q: AnalyzedQuery): CandidateOptions['tags'] {
  const tags: NonNullable<CandidateOptions['tags']> = {};
  for (const f of q.filters) {
    if (f.exclude) continue;
    if (f.field !== 'type' || f.value.includes('/')) tags[f.field] ??= f.value;
  }
  return tags;
}

export function clampPaging(req: SearchRequest, maxHitsPerPage: number, defaultHitsPerSite: number) {
  const int = (v: number | undefined, d: number) => (v === undefined || !Number.isFinite(v) ? d : Math.trunc(v));
  return {
    start: Math.min(Math.max(0, int(req.start, 0)), 100_000),
    hitsPerPage: Math.min(Math.max(1, int(req.hitsPerPage, 10)), maxHitsPerPage),
    hitsPerSite: Math.max(0, int(req.hitsPerSite, defaultHitsPerSite)),
  };
}

export function search(snap: Snapshot, req: SearchRequest): SearchResult {
  const t0 = performance.now();
  const { reader, settings } = snap;
  const paging = clampPaging(req, settings.maxHitsPerPage, settings.hitsPerSite);
  const parsed = parseQuery(req.query);
  const query = analyzeQuery(parsed, snap.analyzer, settings.stopWords, settings.synonyms);
  const empty = { raw: req.query, parsed, query, hits: [], ...paging, total: 0, partial: 0, exact: true, hidden: 0, facets: countFacets([]), hasNext: false };
  if (query.required.length === 0 && !browsable(query)) return { ...empty, ms: performance.now() - t0 };

  const tags = candidateTags(query);
  const pool = new Set<number>();
  let exact = true;
  for (const terms of expansions(query)) {
    const ids = reader.candidates(terms, { limit: settings.candidates, tags });
    if (ids.length >= settings.candidates) exact = false;
    for (const id of ids) pool.add(id);
  }

  // Matcher and scorer share the candidate's forward-index entries: looked up once per term.
  const docTerms = new DocTerms(reader, matchTerms(query));
  const matcher = new Matcher(reader, query, docTerms);
  const scorer = makeScorer(reader, query.terms, settings.rank, docTerms, query.weights, query.alternatives);
  const full: Hit[] = [];
  const some: Hit[] = [];
  for (const id of pool) {
    if (reader.isDeleted(id)) continue;
    const kind = matcher.matchOf(id);
    if (kind === 'none') continue;
    const doc = reader.doc(id);
    (kind === 'all' ? full : some).push({ id, score: scorer.base(id), site: doc.site, doc, full: kind === 'all', grouped: false, moreFromSite: false });
  }
  const byScore = (a: Hit, b: Hit) => b.score - a.score || a.id - b.id;
  // Too few pages hold every word: partial matches join them, ranked together (a strict
  // "all words first" order measured worse on questions), and the page says so.
  const partial = full.length < settings.partialBelow ? some : [];
  const ranked = partial.length ? full.concat(partial) : full;
  ranked.sort(byScore);
  // The proximity bonus re-orders the best PROXIMITY_DEPTH only: decoding positions dominates the cost.
  // A bonus is never negative, so they stay ahead of the rest and only they need sorting again.
  const top = Math.min(PROXIMITY_DEPTH, ranked.length);
  for (let i = 0; i < top; i++) ranked[i]!.score += scorer.proximity(ranked[i]!.id);
  ranked.splice(0, top, ...ranked.slice(0, top).sort(byScore));
  // What the plain ranking puts on the first page stays visible: grouping only folds the tail.
  const page = groupBySite(ranked, paging.hitsPerSite, paging.start, paging.hitsPerPage, paging.hitsPerPage);
  const hits = page.hits.map(({ hit, grouped }) => ({ ...hit, grouped, moreFromSite: page.sitesWithMore.has(hit.site) }));
  return {
    raw: req.query,
    parsed,
    query,
    hits,
    ...paging,
    total: ranked.length,
    partial: partial.length,
    exact,
    hidden: page.hidden,
    facets: countFacets(ranked),
    hasNext: page.hasNext,
    ms: performance.now() - t0,
  };
}
