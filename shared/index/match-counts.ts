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
  ids: Uint32Array;
  values: readonly string[];
}

/**
 * A document count per document, kept by a reader between its counting
 * passes: each pass leaves it cleared, so a query allocates nothing the
 * size of the index (megabytes a query at a million pages).
 */
export class HeldCounts {
  private held: Uint8Array | undefined;

  constructor(private readonly docCount: number) {}

  /** The zeroed array for a pass over fewer than 256 lists; `release` clears it again. */
  take(): Uint8Array {
    return (this.held ??= new Uint8Array(this.docCount));
  }

  release(): void {
    this.held?.fill(0);
  }
}

/**
 * Counts the documents of `lists` (one a term, `terms` of them: a term
 * missing from the index has no list, and no document holds every term)
 * among `docCount`, but for the `deleted`. One pass over the postings: a
 * document is counted among those holding some terms when first met, and
 * moved to those holding every term when its last term is.
 */
export function countMatches(lists: readonly TermBlocks[], terms: number, docCount: number, column: (tag: CountedTag) => TagColumn, deleted: ReadonlySet<number>, shared = new HeldCounts(docCount)): MatchCounts {
  const cols = COUNTED_TAGS.map(column);
  const ids = cols.map((c) => c.ids);
  const met = cols.map((c) => new Uint32Array(c.values.length));
  const fullBy = cols.map((c) => new Uint32Array(c.values.length));
  const borrowed = lists.length >= 2 && lists.length < 256;
  const held = borrowed ? shared.take() : lists.length < 2 ? undefined : new Uint16Array(docCount);
  const skip = deleted.size > 0;
  let metCount = 0;
  let full = 0;
  const buf = blockBuffers();
  try {
    for (const list of lists)
      for (let b = 0; b < list.blocks; b++) {
        const m = list.decode(b, buf, false);
        const { docs } = buf;
        for (let i = 0; i < m; i++) {
          const d = docs[i]!;
          if (skip && deleted.has(d)) continue;
          const times = held ? ++held[d]! : 1;
          if (times === 1) {
            metCount++;
            for (let k = 0; k < ids.length; k++) met[k]![ids[k]![d]!]!++;
          }
          if (times === terms) {
            full++;
            for (let k = 0; k < ids.length; k++) fullBy[k]![ids[k]![d]!]!++;
          }
        }
      }
  } finally {
    if (borrowed) shared.release();
  }
  const tag = (k: number): TagCounts => ({ values: cols[k]!.values, full: fullBy[k]!, some: met[k]!.map((n, v) => n - fullBy[k]![v]!) });
  return { full, some: metCount - full, tags: { site: tag(0), type: tag(1), lang: tag(2) } };
}
