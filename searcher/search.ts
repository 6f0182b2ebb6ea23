/**
 * @module searcher/search
 * One search, as NutchBean.search did it: candidates from the index (every
 * word first, then the best partial matches, `searcher.candidates` deep, the
 * highest score bounds first),
 * then the query's rules checked on each (AND, OR, phrases on positions,
 * exclusions, field restrictions, filters), then the BM25F re-rank, then
 * hits per site and the page. The total is exact when the candidate pool
 * held every match, and says "about" when it filled up.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { BLOCK } from '../shared/index/postings-codec.js';
import { NO_RELATED, type RelatedTerms } from '../shared/index/related-terms.js';
import type { CandidateOptions, StoredDoc } from '../shared/index/types.js';
import { analyzeQuery, type AnalyzedQuery } from './query/analyze.js';
import { browsable, Matcher, matchTerms } from './query/match.js';
import { parseQuery, type ParsedQuery } from './query/parse.js';
import { countFacets, noFacets, type Facets } from './facets.js';
import { groupBySite, type RankedHit } from './group.js';
import { idf, termBound, type TermStats } from './rank/bm25f.js';
import { DocTerms } from './rank/docterms.js';
import { linkPrior, makeScorer, readerStats, type Scorer } from './rank/score.js';
import { rankPruned, unitScores } from './prune.js';
import type { SearchSettings } from './settings.js';
import type { Snapshot } from './snapshot.js';

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
export const PROXIMITY_DEPTH = 100;

/**
 * Candidates (by BM25F + link prior) whose best section can lift them
 * (searcher/rank/sections): a lift raises a page, so the first pages' worth
 * are where it can change what is shown; scoring every section of the top
 * 100 cost a third of a search on devweb and moved no first hit more there.
 */
export const SECTION_DEPTH = 20;

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

/** The candidate pool's matches, before scoring: each with its row among the located documents. */
interface PoolMatches {
  matches: { hit: Match; row: number }[];
  exact: boolean;
  scorer: Scorer;
  docTerms: DocTerms;
}

/** The ids of several lists, each once, ascending (sorted as a typed array: no set, no comparator). */
function distinctSorted(lists: readonly number[][]): Uint32Array {
  const all = new Uint32Array(lists.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i]!;
  return all.subarray(0, n);
}

/**
 * Each posting's share of its document's score bound (its unit score times
 * its term's idf, as Scorer.bound adds them, with the document's link prior): a query with more matches than
 * the candidate pool holds gets those of the highest bounds among the
 * documents holding as many of its terms.
 */
function boundWeights(snap: Snapshot, query: AnalyzedQuery, stats: TermStats = readerStats(snap.reader, snap.settings.rank)): Pick<CandidateOptions, 'weigh' | 'docWeight' | 'docWeightBound'> {
  const { reader, settings } = snap;
  const units = unitScores(reader, settings.rank);
  const idfOf = new Map(query.terms.map((t) => [reader.termId(t), idf(stats.docCount, stats.docFreq(t)) * (query.weights.get(t) ?? 1)]));
  const linkWeight = settings.rank.linkWeight;
  return {
    weigh: (termId) => {
      const w = idfOf.get(termId) ?? 1;
      const out = new Float64Array(BLOCK);
      const term = units.term(termId);
      return {
        bound: (b) => (w >= 0 ? termBound(term.bound(b), w) : 0),
        withOwn: term.withOwn(w),
        of: (b) => {
          const u = term.block(b);
          for (let i = 0; i < u.length; i++) out[i] = termBound(u[i]!, w);
          return out;
        },
      };
    },
    docWeight: (id) => linkPrior(reader.boost(id), linkWeight),
    // The prior rises with the boost (falls, below zero, with a negative weight).
    docWeightBound: (boost) => (linkWeight >= 0 ? linkPrior(boost, linkWeight) : 0),
  };
}

/**
 * Candidates from the index and the query's rules checked on each; every
 * candidate's entries are found at once from the terms' postings.
 */
