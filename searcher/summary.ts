/**
 * @module searcher/summary
 * Query-biased summaries, after Nutch's summary-basic: windows of
 * `context` words around each query-term hit in the page's parse text,
 * the windows holding the most distinct query terms chosen first until
 * `length` words are shown, then put back in document order with
 * ellipses between. Windows start and end on word boundaries, so no word is
 * ever cut. The result is structured; `summaryToHtml` escapes every piece of
 * page text and marks the hits, so nothing from a page reaches HTML raw.
 * The words are searcher/summary-words.ts, the windows around the hits
 * searcher/summary-windows.ts, their text searcher/summary-render.ts and the
 * markup searcher/summary-markup.ts.
 */
import type { PageText } from '../segments/summary-text.js';
import { render } from './summary-render.js';
import { win, windowsOf } from './summary-windows.js';
import { KeptWords, tokenColumns, type TextToken, type TokenColumns, type WordRanges } from './summary-words.js';

export { Furniture, tokenColumns, type TextToken, type TokenColumns, type WordRanges } from './summary-words.js';
export { summaryToHtml, summaryToText } from './summary-markup.js';

/** A piece of the page's text (a hit to mark, or not), an ellipsis where text was left out, or a break: the end of a heading, a line break of code. */
export type SummaryPart = { text: string; highlight?: boolean } | { ellipsis: true } | { break: 'heading' | 'line' };
export type Summary = SummaryPart[];

export interface PlacedSummary {
  parts: Summary;
  /** Where in the text the best window starts (to find its section); absent when no word was a hit. */
  offset?: number;
}

export interface SummaryOptions {
  /** Words shown on each side of a hit (`searcher.summary.context`). */
  context: number;
  /** Words in the whole summary (`searcher.summary.length`). */
  length: number;
}

export interface SummaryPlan {
  /** Text ranges [start, end) that are page furniture (parse data): never shown. */
  furniture?: readonly (readonly [number, number])[];
  /** Text offsets where a section starts: a window stays within one section. */
  sections?: readonly number[];
  /** Whether a word whose term matched counts as a hit (searcher/highlight); every such word when absent. summarize() asks it; summarizeRanges() is given the hits that count. */
  accept?: (word: string, term: string) => boolean;
  /** Content words follow the last token: the tokens are parts of the page (searcher/summary-tokens). */
  more?: boolean;
  /** The page's headings: where each starts in the text, and where heading k ends (asked only of the headings a window shows). A heading's end is shown as a break. */
  headings?: { readonly starts: readonly number[]; end(k: number): number };
}

/** Only the start of a long page is looked at (Nutch: 2000 tokens); it bounds the work per hit. */
export const MAX_SUMMARY_TOKENS = 5000;

/**
 * Builds a summary of `text` for `queryTerms`. `tokens` are the words of
 * `text` as the analyzer sees them (only the first MAX_SUMMARY_TOKENS are used).
 * Windows never reach across furniture; when no word is a hit, the summary is
 * the start of the page's content.
 */
export function summarize(text: string, tokens: readonly TextToken[] | TokenColumns, queryTerms: ReadonlySet<string>, opts: SummaryOptions, plan: SummaryPlan = {}): PlacedSummary {
  const cols = 'terms' in tokens ? tokens : tokenColumns(tokens);
  const total = cols.terms.length;
  const n = Math.min(total, MAX_SUMMARY_TOKENS);
  const hits: number[] = [];
  const terms: string[] = [];
  for (let t = 0; t < n; t++) {
    const term = cols.terms[t]!;
    if (term !== '' && queryTerms.has(term) && (!plan.accept || plan.accept(text.slice(cols.starts[t], cols.ends[t]), term))) (hits.push(t), terms.push(term));
  }
  const words = { starts: cols.starts, ends: cols.ends, ranges: [[0, n] as const], hits, terms };
  return summarizeRanges(text, words, opts, { ...plan, more: plan.more === true || total > n });
}

/** The text a summary shows: a string, or stored text decoded a span at a time. */
export type SummaryText = Pick<PageText, 'slice'>;

/** summarize() of the words in ranges of a text's tokens: only those words are read, and only the text of the windows shown. */
export function summarizeRanges(text: SummaryText, src: WordRanges, opts: SummaryOptions, plan: SummaryPlan = {}): PlacedSummary {
  const { starts, ends } = src;
  const kept = new KeptWords(starts, ends, plan.furniture ?? [], plan.sections ?? []);
  for (const [from, to] of src.ranges) kept.add(from, to);
  const count = kept.count;
  if (count === 0) return { parts: [] };
  const moreAfter = (i: number) => i < count - 1 || plan.more === true;
  const length = Math.max(1, opts.length);
  const windows = windowsOf(kept, src, Math.max(0, opts.context), length);
  const out: Summary = [];
  if (windows === 0) {
    const to = Math.min(kept.runEnd(0), length - 1);
    render(text, starts, ends, kept, 0, to, out, plan.headings);
    if (moreAfter(to)) out.push({ ellipsis: true });
    return { parts: out };
  }
  // The best windows first (most terms, then most hits, then the earliest) until `length` words are shown: a few of many.
  const chosen: number[] = [];
  let shown = 0;
  while (shown < length && chosen.length < windows) {
    let b = -1;
    for (let w = 0; w < windows; w++) if (win.terms[w]! >= 0 && (b < 0 || win.terms[w]! > win.terms[b]! || (win.terms[w] === win.terms[b] && win.hits[w]! > win.hits[b]!))) b = w;
    const room = length - shown;
    if (win.to[b]! - win.from[b]! + 1 > room) win.to[b] = win.from[b]! + room - 1;
    win.terms[b] = -1;
    chosen.push(b);
    shown += win.to[b]! - win.from[b]! + 1;
  }
  const best = win.from[chosen[0]!]!;
  // Windows are made in text order.
  chosen.sort((a, b) => a - b);
  for (const w of chosen) {
    if (win.from[w]! > 0 && !endsInEllipsis(out)) out.push({ ellipsis: true });
    render(text, starts, ends, kept, win.from[w]!, win.to[w]!, out, plan.headings);
  }
  if (moreAfter(win.to[chosen[chosen.length - 1]!]!) && !endsInEllipsis(out)) out.push({ ellipsis: true });
  return { parts: out, offset: starts[kept.token(best)]! };
}

function endsInEllipsis(parts: Summary): boolean {
  const p = parts[parts.length - 1];
  return p !== undefined && 'ellipsis' in p;
}

