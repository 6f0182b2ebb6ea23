/**
 * @module searcher/sorted
 * Bisection of an ascending list, shared by the ranking's located documents
 * and the summary's kept words.
 */

/** The first index at or after `from` of an ascending array whose value is not below `x` (its length when none is). */
export function lowerBound(a: ArrayLike<number>, x: number, from = 0): number {
  let lo = from;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
