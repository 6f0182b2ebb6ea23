/**
 * @module searcher/shard/protocol
 * What a broker and its shard searchers say to each other over HTTP (JSON
 * bodies under /shard/). Statistics go up once per index generation and a
 * query's term frequencies on demand; the broker sends the collection
 * statistics over every shard back down with each query, so each shard
 * scores with the same IDFs and average field lengths one merged index
 * would have. Every answer names the shard's index generation, so the
 * broker sees when a shard switched.
 */
import type { AnalyzerOptions } from '../../shared/analysis/analyzer.js';
import { FIELDS, type Field, type StoredDoc } from '../../shared/index/types.js';
import type { TermStats } from '../rank/bm25f.js';
import type { Respelled } from '../spell.js';
import type { Summary } from '../summary.js';

/** GET /shard/stats */
export interface ShardStats {
  version: string;
  docCount: number;
  deletedCount: number;
  termCount: number;
  createdAt: number;
  loadedAt: number;
  /** Segments the index was merged from, and segments this shard can read summaries from. */
  indexSegments: string[];
  segments: number;
  avgFieldLength: Record<Field, number>;
  avgSectionLength: number;
  sectionCount: number;
  analyzer: AnalyzerOptions;
}

/** POST /shard/df: per term, its document frequency in each field (FIELDS order). */
export interface DfRequest {
  terms: string[];
}
export interface DfResponse {
  version: string;
  df: number[][];
}

/** The collection statistics a broker sends with a query: over every shard that answered. */
export interface GlobalStats {
  docCount: number;
  avgFieldLength: Record<Field, number>;
  avgSectionLength: number;
  /** A term's document frequency: its largest per-field frequency summed over shards. */
  df: Record<string, number>;
}

/** POST /shard/search */
export interface ShardSearchRequest {
  query: string;
  stats: GlobalStats;
}

/**
 * One match: its document id in the shard's index generation (the broker
 * names pages by it in later calls of the same query), its site, type and
 * language as indexes into the answer's lists, its base score (BM25F + link
 * prior), and 1 for a full match, 0 for a partial one. Ids and lists keep the
 * answer small: it holds every match.
 */
export type WireHit = [id: number, site: number, type: number, lang: number, base: number, full: 0 | 1];

export interface ShardSearchResponse {
  version: string;
  exact: boolean;
  /** The distinct sites of the matches, each with the URL of one of its pages (to find its home page by). */
  sites: string[];
  siteUrls: string[];
  types: string[];
  langs: string[];
  hits: WireHit[];
}

/**
 * POST /shard/proximity: the proximity bonus of some of the shard's matches,
 * those among the best PROXIMITY_DEPTH over every shard, so no more positions
 * are decoded than one searcher would.
 */
export interface ProximityRequest extends ShardSearchRequest {
  /** In the broker's rank order. */
  ids: number[];
  /** How many of the first ids also get the section lift (within the broker's SECTION_DEPTH). */
  lifted?: number;
}
export interface ProximityResponse {
  version: string;
  bonus: number[];
}

/** POST /shard/details: what the result page shows of the hits this shard holds. */
export interface DetailsRequest {
  query: string;
  ids: number[];
  /** Sites to name, each by a page of it (the name is its home page's title when this shard holds that page). */
  sites: { site: string; url: string }[];
  /** Asks for "did you mean" (the broker asks when some query word is in no shard). */
  suggest: boolean;
}
export interface DetailsResponse {
  version: string;
  /** In the order of the ids asked. */
  docs: { doc: StoredDoc; summary: Summary; section?: { heading: string; id?: string } }[];
  names: Record<string, string>;
  suggestion: Respelled | null;
}

/** POST /shard/explain: the explain page of one document, scored with the broker's statistics. */
export interface ExplainRequest {
  url: string;
  query: string;
  stats: GlobalStats;
}

/** A broker's statistics as the scorer reads them. */
export function termStatsOf(g: GlobalStats): TermStats {
  return { docCount: g.docCount, avgFieldLength: (f) => g.avgFieldLength[f], docFreq: (t) => g.df[t] ?? 0, avgSectionLength: g.avgSectionLength };
}

/**
 * The statistics one merged index of the shards would have: documents
 * summed, average field lengths weighted by documents (a section's by
 * sections), and a term's
 * frequency the largest over fields of its per-field frequencies summed
 * (readerStats' rule, over the union).
 */
export function combineStats(shards: readonly { stats: ShardStats; df: ReadonlyMap<string, readonly number[]> }[], terms: readonly string[]): GlobalStats {
  const docCount = shards.reduce((n, s) => n + s.stats.docCount, 0);
  const avgFieldLength = {} as Record<Field, number>;
  for (const f of FIELDS) avgFieldLength[f] = docCount ? shards.reduce((n, s) => n + s.stats.avgFieldLength[f] * s.stats.docCount, 0) / docCount : 0;
  const df: Record<string, number> = {};
  for (const t of terms) {
    let best = 0;
    for (let f = 0; f < FIELDS.length; f++) best = Math.max(best, shards.reduce((n, s) => n + (s.df.get(t)?.[f] ?? 0), 0));
    df[t] = best;
  }
  const sections = shards.reduce((n, s) => n + s.stats.sectionCount, 0);
  const avgSectionLength = sections ? shards.reduce((n, s) => n + s.stats.avgSectionLength * s.stats.sectionCount, 0) / sections : 0;
  return { docCount, avgFieldLength, avgSectionLength, df };
}
