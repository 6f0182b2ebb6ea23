/**
 * @module searcher/summary
 * Query-biased summaries, after Nutch's summary-basic: windows of
 * `context` words around each query-term hit in the page's parse text,
 * the windows holding the most distinct query terms chosen first until
 * `length` words are shown, then put back in document order with
 * ellipses between. Windows start and end on word boundaries, so no word is
 * ever cut. The result is structured; `summaryToHtml` escapes every piece of
 * page text and marks the hits, so nothing from a page reaches HTML raw.
 */
import { escapeHtml } from './http/escape.js';

/** A word of the text: its analyzed term and where it stands in the original string. */
export interface TextToken {
  term: string;
  start: number;
  end: number;
}

export type SummaryPart = { text: string; highlight?: boolean } | { ellipsis: true };
export type Summary = SummaryPart[];

export interface SummaryOptions {
  /** Words shown on each side of a hit (`searcher.summary.context`). */
  context: number;
  /** Words in the whole summary (`searcher.summary.length`). */
  length: number;
}

/** Only the start of a long page is looked at (Nutch: 2000 tokens); it bounds the work per hit. */
export const MAX_SUMMARY_TOKENS = 5000;

interface Window {
  from: number;
  to: number; // inclusive token index
  terms: Set<string>;
  hits: number;
}

/**
 * Builds a summary of `text` for `queryTerms`. `tokens` are the words of
 * `text` as the analyzer sees them (only the first MAX_SUMMARY_TOKENS are used).
 */
export function summarize(text: string, tokens: readonly TextToken[], queryTerms: ReadonlySet<string>, opts: SummaryOptions): Summary {
  const toks = tokens.length > MAX_SUMMARY_TOKENS ? tokens.slice(0, MAX_SUMMARY_TOKENS) : tokens;
  if (toks.length === 0) return [];
  const length = Math.max(1, opts.length);
  const context = Math.max(0, opts.context);
  const windows: Window[] = [];
  for (let i = 0; i < toks.length; i++) {
    const term = toks[i]!.term;
    if (!queryTerms.has(term)) continue;
    const to = Math.min(toks.length - 1, i + context);
    const last = windows[windows.length - 1];
    if (last && i - context <= last.to + 1 && to - last.from < length) {
      last.to = to;
      last.terms.add(term);
      last.hits++;
    } else if (!last || i > last.to) windows.push({ from: Math.max(0, i - context, last ? last.to + 1 : 0), to, terms: new Set([term]), hits: 1 });
    else {
      // The hit sits inside a full window: it counts there, no overlapping window.
      last.terms.add(term);
      last.hits++;
    }
  }
  if (windows.length === 0) {
    const to = Math.min(toks.length, length) - 1;
    const head = render(text, toks, { from: 0, to, terms: new Set(), hits: 0 }, queryTerms);
    return to < tokens.length - 1 ? [...head, { ellipsis: true }] : head;
  }
  const chosen: Window[] = [];
  let words = 0;
  for (const w of [...windows].sort((a, b) => b.terms.size - a.terms.size || b.hits - a.hits || a.from - b.from)) {
    if (words >= length) break;
    const room = length - words;
    if (w.to - w.from + 1 > room) w.to = w.from + room - 1;
    chosen.push(w);
    words += w.to - w.from + 1;
  }
  chosen.sort((a, b) => a.from - b.from);
  const out: Summary = [];
  for (const w of chosen) {
    if (w.from > 0) out.push({ ellipsis: true });
    out.push(...render(text, toks, w, queryTerms));
  }
  const lastTo = chosen[chosen.length - 1]!.to;
  if (lastTo < tokens.length - 1) out.push({ ellipsis: true });
  return mergeEllipses(out);
}

/** The original text of a window, split into plain and highlighted parts. */
function render(text: string, toks: readonly TextToken[], w: Window, queryTerms: ReadonlySet<string>): Summary {
  const out: Summary = [];
  let pos = toks[w.from]!.start;
  for (let i = w.from; i <= w.to; i++) {
    const t = toks[i]!;
    if (!queryTerms.has(t.term)) continue;
    if (t.start > pos) out.push({ text: squeeze(text.slice(pos, t.start)) });
    out.push({ text: text.slice(t.start, t.end), highlight: true });
    pos = t.end;
  }
  const end = toks[w.to]!.end;
  if (end > pos) out.push({ text: squeeze(text.slice(pos, end)) });
  return out;
}

const squeeze = (s: string) => s.replace(/\s+/g, ' ');

function mergeEllipses(parts: Summary): Summary {
  return parts.filter((p, i) => !('ellipsis' in p && i > 0 && 'ellipsis' in parts[i - 1]!));
}

/** HTML with hits in `<mark>` and every piece of page text escaped. */
export function summaryToHtml(s: Summary): string {
  return s
    .map((p) => ('ellipsis' in p ? '<span class="ellipsis"> … </span>' : p.highlight ? `<mark>${escapeHtml(p.text)}</mark>` : escapeHtml(p.text)))
    .join('');
}

/** Plain text (OpenSearch descriptions, JSON, the terminal). */
export function summaryToText(s: Summary): string {
  return s
    .map((p) => ('ellipsis' in p ? ' … ' : p.text))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}
