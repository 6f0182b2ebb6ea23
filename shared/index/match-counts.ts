/**
 * @module shared/index/match-counts
 * How many documents hold every one of a query's terms and how many only
 * some, by each value of the site, type and language tags: read from the
 * terms' postings' document ids and the docinfo's tag columns alone, with
 * nothing scored, so a search's totals and facets are exact however many
 * documents match while only the few it shows are ranked.
 */
import { blockBuffers } from './postings-codec.js';
import type { TermBlocks } from './types.js';

export const COUNTED_TAGS = ['site', 'type', 'lang'] as const;
export type CountedTag = (typeof COUNTED_TAGS)[number];

/** One tag's counts: by value id, the documents holding every term and only some; `values[id]` names the value. */
export interface TagCounts {
  values: readonly string[];
  full: Uint32Array;
  some: Uint32Array;
}

export interface MatchCounts {
  /** Documents holding every term. */
  full: number;
  /** Documents holding some of the terms but not all. */
  some: number;
  tags: Record<CountedTag, TagCounts>;
}

/** A tag as the docinfo holds it: each document's value id, and the values. */
export interface TagColumn {
  ids: Uint8Array | Uint16Array | Uint32Array;
  values: readonly string[];
}

/**
 * Counts the documents of `lists` (one a term, `terms` of them: a term
 * missing from the index has no list, and no document holds every term)
 * among `docCount`, but for the `deleted`.
 */
export function countMatches(lists: readonly TermBlocks[], terms: number, docCount: number, column: (tag: CountedTag) => TagColumn, deleted: ReadonlySet<number>): MatchCounts {
  const cols = COUNTED_TAGS.map(column);
  const counts = cols.map((c) => ({ values: c.values, full: new Uint32Array(c.values.length), some: new Uint32Array(c.values.length) }));
  const held = lists.length < 2 ? undefined : lists.length < 256 ? new Uint8Array(docCount) : new Uint16Array(docCount);
  const seen = new Uint32Array(lists.reduce((n, l) => n + l.count, 0));
  let n = 0;
  const buf = blockBuffers();
  for (const list of lists)
    for (let b = 0; b < list.blocks; b++) {
      const m = list.decode(b, buf, false);
      const { docs } = buf;
      if (!held) {
        seen.set(docs.subarray(0, m), n);
        n += m;
        continue;
      }
      for (let i = 0; i < m; i++) if (held[docs[i]!]++ === 0) seen[n++] = docs[i]!;
    }
  let full = 0;
  let some = 0;
  for (let i = 0; i < n; i++) {
    const d = seen[i]!;
    if (deleted.size && deleted.has(d)) continue;
    const all = (held ? held[d]! : 1) === terms;
    if (all) full++;
    else some++;
    for (let k = 0; k < cols.length; k++) (all ? counts[k]!.full : counts[k]!.some)[cols[k]!.ids[d]!]!++;
  }
  return { full, some, tags: { site: counts[0]!, type: counts[1]!, lang: counts[2]! } };
}
