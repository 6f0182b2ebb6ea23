/**
 * @module crawler/evaluate/metrics
 * How well the search answers a team's judged queries: the rank of the
 * first expected URL in each query's first ten hits, MRR@10 and P@1 over
 * all, the misses, and the queries whose first hit is not what it was at
 * the last run. Pure over plain data.
 */
import type { Judgment } from './judgments.js';

export const DEPTH = 10;

export interface QueryOutcome {
  query: string;
  expected: string[];
  /** The first ten hits' URLs, as served. */
  top: string[];
  /** 1-based rank of the first expected URL in `top`, or null: a miss. */
  rank: number | null;
}

export interface Evaluation {
  /** When it ran (ms). */
  at: number;
  judgments: string;
  documents: number;
  mrr: number;
  p1: number;
  queries: QueryOutcome[];
  /** The run before, when there was one, and the queries whose first hit changed since. */
  lastAt: number | null;
  changed: FirstHitChange[];
}

/** A query's outcome from its hits. */
export function outcome(j: Pick<Judgment, 'query' | 'expected'>, hits: readonly string[]): QueryOutcome {
  const top = hits.slice(0, DEPTH);
  const i = top.findIndex((u) => j.expected.includes(u));
  return { query: j.query, expected: j.expected, top, rank: i < 0 ? null : i + 1 };
}

/** MRR@10 and P@1 of the outcomes. */
export function scores(queries: readonly QueryOutcome[]): { mrr: number; p1: number } {
  if (queries.length === 0) return { mrr: 0, p1: 0 };
  const rr = queries.reduce((n, q) => n + (q.rank ? 1 / q.rank : 0), 0);
  return { mrr: rr / queries.length, p1: queries.filter((q) => q.rank === 1).length / queries.length };
}

export interface FirstHitChange {
  query: string;
  was: string | null;
  now: string | null;
  wasRank: number | null;
  nowRank: number | null;
}

/** The queries asked both times whose first hit differs now. */
export function firstHitChanges(last: readonly QueryOutcome[], now: readonly QueryOutcome[]): FirstHitChange[] {
  const before = new Map(last.map((q) => [q.query, q]));
  const out: FirstHitChange[] = [];
  for (const q of now) {
    const b = before.get(q.query);
    if (!b || (b.top[0] ?? null) === (q.top[0] ?? null)) continue;
    out.push({ query: q.query, was: b.top[0] ?? null, now: q.top[0] ?? null, wasRank: b.rank, nowRank: q.rank });
  }
  return out;
}

/** `/explain?url=…&query=…`: why the expected page ranks where it does (relative to a searcher). */
export function explainPath(q: Pick<QueryOutcome, 'query' | 'expected'>): string {
  return `/explain?url=${encodeURIComponent(q.expected[0]!)}&query=${encodeURIComponent(q.query)}`;
}
