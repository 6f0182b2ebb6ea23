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
import { mergeSpans } from './summary-tokens.js';

/** The query terms at token indexes of the page's text (index → term). */
export type TextHits = Map<number, string>;

/**
 * Where `terms` stand in document `id`'s text, from the index's positions
 * (title first, then the content, which starts with the text): only the
 * first `limit` words of the text.
 */
export function indexedHits(reader: IndexReader, id: number, terms: Iterable<string>, limit: number): TextHits {
  const title = reader.fieldLength(id, 'title');
  const hits: TextHits = new Map();
  for (const term of new Set(terms)) {
    const e = reader.entry(id, reader.termId(term));
    if (e < 0) continue;
    for (const p of reader.entryPositions(e)) {
      if (p < title) continue;
      if (p - title >= limit) break;
      hits.set(p - title, term);
    }
  }
  return hits;
}

/**
 * Whether the stored offsets still describe `text` for these hits: each
 * term's first hit is a word the analyzer makes that term from. A page parsed
 * or analyzed differently since it was indexed fails this, and is scanned.
 */
export function offsetsAgree(analyzer: Pick<Analyzer, 'terms'>, text: string, offsets: TokenOffsets, hits: TextHits): boolean {
  const seen = new Set<string>();
  for (const [i, term] of hits) {
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
  const at = [...hits.keys()].filter((i) => i < n).sort((a, b) => a - b);
  const spans: [number, number][] = [[0, headEnd]];
  for (const i of at) spans.push([Math.max(0, i - context), Math.min(n, i + context + 2)]);
  const parts = mergeSpans(spans);
  const end = parts[parts.length - 1]![1];
  const cuts: number[] = [];
  const ranges: [number, number][] = [];
  // summarize() reads no further than MAX_SUMMARY_TOKENS tokens; a part begun before them still makes its cut.
  let size = 0;
  for (const [from, to] of parts) {
    if (size > MAX_SUMMARY_TOKENS) break;
    if (from > 0 && from < to) cuts.push(starts[from]!);
    if (size < MAX_SUMMARY_TOKENS) ranges.push([from, Math.min(to, from + MAX_SUMMARY_TOKENS - size)]);
    size += to - from;
  }
  const tail = new Furniture(furniture);
  let more = n < offsets.count || size > MAX_SUMMARY_TOKENS;
  for (let i = end; i < n && !more; i++) more = !tail.covers(starts[i]!, ends[i]!);
  return { words: { starts, ends, ranges, hits: at, terms: at.map((i) => hits.get(i)!) }, cuts, more };
}
