/**
 * @module searcher/summary-offsets
 * The words a summary needs, from what the index already holds: the query
 * terms' positions in the page and the word offsets stored beside its parse
 * text at index time (segments/offsets.ts). No text is analyzed: the head of
 * the page (the summary when nothing matches) and `context` words on both
 * sides of every hit become tokens for summarize(), with a cut wherever words
 * were skipped, exactly as searcher/summary-tokens finds them by scanning.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import type { IndexReader } from '../shared/index/types.js';
import type { TokenOffsets } from '../segments/offsets.js';
import { Furniture, MAX_SUMMARY_TOKENS, type SummaryOptions } from './summary.js';
import { mergeSpans, type SummaryTokens } from './summary-tokens.js';

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

/** Tokens of the head of the text and of the parts around each hit, from stored offsets (the first `limit` words). */
export function offsetTokens(
  offsets: TokenOffsets,
  hits: TextHits,
  opts: SummaryOptions,
  furniture: readonly (readonly [number, number])[],
  limit = offsets.count,
): SummaryTokens {
  const { starts, ends } = offsets;
  const n = Math.min(limit, offsets.count);
  const context = Math.max(0, opts.context);
  const length = Math.max(1, opts.length);
  const head = new Furniture(furniture);
  // The head: `length` content words and one more, for a page where nothing matches.
  let headEnd = 0;
  for (let words = 0; headEnd < n && words <= length; headEnd++) if (!head.covers(starts[headEnd]!, ends[headEnd]!)) words++;
  const at = [...hits.keys()].sort((a, b) => a - b);
  const spans: [number, number][] = [[0, headEnd]];
  for (const i of at) if (i < n) spans.push([Math.max(0, i - context), Math.min(n, i + context + 2)]);
  const parts = mergeSpans(spans);
  const end = parts[parts.length - 1]![1];
  const cuts: number[] = [];
  // summarize() reads no further than MAX_SUMMARY_TOKENS tokens, and one more tells it that more follow.
  let size = 0;
  for (const [from, to] of parts) {
    if (size > MAX_SUMMARY_TOKENS) break;
    if (from > 0 && from < to) cuts.push(starts[from]!);
    size += to - from;
  }
  const terms = new Array<string>(size).fill('');
  const tokStarts = new Uint32Array(size);
  const tokEnds = new Uint32Array(size);
  // Hits and parts both go in text order: one pointer walks the hits.
  let h = 0;
  let k = 0;
  for (const [from, to] of parts) {
    if (k >= size) break;
    tokStarts.set(starts.subarray(from, to), k);
    tokEnds.set(ends.subarray(from, to), k);
    while (h < at.length && at[h]! < from) h++;
    for (; h < at.length && at[h]! < to; h++) terms[k + at[h]! - from] = hits.get(at[h]!)!;
    k += to - from;
  }
  const tail = new Furniture(furniture);
  let more = n < offsets.count;
  for (let i = end; i < n && !more; i++) more = !tail.covers(starts[i]!, ends[i]!);
  return { tokens: { terms, starts: tokStarts, ends: tokEnds }, cuts, more };
}