function matchPool(snap: Snapshot, query: AnalyzedQuery, stats?: TermStats, blocks?: CandidateOptions['stats']): PoolMatches {
  const { reader, settings } = snap;
  const tags = candidateTags(query);
  const weights = boundWeights(snap, query, stats);
  const found = expansions(query).map((terms) => reader.candidates(terms, { limit: settings.candidates, tags, ...weights, stats: blocks }));
  const exact = found.every((ids) => ids.length < settings.candidates);

  // Matcher and scorer share the candidate's forward-index entries: found once per term.
  const docTerms = new DocTerms(reader, matchTerms(query));
  const matcher = new Matcher(reader, query, docTerms);
  const scorer = makeScorer(reader, query.terms, settings.rank, docTerms, query.weights, query.alternatives, stats);
  const ids = distinctSorted(found);
  docTerms.locate(ids);
  const matches: PoolMatches['matches'] = [];
  for (let row = 0; row < ids.length; row++) {
    const id = ids[row]!;
    if (reader.isDeleted(id)) continue;
    docTerms.selectAt(row, id);
    const kind = matcher.matchOf(id);
    if (kind === 'none') continue;
    const hit = { id, score: 0, site: reader.tag(id, 'site'), type: reader.tag(id, 'type'), lang: reader.tag(id, 'lang'), full: kind === 'all' };
    matches.push({ hit, row });
  }
  return { matches, exact, scorer, docTerms };
}

/**
 * Candidates from the index, the query's rules checked on each, and their
 * base scores. `stats` are the collection statistics scores are computed
 * with: the index's own by default, a broker's over every shard otherwise.
 */
export function findMatches(snap: Snapshot, query: AnalyzedQuery, stats?: TermStats): Matches {
  const { matches, exact, scorer, docTerms } = matchPool(snap, query, stats);
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
function rankPool(snap: Snapshot, query: AnalyzedQuery, paging: ReturnType<typeof clampPaging>, blocks?: CandidateOptions['stats']): { ranked: Match[]; partial: number; exact: boolean; scorer: Scorer } {
  const { matches, exact, scorer, docTerms } = matchPool(snap, query, undefined, blocks);
  const S = query.terms.length;
  const termUnits = new Float64Array(S);
  const units = unitScores(snap.reader, snap.settings.rank);
  const unitOf = query.terms.map((t) => units.term(snap.reader.termId(t)));
  const slots = query.terms.map((t) => docTerms.slot(t));
  let full = 0;
  for (const m of matches) if (m.hit.full) full++;
  const ranked = partialsJoin(full, snap.settings.partialBelow) ? matches : matches.filter((m) => m.hit.full);
  const n = ranked.length;
  const pool = { bound: new Float64Array(n), id: new Uint32Array(n), site: new Int32Array(n), sites: 0, full: new Uint8Array(n) };
  const siteIndex = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const { hit, row } = ranked[i]!;
    for (let t = 0; t < S; t++) termUnits[t] = unitOf[t]!.at(docTerms.postingAt(row, slots[t]!));
    pool.bound[i] = scorer.bound(hit.id, termUnits);
    pool.id[i] = hit.id;
    let site = siteIndex.get(hit.site);
    if (site === undefined) siteIndex.set(hit.site, (site = siteIndex.size));
    pool.site[i] = site;
    pool.full[i] = hit.full ? 1 : 0;
  }
  pool.sites = siteIndex.size;
  const needs = { top: Math.max(PROXIMITY_DEPTH, paging.start + paging.hitsPerPage), hitsPerSite: paging.hitsPerSite, keepTop: paging.hitsPerPage };
  const { order, scores } = rankPruned(pool, (i) => (docTerms.selectAt(ranked[i]!.row, pool.id[i]!), scorer.base(pool.id[i]!)), needs);
  const hits = order.map((i) => {
    const { hit } = ranked[i]!;
    hit.score = scores[i]!;
    return hit;
  });
  return { ranked: hits, partial: ranked.length - full, exact, scorer };
}

const byScore = (a: RankedHit, b: RankedHit) => b.score - a.score || a.id - b.id;

/**
 * Whether partial matches are ranked with the full ones: when too few pages
 * hold every word, ranked together (a strict "all words first" order
 * measured worse on questions), and the page says so.
 */
const partialsJoin = (full: number, partialBelow: number) => full < partialBelow;

/**
 * Full matches ranked by base score, partial ones among them when too few
 * pages hold every word.
 */
export function rankByBase<H extends RankedHit>(full: H[], some: H[], partialBelow: number): { ranked: H[]; partial: number } {
  const partial = partialsJoin(full.length, partialBelow) ? some : [];
  const ranked = partial.length ? full.concat(partial) : full.slice();
  ranked.sort(byScore);
  return { ranked, partial: partial.length };
}

