/**
 * @module searcher/shard/protocol
 * What a broker and its shard searchers say to each other over HTTP (JSON
 * bodies under /shard/). Statistics go up once per index generation and a
 * term's frequencies once per term and generation; a query is then one call
 * per shard: the broker sends the collection statistics over every shard
 * with it, so each shard scores with the same IDFs and average field lengths
 * one merged index would have, and the shard answers with its matches, the
 * bonuses of its best and the summaries of those that can reach the page.
 * Every answer names the shard's index generation, so the broker sees when a
 * shard switched, and the protocol's number, so a broker and shards of
 * different releases refuse each other instead of misreading.
 */
import type { AnalyzerOptions } from '../../shared/analysis/analyzer.js';
import { FIELDS, type Field, type StoredDoc } from '../../shared/index/types.js';
import type { TermStats } from '../rank/bm25f.js';
import type { Respelled } from '../spell.js';
import type { Summary } from '../summary.js';

/** What a broker and a shard must both speak; a shard answers another number with 409 and a message. */
export const SHARD_PROTOCOL = 2;

/** GET /shard/stats */
export interface ShardStats {
  /** Absent before protocol 2. */
  protocol?: number;
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
  protocol: number;
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

/**
 * POST /shard/query: one query, answered in one call. The shard ranks its
 * matches as the broker will (base score, then its bonuses), so its best
 * `depth` by base score hold every one of its hits among the best `depth`
 * over all shards, and its best `summaries` after the bonuses every one of
 * its hits on the page unless grouping by site reaches deeper (the broker
 * then asks /shard/details for the rest).
 */
export interface ShardQueryRequest {
  protocol: number;
  query: string;
  stats: GlobalStats;
  /** How many of its best by base score get the proximity bonus (PROXIMITY_DEPTH, or SECTION_DEPTH for one word). */
  depth: number;
  /** How many of them also get the section lift (SECTION_DEPTH). */
  lifted: number;
  /** How many of its best after the bonuses come with their summaries (the page's start + hits per page). */
  summaries: number;
  partialBelow: number;
  /** Asks for "did you mean" (the broker asks when some query word is in no shard). */
  suggest: boolean;
}

/**
 * One match: its document id in the shard's index generation (the broker
 * names pages by it in later calls), its site, type and language as indexes
 * into the answer's lists, its base score (BM25F + link prior), and 1 for a
 * full match, 0 for a partial one. Ids and lists keep the answer small: it
 * holds every match.
 */
export type WireHit = [id: number, site: number, type: number, lang: number, base: number, full: 0 | 1];

/** The bonuses of one of the shard's best: its proximity bonus and its section lift (0 past `lifted`). */
export type WireBonus = [id: number, proximity: number, lift: number];

export type ShownDoc = { doc: StoredDoc; summary: Summary; section?: { heading: string; id?: string } };

export interface ShardQueryResponse {
  protocol: number;
  version: string;
  exact: boolean;
  /** The distinct sites of the matches, each with the URL of one of its pages (to find its home page by). */
  sites: string[];
  siteUrls: string[];
  types: string[];
  langs: string[];
  hits: WireHit[];
  bonus: WireBonus[];
  /** Documents with their summaries, by id. */
  shown: Record<number, ShownDoc>;
  /** Sites of the matches named by their home page's title, when this shard holds it. */
  names: Record<string, string>;
  suggestion: Respelled | null;
}

/** POST /shard/details: what the result page shows of the hits this shard holds. */
export interface DetailsRequest {
  protocol: number;
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
  docs: ShownDoc[];
  names: Record<string, string>;
  suggestion: Respelled | null;
}

/** POST /shard/explain: the explain page of one document, scored with the broker's statistics. */
export interface ExplainRequest {
  protocol: number;
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
