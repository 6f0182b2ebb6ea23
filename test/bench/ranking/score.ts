/**
 * Scores of one ranking over one judged query set: MRR@10 (reciprocalRank
 * of test/judged/queries.ts), P@1 and recall@10, and the queries it misses.
 * An exact duplicate of an answer (same title and text at another URL: the
 * corpus' print views) counts as that answer: showing it first gives the
 * person the same page, and engines without duplicate removal would
 * otherwise lose points on dedup rather than on ranking.
 */
import { judgedPages, pageUrl, type JudgedHost } from '../../judged/corpus.js';
import { reciprocalRank, type JudgedQuery } from '../../judged/queries.js';

export interface Miss {
  q: string;
  set: string;
  /** Rank of the first answer, 0 when not in the top 10. */
  rank: number;
  /** What came first instead ('' when nothing matched). */
  first: string;
}

export interface SetScore {
  n: number;
  mrr: number;
  p1: number;
  recall: number;
  /** Reciprocal rank of each query, in set order. */
  rr: number[];
  misses: Miss[];
}

/** URL → the URLs of every page with the same title and text (itself included). */
export function duplicateGroups(base: (h: JudgedHost) => string): Map<string, string[]> {
  const byContent = new Map<string, string[]>();
  for (const p of judgedPages()) {
    const key = `${p.title}\n${p.body}`;
    byContent.set(key, [...(byContent.get(key) ?? []), pageUrl(p, base)]);
  }
  const out = new Map<string, string[]>();
  for (const urls of byContent.values()) for (const u of urls) out.set(u, urls);
  return out;
}

export async function scoreSet(
  rank: (q: string) => Promise<string[]>,
  set: string,
  queries: readonly JudgedQuery[],
  base: (h: JudgedHost) => string,
  dups: Map<string, string[]>,
): Promise<SetScore> {
  let mrr = 0;
  let p1 = 0;
  let recall = 0;
  const misses: Miss[] = [];
  const rrs: number[] = [];
  for (const jq of queries) {
    const ranked = (await rank(jq.q)).slice(0, 10);
    const answers = jq.relevant.map((r) => dups.get(pageUrl(r, base)) ?? [pageUrl(r, base)]);
    const rr = reciprocalRank(ranked, answers.flat());
    mrr += rr;
    rrs.push(rr);
    if (rr === 1) p1++;
    recall += answers.filter((group) => group.some((u) => ranked.includes(u))).length / answers.length;
    if (rr < 1) misses.push({ q: jq.q, set, rank: rr ? Math.round(1 / rr) : 0, first: ranked[0] ?? '' });
  }
  const n = queries.length;
  return { n, mrr: mrr / n, p1: p1 / n, recall: recall / n, rr: rrs, misses };
}
