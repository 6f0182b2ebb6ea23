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
  /** Distinct query terms among its hits. */
  terms: number;
  hits: number;
}

/**
 * The page's furniture ranges (in text order, not overlapping), asked about
 * spans in text order: one pointer walks them. Every way of finding a
 * summary's words tells furniture with this.
 */
export class Furniture {
  private r = 0;
  constructor(private readonly ranges: readonly (readonly [number, number])[]) {}

  /** Whether [start, end) overlaps furniture; spans must come in order of their starts. */
  covers(start: number, end: number): boolean {
    const f = this.ranges;
    while (this.r < f.length && f[this.r]![1] <= start) this.r++;
    return this.r < f.length && end > f[this.r]![0];
  }

  /** Ranges wholly passed so far. */
  get passed(): number {
    return this.r;
  }
}

/**
 * Words of a text as columns: word i is `terms[i]` ('' when it matters not)
 * at [starts[i], ends[i]). summarize() reads these without an object per word.
 */
export interface TokenColumns {
  readonly terms: readonly string[];
  readonly starts: ArrayLike<number>;
  readonly ends: ArrayLike<number>;
}

/** TextTokens as columns. */
export function tokenColumns(tokens: readonly TextToken[]): TokenColumns {
  const n = tokens.length;
  const terms = new Array<string>(n);
  const starts = new Uint32Array(n);
  const ends = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const t = tokens[i]!;
    terms[i] = t.term;
    starts[i] = t.start;
    ends[i] = t.end;
  }
  return { terms, starts, ends };
}

/**
 * The first `n` words outside furniture (`kept`, as indexes into the
 * columns), each with the bounds of its run (furniture or a section start in
 * between ends a run), as indexes into `kept`.
 */
function contentTokens(cols: TokenColumns, n: number, furniture: readonly (readonly [number, number])[], sections: readonly number[]) {
  const kept = new Int32Array(n);
  const runStart = new Int32Array(n);
  const walk = new Furniture(furniture);
  let count = 0;
  let sec = 0;
  let start = 0;
  let cut = false;
  for (let t = 0; t < n; t++) {
    const at = cols.starts[t]!;
    const passed = walk.passed;
    const covered = walk.covers(at, cols.ends[t]!);
    if (walk.passed > passed) cut = true;
    while (sec < sections.length && sections[sec]! <= at) {
      sec++;
      cut = true;
    }
    if (covered) continue;
    if (cut && count) start = count;
    cut = false;
    runStart[count] = start;
    kept[count++] = t;
  }
  const runEnd = new Int32Array(count);
  for (let i = count - 1; i >= 0; i--) runEnd[i] = i + 1 < count && runStart[i + 1] === runStart[i] ? runEnd[i + 1]! : i;
  return { kept: kept.subarray(0, count), runStart, runEnd };
}

/** The kept words and which of them are hits: `hit[i]` is the term of kept word i, or undefined. */
interface Words {
  cols: TokenColumns;
  kept: Int32Array;
  hit: (string | undefined)[];
}

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
  const { kept, runStart, runEnd } = contentTokens(cols, n, plan.furniture ?? [], plan.sections ?? []);
  const count = kept.length;
  if (count === 0) return { parts: [] };
  const moreAfter = (i: number) => i < count - 1 || total > n || plan.more === true;
  const hit = new Array<string | undefined>(count);
  for (let i = 0; i < count; i++) {
    const t = kept[i]!;
    const term = cols.terms[t]!;
    if (queryTerms.has(term) && (!plan.accept || plan.accept(text.slice(cols.starts[t], cols.ends[t]), term))) hit[i] = term;
  }
  const words: Words = { cols, kept, hit };
  const length = Math.max(1, opts.length);
  const context = Math.max(0, opts.context);
  const windows: Window[] = [];
  // The window each term was last counted in: a term counts once a window.
  const countedIn = new Map<string, number>();
  const count1 = (w: Window, term: string) => {
    if (countedIn.get(term) !== windows.length) (countedIn.set(term, windows.length), w.terms++);
    w.hits++;
  };
  for (let i = 0; i < count; i++) {
    const term = hit[i];
    if (term === undefined) continue;
    const to = Math.min(runEnd[i]!, i + context);
    const last = windows[windows.length - 1];
    const sameRun = last !== undefined && runStart[last.from] === runStart[i];
    if (last && sameRun && i - context <= last.to + 1 && to - last.from < length) {
      last.to = to;
      count1(last, term);
    } else if (!last || i > last.to) {
      const w = { from: Math.max(runStart[i]!, i - context, last ? last.to + 1 : 0), to, terms: 0, hits: 0 };
      windows.push(w);
      count1(w, term);
    }
    // The hit sits inside a full window: it counts there, no overlapping window.
    else count1(last, term);
  }
  if (windows.length === 0) {
    const to = Math.min(runEnd[0]!, length - 1);
    const head = render(text, words, { from: 0, to, terms: 0, hits: 0 });
    return { parts: moreAfter(to) ? [...head, { ellipsis: true }] : head };
  }
  const chosen: Window[] = [];
  let shown = 0;
  for (const w of [...windows].sort((a, b) => b.terms - a.terms || b.hits - a.hits || a.from - b.from)) {
    if (shown >= length) break;
    const room = length - shown;
    if (w.to - w.from + 1 > room) w.to = w.from + room - 1;
    chosen.push(w);
    shown += w.to - w.from + 1;
  }
  const best = chosen[0]!;
  chosen.sort((a, b) => a.from - b.from);
  const out: Summary = [];
  for (const w of chosen) {
    if (w.from > 0) out.push({ ellipsis: true });
    out.push(...render(text, words, w));
  }
  if (moreAfter(chosen[chosen.length - 1]!.to)) out.push({ ellipsis: true });
  return { parts: mergeEllipses(out), offset: cols.starts[kept[best.from]!]! };
}

/** The original text of a window, split into plain and highlighted parts. */
function render(text: string, { cols, kept, hit }: Words, w: Window): Summary {
  const out: Summary = [];
  let pos = cols.starts[kept[w.from]!]!;
  for (let i = w.from; i <= w.to; i++) {
    const start = cols.starts[kept[i]!]!;
    // The parts of a camelCase word share its span: it is shown once.
    if (hit[i] === undefined || start < pos) continue;
    if (start > pos) out.push({ text: squeeze(text.slice(pos, start)) });
    const end = cols.ends[kept[i]!]!;
    out.push({ text: text.slice(start, end), highlight: true });
    pos = end;
  }
  const end = cols.ends[kept[w.to]!]!;
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
