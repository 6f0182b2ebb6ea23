/**
 * @module searcher/spell-vocabulary
 * The index vocabulary as "did you mean" searches it: the sorted terms
 * front-coded (each term as the length it shares with the one before and
 * the UTF-16 units after that), walked as the trie they spell. One row of
 * the edit-distance table is computed per trie node, shared by every term
 * under it, and a node whose row already exceeds the distance allowed ends
 * the walk of everything under it; so a lookup touches the few thousand
 * prefixes near the typed word, not every term of a near length (which
 * made a typo cost 40–60 ms of CPU on a 100k-term vocabulary).
 */

/** Sorted terms, front-coded: built once per index, 2 bytes a term beside the units that differ (1.1 MB at realweb's 109k terms). */
export interface SpellVocabulary {
  /** Units each term shares with the term before it (a byte each while no term is longer than 255 units). */
  readonly shared: Uint8Array | Uint16Array;
  /** Each term's length in UTF-16 units. */
  readonly length: Uint8Array | Uint16Array;
  /** Each term's units past the shared ones, one term after another. */
  readonly units: Uint16Array;
  /** The longest term's length. */
  readonly longest: number;
}

/** The vocabulary of `count` terms, `term(id)` in the dictionary's order (sorted, so neighbours share long prefixes). */
export function spellVocabulary(count: number, term: (id: number) => string): SpellVocabulary {
  const shared = new Uint16Array(count);
  const length = new Uint16Array(count);
  let units = new Uint16Array(Math.max(16, count * 4));
  let used = 0;
  let longest = 0;
  let prev = '';
  for (let id = 0; id < count; id++) {
    const t = term(id);
    const max = Math.min(t.length, prev.length, 0xffff);
    let s = 0;
    while (s < max && t.charCodeAt(s) === prev.charCodeAt(s)) s++;
    shared[id] = s;
    length[id] = Math.min(t.length, 0xffff);
    if (used + t.length - s > units.length) {
      const grown = new Uint16Array(Math.max(units.length * 2, used + t.length));
      grown.set(units.subarray(0, used));
      units = grown;
    }
    for (let k = s; k < length[id]!; k++) units[used++] = t.charCodeAt(k);
    longest = Math.max(longest, length[id]!);
    prev = t;
  }
  const narrow = longest <= 0xff;
  return { shared: narrow ? Uint8Array.from(shared) : shared, length: narrow ? Uint8Array.from(length) : length, units: units.slice(0, used), longest };
}

/**
 * Every term within `max` edits of `word` (optimal string alignment
 * distance, as searcher/spell's editDistance: edits and swapped
 * neighbours), with its distance; the word itself (distance 0) left out.
 */
export function termsNear(v: SpellVocabulary, word: string, max: number): Map<string, number> {
  const near = new Map<string, number>();
  const m = word.length;
  const q = new Uint16Array(m);
  for (let j = 0; j < m; j++) q[j] = word.charCodeAt(j);
  const deepest = Math.min(v.longest, m + max);
  const w = m + 1;
  // Row d: the distances from the walked path's first d units to each prefix of the word.
  const rows = new Int32Array((deepest + 1) * w);
  for (let j = 0; j <= m; j++) rows[j] = j;
  const path = new Uint16Array(Math.max(1, v.longest));
  const { shared, length, units } = v;
  const n = shared.length;
  let valid = 0;
  let at = 0;
  for (let id = 0; id < n; ) {
    const s = shared[id]!;
    const len = length[id]!;
    for (let k = s; k < len; k++) path[k] = units[at++]!;
    if (valid > s) valid = s;
    // The depth whose row rules out every term under it, or 0 when the whole term was walked.
    let cut = 0;
    for (let d = valid + 1; d <= len; d++) {
      if (d > deepest) {
        cut = d;
        break;
      }
      const c = path[d - 1]!;
      const row = d * w;
      const up = row - w;
      rows[row] = d;
      let rowMin = d;
      for (let j = 1; j <= m; j++) {
        let best = rows[up + j]! + 1;
        const left = rows[row + j - 1]! + 1;
        if (left < best) best = left;
        const diag = rows[up + j - 1]! + (c === q[j - 1] ? 0 : 1);
        if (diag < best) best = diag;
        if (d > 1 && j > 1 && c === q[j - 2] && path[d - 2] === q[j - 1]) {
          const swap = rows[up - w + j - 2]! + 1;
          if (swap < best) best = swap;
        }
        rows[row + j] = best;
        if (best < rowMin) rowMin = best;
      }
      valid = d;
      if (rowMin > max) {
        cut = d;
        break;
      }
    }
    if (cut === 0 && len + max >= m) {
      const dist = rows[len * w + m]!;
      if (dist > 0 && dist <= max) near.set(String.fromCharCode(...path.subarray(0, len)), dist);
    }
    id++;
    // Terms sharing the cut prefix lie next in the sorted order: passed over unread.
    if (cut > 0)
      for (; id < n && shared[id]! >= cut; id++) at += length[id]! - shared[id]!;
  }
  return near;
}