/**
 * Adds the bonuses (proximity; the section lift for the first SECTION_DEPTH)
 * to the best PROXIMITY_DEPTH of a list ranked by base score (in place):
 * decoding positions and section runs dominates the cost. A bonus is never
 * negative, so they stay ahead of the rest and only they need sorting again.
 */
export function addProximity<H extends RankedHit>(ranked: H[], bonus: (hit: H, rank: number) => number): void {
  const top = Math.min(PROXIMITY_DEPTH, ranked.length);
  for (let i = 0; i < top; i++) ranked[i]!.score += bonus(ranked[i]!, i);
  ranked.splice(0, top, ...ranked.slice(0, top).sort(byScore));
}

/**
 * The requested page of a ranked list, grouped by site, with what the result
 * page tells about the whole list. `docOf` gives the stored fields of the
 * hits shown and of the facets' sample pages, the only ones read.
 */
export function pageOfRanked<H extends Match>(ranked: H[], paging: { start: number; hitsPerPage: number; hitsPerSite: number }, docOf: (hit: H) => StoredDoc) {
  // What the plain ranking puts on the first page stays visible: grouping only folds the tail.
  const page = groupBySite(ranked, paging.hitsPerSite, paging.start, paging.hitsPerPage, paging.hitsPerPage);
  const hits = page.hits.map(({ hit, grouped }) => ({ ...hit, doc: docOf(hit), grouped, moreFromSite: page.sitesWithMore.has(hit.site) }));
  return { hits, hidden: page.hidden, hasNext: page.hasNext, facets: countFacets(ranked, docOf), total: ranked.length };
}

/** The query as the index reads it: parsed, analyzed with the index's analyzer, the settings' stop words and synonyms, and the index's related terms. */
export function readQuery(raw: string, analyzer: Analyzer, settings: SearchSettings, related: RelatedTerms = NO_RELATED): { parsed: ParsedQuery; query: AnalyzedQuery } {
  const parsed = parseQuery(raw);
  return { parsed, query: analyzeQuery(parsed, analyzer, settings.stopWords, settings.synonyms, { terms: related, weight: settings.relatedWeight }) };
}

/** The result of a query that names no word to look for, nor a filter to browse by. */
export function emptyResult(raw: string, q: { parsed: ParsedQuery; query: AnalyzedQuery }, paging: ReturnType<typeof clampPaging>, ms: number): SearchResult {
  return { raw, ...q, hits: [], ...paging, total: 0, partial: 0, exact: true, hidden: 0, facets: noFacets(), hasNext: false, ms };
}

/** Whether the query can match anything: it names a word, or a filter to browse by. */
export const searchable = (query: AnalyzedQuery) => query.required.length > 0 || browsable(query);

/** `exhaustive` scores every match (the pruned ranking's reference in tests); `blocks` counts the postings blocks the candidate stage decoded and passed over. */
export function search(snap: Snapshot, req: SearchRequest, opts: { exhaustive?: boolean; blocks?: CandidateOptions['stats'] } = {}): SearchResult {
  const t0 = performance.now();
  const { settings } = snap;
  const paging = clampPaging(req, settings.maxHitsPerPage, settings.hitsPerSite);
  const q = readQuery(req.query, snap.analyzer, settings, snap.related);
  if (!searchable(q.query)) return emptyResult(req.query, q, paging, performance.now() - t0);
  let m: { ranked: Match[]; partial: number; exact: boolean; scorer: Scorer };
  if (opts.exhaustive) {
    const found = findMatches(snap, q.query);
    m = { ...rankByBase(found.full, found.some, settings.partialBelow), exact: found.exact, scorer: found.scorer };
  } else m = rankPool(snap, q.query, paging, opts.blocks);
  addProximity(m.ranked, (h, rank) => m.scorer.proximity(h.id) + (rank < SECTION_DEPTH ? m.scorer.sectionLift(h.id) : 0));
  const docOf = (h: Match) => snap.reader.doc(h.id);
  return { raw: req.query, ...q, ...paging, ...pageOfRanked(m.ranked, paging, docOf), partial: m.partial, exact: m.exact, ms: performance.now() - t0 };
}
