/**
 * @module searcher/rank/proximity
 * A bonus for query words that stand together: for each pair of words next
 * to each other in the query, the smallest distance between their
 * occurrences in the title + body token stream. Adjacent in query order
 * scores full, the reverse order or a gap less, beyond `window` nothing.
 * Weighted by the rarer word's IDF so that two common words meeting by
 * chance count little. The scan is bounded (`maxPositions` per word), since
 * it is the costliest part of ranking (reference/ranking.md §5).
 */

export interface ProximityParams {
  /** Multiplier of the bonus; 0 turns proximity off. */
  weight: number;
  /** Largest distance (in tokens) that still earns a bonus. */
  window: number;
  /** Occurrences of each word looked at (the first ones in the stream). */
  maxPositions: number;
}

export interface PairProximity {
  a: string;
  b: string;
  /** Effective distance: 1 = adjacent in query order; Infinity = not within reach. */
  distance: number;
  score: number;
}

/**
 * Smallest effective distance between an occurrence of `a` and one of `b`
 * (sorted lists). `b` right after `a` is 1; `b` before `a` counts one more
 * than its gap, so "crawler web" is slightly worse than "web crawler".
 */
export function minDistance(a: readonly number[], b: readonly number[], maxPositions: number): number {
  const na = Math.min(a.length, maxPositions);
  const nb = Math.min(b.length, maxPositions);
  let i = 0;
  let j = 0;
  let best = Infinity;
  while (i < na && j < nb) {
    const pa = a[i]!;
    const pb = b[j]!;
    const d = pb > pa ? pb - pa : pa - pb + 1;
    if (d < best) best = d;
    if (best === 1) break;
    if (pa < pb) i++;
    else j++;
  }
  return best;
}

/**
 * The query words proximity pairs, in query order, as term indexes: each
 * term on its own, except that the alternatives of a word with synonyms
 * (`groups`, each a list of alternatives of term indexes) are one word,
 * standing wherever any of them does. So "vacation days" pairs the days
 * with the vacation or any synonym of it, never one synonym with another.
 */
export function queryWords(termCount: number, groups: readonly (readonly (readonly number[])[])[]): number[][] {
  const groupOf = new Int32Array(termCount).fill(-1);
  groups.forEach((g, i) => g.forEach((a) => a.forEach((t) => groupOf[t] === -1 && (groupOf[t] = i))));
  const words: number[][] = [];
  const placed = new Set<number>();
  for (let t = 0; t < termCount; t++) {
    const g = groupOf[t]!;
    if (g < 0) words.push([t]);
    else if (!placed.has(g)) {
      placed.add(g);
      words.push([...new Set(groups[g]!.flat())].filter((u) => groupOf[u] === g));
    }
  }
  return words;
}

/**
 * Which words' positions can add to the proximity bonus, given which words
 * may have positions in the page (`may[w]`: false only when each of its
 * terms is known to have none there): a pair counts only when both of its
 * words have positions, so a word beside no word that may have any adds
 * nothing, and its positions need not be read (a partial match holding one
 * word of a query reads none).
 */
export function pairedWords(may: readonly boolean[]): boolean[] {
  return may.map((m, w) => m && (may[w - 1] === true || may[w + 1] === true));
}

/** Sorted positions of several terms as one: the first `max` of their union, merged from the sorted lists. */
export function unionPositions(lists: readonly (readonly number[])[], max: number): readonly number[] {
  if (lists.length === 1) return lists[0]!;
  const out: number[] = [];
  const at = new Array<number>(lists.length).fill(0);
  while (out.length < max) {
    let least = Infinity;
    for (let k = 0; k < lists.length; k++) {
      const p = lists[k]![at[k]!];
      if (p !== undefined && p < least) least = p;
    }
    if (least === Infinity) break;
    out.push(least);
    for (let k = 0; k < lists.length; k++) if (lists[k]![at[k]!] === least) at[k]!++;
  }
  return out;
}

/** Distance → share of the pair's bonus: 1 when adjacent, falling linearly to 0 past `window`. */
export function closeness(distance: number, window: number): number {
  return distance > window ? 0 : (window - distance + 1) / window;
}

/**
 * The bonus and its per-pair factors. `positions[i]` and `idfs[i]` belong to
 * the i-th query word, in query order; a word without positions breaks no pair.
 */
export function proximity(terms: readonly string[], positions: readonly (readonly number[])[], idfs: readonly number[], p: ProximityParams): { bonus: number; pairs: PairProximity[] } {
  const pairs: PairProximity[] = [];
  if (p.weight === 0) return { bonus: 0, pairs };
  let bonus = 0;
  for (let i = 0; i + 1 < terms.length; i++) {
    const pa = positions[i]!;
    const pb = positions[i + 1]!;
    if (pa.length === 0 || pb.length === 0 || terms[i] === terms[i + 1]) continue;
    const distance = minDistance(pa, pb, p.maxPositions);
    const score = p.weight * Math.min(idfs[i]!, idfs[i + 1]!) * closeness(distance, p.window);
    pairs.push({ a: terms[i]!, b: terms[i + 1]!, distance, score });
    bonus += score;
  }
  return { bonus, pairs };
}
