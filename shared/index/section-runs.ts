/**
 * @module shared/index/section-runs
 * An entry's section runs (the sections its term occurs in, with its count
 * in each) taken from its positions. Sections cut a page's content; the
 * positions of a page indexed whole (no indexer.max.tokens cap) are every
 * occurrence in its title and content, so where each section starts and a
 * term's positions give the runs exactly, and the index keeps a document's
 * section lengths instead of runs for each of its entries. A page the cap
 * cut has occurrences past its last position that its sections count: its
 * runs are kept as they were counted.
 */

/** Whether a document's section runs follow from its positions: two sections or more, adding up to its indexed content (no occurrence past a cap). */
export function runsFromPositions(sections: ArrayLike<number>, contentLength: number): boolean {
  if (sections.length < 2) return false;
  let sum = 0;
  for (let i = 0; i < sections.length; i++) sum += sections[i]!;
  return sum === contentLength;
}

/**
 * The section runs `[section, tf, …]` of an entry with `positions` (ascending,
 * in the title+content stream, the title's `titleLength` first) in a document
 * of `sections` (lengths, in content order), written into `out`.
 */
export function runsOfPositions(positions: readonly number[], titleLength: number, sections: ArrayLike<number>, out: number[]): number[] {
  let k = 0;
  let section = 0;
  let end = titleLength + sections[0]!;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    if (p < titleLength) continue;
    // The last section takes what lies past the lengths: none, when they add up to the content.
    while (p >= end && section + 1 < sections.length) end += sections[++section]!;
    if (k && out[k - 2] === section) out[k - 1]!++;
    else {
      out[k++] = section;
      out[k++] = 1;
    }
  }
  out.length = k;
  return out;
}

/** A column of no elements in a sections file whose documents without runs take them from their positions; an older file stored every run. */
export const RUNS_FROM_POSITIONS = 'from.positions';
