/**
 * @module shared/bisect
 * Bisection of an ascending list: the searcher's located documents and kept
 * words, and the tables of a segment's summaries file.
 */

/** The first index at or after `from` of an ascending array whose value is not below `x` (its length when none is). */
export function lowerBound(a: ArrayLike<number>, x: number, from = 0): number {
  return lowerBoundBy(a.length, (i) => a[i]!, x, from);
}

/** lowerBound over `n` values read by `at` (ascending), for a table that is not an array of them. */
export function lowerBoundBy(n: number, at: (i: number) => number, x: number, from = 0): number {
  let lo = from;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(mid) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
