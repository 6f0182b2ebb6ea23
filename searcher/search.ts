/**
 * @module searcher/search
 * One search, as NutchBean.search did it: candidates from the index (every
 * word first, then the best partial matches, `searcher.candidates` deep),
 * then the query's rules checked on each (AND, OR, phrases on positions,
 * exclusions, field restrictions, filters), then the BM25F re-rank, then
 * hits per site and the page. The total is exact when the candidate pool
 * held every match, and says "about" when it filled up.
 */
import type { CandidateOptions, IndexReader, StoredDoc } from '../shared/index/types.js';
import { analyzeQuery, type AnalyzedQuery, type Match } from './query/analyze.js';
import { parseQuery, type ParsedQuery } from './query/parse.js';
import { groupBySite } from './group.js';
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

/**
 * Whether `positions` hold the terms one after another, starting at or
 * after `from` and ending before `limit`, without straddling `boundary`
 * (the end of the title in the title + body stream).
 */
export function hasPhrase(positions: readonly (readonly number[])[], opts: { from?: number; limit?: number; boundary?: number } = {}): boolean {
  const { from = 0, limit = Infinity, boundary = -1 } = opts;
  const n = positions.length;
  const rest = positions.slice(1).map((p) => new Set(p));
  for (const p0 of positions[0] ?? []) {
    if (p0 < from) continue;
    if (p0 + n - 1 >= limit) break;
    if (p0 < boundary && p0 + n - 1 >= boundary) continue;
    if (rest.every((s, k) => s.has(p0 + k + 1))) return true;
  }
  return false;
}

function hasAll(reader: IndexReader, id: number, fields: readonly ('title' | 'anchor' | 'url' | 'content')[], terms: readonly string[]): boolean {
  return terms.every((t) => fields.some((f) => reader.termFreq(id, f, t) > 0));
}

const ALL_FIELDS = ['title', 'anchor', 'url', 'content'] as const;

/**
 * Whether a document satisfies one match. Phrases are verified on the
 * title + body positions; the URL and anchor fields keep no positions, so a
 * phrase there (`url:"a b"`, or `www.apache.org` matching a URL) only needs
 * all its words in that field.
 */
export function matches(reader: IndexReader, id: number, m: Match): boolean {
  switch (m.field) {
    case 'default':
      if (!hasAll(reader, id, ALL_FIELDS, m.terms)) return false;
      if (!m.phrase) return true;
      return (
        hasPhrase(m.terms.map((t) => reader.positions(id, t)), { boundary: reader.fieldLength(id, 'title') }) ||
        hasAll(reader, id, ['url'], m.terms) ||
        hasAll(reader, id, ['anchor'], m.terms)
      );
    case 'title':
      if (!hasAll(reader, id, ['title'], m.terms)) return false;
      return !m.phrase || hasPhrase(m.terms.map((t) => reader.positions(id, t)), { limit: reader.fieldLength(id, 'title') });
    case 'url':
    case 'anchor':
      return hasAll(reader, id, [m.field], m.terms);
  }
}

/** Stored-field filters: `site:` (the site exactly, as in Nutch), `host:`, `type:` (full type or either half), `lang:`, `date:`. */
export function passesFilters(doc: StoredDoc, q: AnalyzedQuery): boolean {
  for (const f of q.filters) {
    let hit: boolean;
    switch (f.field) {
      case 'site':
        hit = doc.site.toLowerCase() === f.value;
        break;
      case 'host':
        hit = doc.host.toLowerCase() === f.value;
        break;
      case 'type': {
        const t = doc.type.toLowerCase();
        hit = t === f.value || (!f.value.includes('/') && t.split('/').includes(f.value));
        break;
      }
      case 'lang':
        hit = doc.lang.toLowerCase() === f.value;
        break;
    }
    if (hit === f.exclude) return false;
  }
  for (const d of q.dates) if ((doc.date >= d.from && doc.date <= d.to) === d.exclude) return false;
  return true;
}

/**
 * How a document matches: `all` (every group, no exclusion, every filter: a
 * hit), `some` (no exclusion, every filter, at least one group but not all:
 * a partial match), or `none`.
 */
export function matchOf(reader: IndexReader, id: number, doc: StoredDoc, q: AnalyzedQuery): 'all' | 'some' | 'none' {
  if ((q.required.length === 0 && !browsable(q)) || !passesFilters(doc, q) || q.excluded.some((m) => matches(reader, id, m))) return 'none';
  let n = 0;
  for (const g of q.required) if (g.some((m) => matches(reader, id, m))) n++;
  return n === q.required.length ? 'all' : n > 0 ? 'some' : 'none';
}

/**
 * A query of filters only (`site:docs.example.com`, `lang:de`) lists the
 * matching pages by link score, when a positive filter narrows the index.
 */
function browsable(q: AnalyzedQuery): boolean {
  return q.required.length === 0 && q.filters.some((f) => !f.exclude && (f.field !== 'type' || f.value.includes('/')));
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
  const query = analyzeQuery(parsed, snap.analyzer, settings.stopWords);
  const empty = { raw: req.query, parsed, query, hits: [], ...paging, total: 0, partial: 0, exact: true, hidden: 0, hasNext: false };
  if (query.required.length === 0 && !browsable(query)) return { ...empty, ms: performance.now() - t0 };

  const tags = candidateTags(query);
  const pool = new Set<number>();
  let exact = true;
  for (const terms of expansions(query)) {
    const ids = reader.candidates(terms, { limit: settings.candidates, tags });
    if (ids.length >= settings.candidates) exact = false;
    for (const id of ids) pool.add(id);
  }

  const scorer = makeScorer(reader, query.terms, settings.rank);
  const full: Hit[] = [];
  const some: Hit[] = [];
  for (const id of pool) {
    if (reader.isDeleted(id)) continue;
    const doc = reader.doc(id);
    const kind = matchOf(reader, id, doc, query);
    if (kind !== 'none') (kind === 'all' ? full : some).push({ id, score: scorer.base(id), site: doc.site, doc, moreFromSite: false });
  }
  const byScore = (a: Hit, b: Hit) => b.score - a.score || a.id - b.id;
  // Too few pages hold every word: partial matches join them, ranked together (a strict
  // "all words first" order measured worse on questions), and the page says so.
  const partial = full.length < settings.partialBelow ? some : [];
  const ranked = partial.length ? full.concat(partial) : full;
  ranked.sort(byScore);
  // The proximity bonus re-orders the best PROXIMITY_DEPTH only: decoding positions dominates the cost.
  for (let i = 0; i < Math.min(PROXIMITY_DEPTH, ranked.length); i++) ranked[i]!.score += scorer.proximity(ranked[i]!.id);
  ranked.sort(byScore);
  const page = groupBySite(ranked, paging.hitsPerSite, paging.start, paging.hitsPerPage);
  for (const h of page.hits) h.moreFromSite = page.sitesWithMore.has(h.site);
  return {
    raw: req.query,
    parsed,
    query,
    hits: page.hits,
    ...paging,
    total: ranked.length,
    partial: partial.length,
    exact,
    hidden: page.hidden,
    hasNext: page.hasNext,
    ms: performance.now() - t0,
  };
}
