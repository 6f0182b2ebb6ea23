/**
 * @module searcher/summary-offsets
 * The words a summary needs, from what the index already holds: the query
 * terms' positions in the page and the word offsets stored beside its parse
 * text at index time (segments/offsets.ts). No text is analyzed and no word
 * copied: the head of the page (the summary when nothing matches) and
 * `context` words on both sides of every hit are ranges of the stored offsets
 * for summarizeRanges(), with a cut wherever words were skipped, exactly as
 * searcher/summary-tokens finds them by scanning.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import type { IndexReader } from '../shared/index/types.js';
import type { TokenOffsets } from '../segments/offsets.js';
import { Furniture, MAX_SUMMARY_TOKENS, type SummaryOptions, type WordRanges } from './summary.js';

/** The query terms at token indexes of the page's text: indexes in increasing order, each with its term. */
export interface TextHits {
  at: number[];
  terms: string[];
}

/**
 * Where `terms` stand in document `id`'s text, from the index's positions
 * (title first, then the content, which starts with the text): only the
 * first `limit` words of the text. Each term's positions are in order; they
 * are merged, not sorted.
 */
export function indexedHits(reader: IndexReader, id: number, terms: Iterable<string>, limit: number): TextHits {
  const title = reader.fieldLength(id, 'title');
  const lists: { term: string; positions: readonly number[]; next: number }[] = [];
  for (const term of new Set(terms)) {
    const e = reader.entry(id, reader.termId(term));
    if (e < 0) continue;
    const positions = reader.entryPositions(e);
    let next = 0;
    while (next < positions.length && positions[next]! < title) next++;
    lists.push({ term, positions, next });
  }
  const hits: TextHits = { at: [], terms: [] };
  for (;;) {
    let first: (typeof lists)[number] | undefined;
    let p = title + limit;
    for (const l of lists) if (l.next < l.positions.length && l.positions[l.next]! < p) (first = l, (p = l.positions[l.next]!));
    if (!first) return hits;
    first.next++;
    hits.at.push(p - title);
    hits.terms.push(first.term);
  }
}

/**
 * Whether the stored offsets still describe `text` for these hits: each
 * term's first hit is a word the analyzer makes that term from. A page parsed
 * or analyzed differently since it was indexed fails this, and is scanned.
 */
export function offsetsAgree(analyzer: Pick<Analyzer, 'terms'>, text: string, offsets: TokenOffsets, hits: TextHits): boolean {
  const seen = new Set<string>();
  for (let h = 0; h < hits.at.length; h++) {
    const i = hits.at[h]!;
    const term = hits.terms[h]!;
    if (seen.has(term)) continue;
    seen.add(term);
    if (i >= offsets.count || offsets.ends[i]! > text.length) return false;
    if (!analyzer.terms(text.slice(offsets.starts[i], offsets.ends[i])).includes(term)) return false;
  }
  return true;
}

/** The words a summary reads from stored offsets, the offsets where a part starts after skipped words, and whether content words follow. */
export interface StoredWords {
  words: WordRanges;
  cuts: number[];
  more: boolean;
}

/**
 * The head of the text and the parts around each hit, as ranges of the
 * stored offsets (the first `limit` words): no word is copied or decoded.
 */
export function offsetWords(
  offsets: TokenOffsets,
  hits: TextHits,
  opts: SummaryOptions,
  furniture: readonly (readonly [number, number])[],
  limit = offsets.count,
): StoredWords {
  const { starts, ends } = offsets;
  const n = Math.min(limit, offsets.count);
  const context = Math.max(0, opts.context);
  const length = Math.max(1, opts.length);
  const head = new Furniture(furniture);
  // The head: `length` content words and one more, for a page where nothing matches.
  let headEnd = 0;
  for (let words = 0; headEnd < n && words <= length; headEnd++) if (!head.covers(starts[headEnd]!, ends[headEnd]!)) words++;
  // Hits and their parts come in text order: parts that overlap or touch merge as they come.
  let hitCount = hits.at.length;
  while (hitCount > 0 && hits.at[hitCount - 1]! >= n) hitCount--;
  const cuts: number[] = [];
  const ranges: [number, number][] = [];
  // summarize() reads no further than MAX_SUMMARY_TOKENS tokens; a part begun before them still makes its cut.
  let size = 0;
  const part = (from: number, to: number) => {
    if (size > MAX_SUMMARY_TOKENS) return;
    if (from > 0 && from < to) cuts.push(starts[from]!);
    if (size < MAX_SUMMARY_TOKENS) ranges.push([from, Math.min(to, from + MAX_SUMMARY_TOKENS - size)]);
    size += to - from;
  };
  let from = 0;
  let end = headEnd;
  for (let h = 0; h < hitCount; h++) {
    const i = hits.at[h]!;
    const a = Math.max(0, i - context);
    const b = Math.min(n, i + context + 2);
    if (a <= end) end = Math.max(end, b);
    else {
      part(from, end);
      from = a;
      end = b;
    }
  }
  part(from, end);
  const tail = new Furniture(furniture);
  let more = n < offsets.count || size > MAX_SUMMARY_TOKENS;
  for (let i = end; i < n && !more; i++) more = !tail.covers(starts[i]!, ends[i]!);
  return { words: { starts, ends, ranges, hits: hits.at.slice(0, hitCount), terms: hits.terms.slice(0, hitCount) }, cuts, more };
}
