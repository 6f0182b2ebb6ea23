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
import { escapeHtml } from '../shared/escape.js';

/** A word of the text: its analyzed term and where it stands in the original string. */
export interface TextToken {
  term: string;
  start: number;
  end: number;
}

export type SummaryPart = { text: string; highlight?: boolean } | { ellipsis: true };
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
  /** Whether a word whose term matched counts as a hit (searcher/highlight); every such word when absent. */
  accept?: (word: string, term: string) => boolean;
  /** Content words follow the last token: the tokens are parts of the page (searcher/summary-tokens). */
  more?: boolean;
}

/** Only the start of a long page is looked at (Nutch: 2000 tokens); it bounds the work per hit. */
export const MAX_SUMMARY_TOKENS = 5000;

interface Window {
  from: number;
  to: number; // inclusive token index
  terms: Set<string>;
  hits: number;
}

/** The words outside furniture, each with the bounds of its run (furniture or a section start in between ends a run). */
function contentTokens(tokens: readonly TextToken[], furniture: readonly (readonly [number, number])[], sections: readonly number[]) {
  const kept: TextToken[] = [];
  const runStart: number[] = [];
  let r = 0;
  let sec = 0;
  let start = 0;
  let cut = false;
  for (const t of tokens) {
    while (r < furniture.length && furniture[r]![1] <= t.start) {
      r++;
      cut = true;
    }
    while (sec < sections.length && sections[sec]! <= t.start) {
      sec++;
      cut = true;
    }
    if (r < furniture.length && t.end > furniture[r]![0]) continue;
    if (cut && kept.length) start = kept.length;
    cut = false;
    runStart.push(start);
    kept.push(t);
  }
  const runEnd: number[] = new Array(kept.length);
  for (let i = kept.length - 1; i >= 0; i--) runEnd[i] = i + 1 < kept.length && runStart[i + 1] === runStart[i] ? runEnd[i + 1]! : i;
  return { kept, runStart, runEnd };
}

/**
 * Builds a summary of `text` for `queryTerms`. `tokens` are the words of
 * `text` as the analyzer sees them (only the first MAX_SUMMARY_TOKENS are used).
 * Windows never reach across furniture; when no word is a hit, the summary is
 * the start of the page's content.
 */
export function summarize(text: string, tokens: readonly TextToken[], queryTerms: ReadonlySet<string>, opts: SummaryOptions, plan: SummaryPlan = {}): PlacedSummary {
  const capped = tokens.length > MAX_SUMMARY_TOKENS ? tokens.slice(0, MAX_SUMMARY_TOKENS) : tokens;
  const { kept: toks, runStart, runEnd } = contentTokens(capped, plan.furniture ?? [], plan.sections ?? []);
  if (toks.length === 0) return { parts: [] };
  const moreAfter = (i: number) => i < toks.length - 1 || tokens.length > capped.length || plan.more === true;
  const hit = toks.map((t) => (queryTerms.has(t.term) && (!plan.accept || plan.accept(text.slice(t.start, t.end), t.term)) ? t.term : undefined));
  const length = Math.max(1, opts.length);
  const context = Math.max(0, opts.context);
  const windows: Window[] = [];
  for (let i = 0; i < toks.length; i++) {
    const term = hit[i];
    if (term === undefined) continue;
    const to = Math.min(runEnd[i]!, i + context);
    const last = windows[windows.length - 1];
    const sameRun = last !== undefined && runStart[last.from] === runStart[i];
    if (last && sameRun && i - context <= last.to + 1 && to - last.from < length) {
      last.to = to;
      last.terms.add(term);
      last.hits++;
    } else if (!last || i > last.to) windows.push({ from: Math.max(runStart[i]!, i - context, last ? last.to + 1 : 0), to, terms: new Set([term]), hits: 1 });
    else {
      // The hit sits inside a full window: it counts there, no overlapping window.
      last.terms.add(term);
      last.hits++;
    }
  }
  if (windows.length === 0) {
    const to = Math.min(runEnd[0]!, length - 1);
    const head = render(text, toks, { from: 0, to, terms: new Set(), hits: 0 }, hit);
    return { parts: moreAfter(to) ? [...head, { ellipsis: true }] : head };
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
  const best = chosen[0]!;
  chosen.sort((a, b) => a.from - b.from);
  const out: Summary = [];
  for (const w of chosen) {
    if (w.from > 0) out.push({ ellipsis: true });
    out.push(...render(text, toks, w, hit));
  }
  if (moreAfter(chosen[chosen.length - 1]!.to)) out.push({ ellipsis: true });
  return { parts: mergeEllipses(out), offset: toks[best.from]!.start };
}

/** The original text of a window, split into plain and highlighted parts. */
function render(text: string, toks: readonly TextToken[], w: Window, hit: readonly (string | undefined)[]): Summary {
  const out: Summary = [];
  let pos = toks[w.from]!.start;
  for (let i = w.from; i <= w.to; i++) {
    const t = toks[i]!;
    // The parts of a camelCase word share its span: it is shown once.
    if (hit[i] === undefined || t.start < pos) continue;
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
