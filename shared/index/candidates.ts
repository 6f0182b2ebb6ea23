/**
 * @module shared/index/candidates
 * The candidate stage of a search, over the postings read from disk: the
 * documents holding the most of the query's terms first (all of them, then
 * the best partial matches), and among as many terms the best by a weight a
 * posting is given (the searcher's bound of the score), up to a limit. A
 * pass over each term's postings counts its documents in arrays kept from
 * one query to the next, and only the level that overflows the limit is
 * sorted: the cost is the postings read, not the documents in the index.
 */

export const TAG_FIELDS = ['host', 'site', 'type', 'lang'] as const;
export type TagField = (typeof TAG_FIELDS)[number];
export type Tags = Record<TagField, string>;

/** One term's postings as the candidate stage reads them: its documents (ascending) and, optionally, a weight each. */
export interface CandidateList {
  docs: Uint32Array;
  weights?: ArrayLike<number>;
}

/** Per document counts and weight sums, zero between queries; `touched` lists the documents a query counted. */
export class CandidateScratch {
  readonly counts: Uint8Array;
  readonly sums: Float64Array;
  readonly touched: Uint32Array;

  constructor(docCount: number) {
    this.counts = new Uint8Array(docCount);
    this.sums = new Float64Array(docCount);
    this.touched = new Uint32Array(docCount);
  }
}

/**
 * Up to `limit` documents of the lists that `accept` takes (all when given
 * none): by how many lists hold them, most first, then by the sum of their
 * weights and their own, highest first, then by id. The order returned
 * carries no score.
 */
export function selectCandidates(
  lists: readonly CandidateList[],
  limit: number,
  scratch: CandidateScratch,
  accept?: (id: number) => boolean,
  /** A weight of the document's own, added to its postings' (a prior). */
  docWeight?: (id: number) => number,
): number[] {
  const { counts, sums, touched } = scratch;
  let n = 0;
  // More than 255 lists would overflow a count; a query's terms are far fewer.
  const used = lists.slice(0, 255);
  for (const { docs, weights } of used)
    for (let p = 0; p < docs.length; p++) {
      const d = docs[p]!;
      if (counts[d]!++ === 0) touched[n++] = d;
      if (weights) sums[d]! += weights[p]!;
    }
  try {
    const byCount: number[][] = Array.from({ length: used.length + 1 }, () => []);
    for (let i = 0; i < n; i++) {
      const d = touched[i]!;
      if (!accept || accept(d)) byCount[counts[d]!]!.push(d);
    }
    const out: number[] = [];
    for (let c = used.length; c > 0 && out.length < limit; c--) {
      const level = byCount[c]!;
      if (out.length + level.length <= limit) {
        for (const d of level) out.push(d);
        continue;
      }
      takeBest(level, limit - out.length, sums, docWeight, out);
    }
    return out;
  } finally {
    for (let i = 0; i < n; i++) {
      counts[touched[i]!] = 0;
      sums[touched[i]!] = 0;
    }
  }
}

/**
 * Appends to `out` the `k` documents of `level` of the highest weight (their
 * postings' sum, plus their own), the lowest ids among equals. The k-th
 * weight is found by a native sort of the weights alone: a comparator sort of
 * the whole level costs ten times as much on a word in every page.
 */
function takeBest(level: number[], k: number, sums: Float64Array, docWeight: ((id: number) => number) | undefined, out: number[]): void {
  const keys = new Float64Array(level.length);
  for (let i = 0; i < level.length; i++) keys[i] = sums[level[i]!]! + (docWeight ? docWeight(level[i]!) : 0);
  const kth = keys.slice().sort()[level.length - k]!;
  const ties: number[] = [];
  let above = 0;
  for (let i = 0; i < level.length; i++)
    if (keys[i]! > kth) {
      out.push(level[i]!);
      above++;
    } else if (keys[i] === kth) ties.push(level[i]!);
  ties.sort((a, b) => a - b);
  for (let i = 0; i < k - above; i++) out.push(ties[i]!);
}
