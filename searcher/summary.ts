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
import type { PageText } from '../segments/summary-text.js';
import { lowerBound } from './sorted.js';

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
  /** Whether a word whose term matched counts as a hit (searcher/highlight); every such word when absent. summarize() asks it; summarizeRanges() is given the hits that count. */
  accept?: (word: string, term: string) => boolean;
  /** Content words follow the last token: the tokens are parts of the page (searcher/summary-tokens). */
  more?: boolean;
}

/** Only the start of a long page is looked at (Nutch: 2000 tokens); it bounds the work per hit. */
export const MAX_SUMMARY_TOKENS = 5000;

interface Window {
  from: number;
  to: number; // inclusive token index
  /** The run it is in. */
  run: number;
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

  /** Whether spans after the last one asked about, starting by `lastStart` and ending by `maxEnd`, overlap no furniture and pass none. */
  clear(lastStart: number, maxEnd: number): boolean {
    const f = this.ranges[this.r];
    return f === undefined || (f[0] >= maxEnd && f[1] > lastStart);
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
 * The words summarizeRanges() reads, where they stand: token spans as
 * columns, the ranges of tokens to read, and the tokens among them that are
 * hits (their term is a query term, and the word counts: SummaryPlan.accept).
 */
export interface WordRanges {
  readonly starts: ArrayLike<number>;
  readonly ends: ArrayLike<number>;
  /** Token ranges [from, to) in text order, MAX_SUMMARY_TOKENS tokens at most. */
  readonly ranges: readonly (readonly [number, number])[];
  /** Hits in the ranges, in text order, and their terms. */
  readonly hits: ArrayLike<number>;
  readonly terms: readonly string[];
}

/**
 * The content words among the ranges' tokens (furniture left out), counted in
 * order, and the runs they form: furniture or a section start between two
 * words ends a run. Kept words are stretches of consecutive tokens, so a word
 * is found from its token and back without a list of every word.
 */
class KeptWords {
  count = 0;
  /** Stretch k: kept words from `stretchWord[k]` are the tokens from `stretchToken[k]` on. */
  private readonly stretchWord: number[] = [];
  private readonly stretchToken: number[] = [];
  private nextToken = -1;
  /** Kept words that start a run, in order. */
  private readonly runs: number[] = [0];
  private readonly walk: Furniture;
  private sec = 0;
  private cut = false;

  constructor(
    private readonly starts: ArrayLike<number>,
    private readonly ends: ArrayLike<number>,
    furniture: readonly (readonly [number, number])[],
    private readonly sections: readonly number[],
  ) {
    this.walk = new Furniture(furniture);
  }

  /** Reads tokens [from, to), after those read before. */
  add(from: number, to: number): void {
    const { starts, ends, walk, sections } = this;
    for (let t = from; t < to; t++) {
      const at = starts[t]!;
      const passed = walk.passed;
      const covered = walk.covers(at, ends[t]!);
      if (walk.passed > passed) this.cut = true;
      while (this.sec < sections.length && sections[this.sec]! <= at) {
        this.sec++;
        this.cut = true;
      }
      if (covered) continue;
      if (this.cut && this.count) this.runs.push(this.count);
      this.cut = false;
      this.keep(t, 1);
      // Past the range's first word, the rest is taken at once when no furniture or section start lies in it.
      if (t === from && to - t > 1 && this.clear(t + 1, to)) return this.keep(t + 1, to - t - 1);
    }
  }

  private clear(from: number, to: number): boolean {
    const last = this.starts[to - 1]!;
    if (this.sec < this.sections.length && this.sections[this.sec]! <= last) return false;
    let maxEnd = 0;
    for (let t = from; t < to; t++) maxEnd = Math.max(maxEnd, this.ends[t]!);
    return this.walk.clear(last, maxEnd);
  }

  private keep(t: number, n: number): void {
    if (t !== this.nextToken) {
      this.stretchWord.push(this.count);
      this.stretchToken.push(t);
    }
    this.count += n;
    this.nextToken = t + n;
  }

  /** The token of kept word i. */
  token(i: number): number {
    // The last stretch starting at or before word i (word numbers are whole).
    const k = lowerBound(this.stretchWord, i + 1) - 1;
    return this.stretchToken[k]! + i - this.stretchWord[k]!;
  }

  /** The kept word of each of `tokens` (in increasing order), or -1 for one not kept. */
  wordsOf(tokens: ArrayLike<number>): number[] {
    const { stretchWord, stretchToken } = this;
    // A plain array: a typed array of more than 64 bytes is allocated outside the heap, at a cost a page.
    const out = new Array<number>(tokens.length);
    let k = -1;
    for (let h = 0; h < tokens.length; h++) {
      const t = tokens[h]!;
      while (k + 1 < stretchToken.length && stretchToken[k + 1]! <= t) k++;
      const i = k < 0 ? -1 : stretchWord[k]! + t - stretchToken[k]!;
      out[h] = i >= 0 && i < (k + 1 < stretchWord.length ? stretchWord[k + 1]! : this.count) ? i : -1;
    }
    return out;
  }

  /** The first kept word of run r. */
  runStart(r: number): number {
    return this.runs[r]!;
  }

  /** The last kept word of run r. */
  runEnd(r: number): number {
    return r + 1 < this.runs.length ? this.runs[r + 1]! - 1 : this.count - 1;
  }

  /** The run of kept word i, looked for from run r on (words are asked about in order). */
  runOf(i: number, r = 0): number {
    while (r + 1 < this.runs.length && this.runs[r + 1]! <= i) r++;
    return r;
  }
}

/** The kept words, and which of them are hits (sorted kept words). */
interface Words {
  starts: ArrayLike<number>;
  ends: ArrayLike<number>;
  kept: KeptWords;
  hits: number[];
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
  // The kept hits, each with its term's number among the page's few distinct terms.
  const hits: number[] = [];
  const hitTerms: number[] = [];
  const distinct: string[] = [];
  const wordOf = kept.wordsOf(src.hits);
  for (let h = 0; h < src.hits.length; h++) {
    if (wordOf[h]! < 0) continue;
    let k = distinct.indexOf(src.terms[h]!);
    if (k < 0) k = distinct.push(src.terms[h]!) - 1;
    hits.push(wordOf[h]!);
    hitTerms.push(k);
  }
  const words: Words = { starts, ends, kept, hits };
  const length = Math.max(1, opts.length);
  const context = Math.max(0, opts.context);
  const windows: Window[] = [];
  // The window each term was last counted in: a term counts once a window.
  const countedIn = distinct.map(() => -1);
  const count1 = (w: Window, term: number) => {
    if (countedIn[term] !== windows.length) ((countedIn[term] = windows.length), w.terms++);
    w.hits++;
  };
  let run = 0;
  for (let h = 0; h < hits.length; h++) {
    const i = hits[h]!;
    const term = hitTerms[h]!;
    run = kept.runOf(i, run);
    const to = Math.min(kept.runEnd(run), i + context);
    const last = windows[windows.length - 1];
    if (last && last.run === run && i - context <= last.to + 1 && to - last.from < length) {
      last.to = to;
      count1(last, term);
    } else if (!last || i > last.to) {
      const w = { from: Math.max(kept.runStart(run), i - context, last ? last.to + 1 : 0), to, run, terms: 0, hits: 0 };
      windows.push(w);
      count1(w, term);
    }
    // The hit sits inside a full window: it counts there, no overlapping window.
    else count1(last, term);
  }
  if (windows.length === 0) {
    const to = Math.min(kept.runEnd(0), length - 1);
    const head = render(text, words, { from: 0, to, run: 0, terms: 0, hits: 0 });
    return { parts: moreAfter(to) ? [...head, { ellipsis: true }] : head };
  }
  // The best windows first (most terms, then most hits, then the earliest) until `length` words are shown: a few of many.
  const chosen: Window[] = [];
  let shown = 0;
  while (shown < length && chosen.length < windows.length) {
    let w: Window | undefined;
    for (const c of windows) if (!chosen.includes(c) && (!w || c.terms > w.terms || (c.terms === w.terms && c.hits > w.hits))) w = c;
    const room = length - shown;
    if (w!.to - w!.from + 1 > room) w!.to = w!.from + room - 1;
    chosen.push(w!);
    shown += w!.to - w!.from + 1;
  }
  const best = chosen[0]!;
  chosen.sort((a, b) => a.from - b.from);
  const out: Summary = [];
  for (const w of chosen) {
    if (w.from > 0) out.push({ ellipsis: true });
    out.push(...render(text, words, w));
  }
  if (moreAfter(chosen[chosen.length - 1]!.to)) out.push({ ellipsis: true });
  return { parts: mergeEllipses(out), offset: starts[kept.token(best.from)]! };
}

/** The original text of a window, split into plain and highlighted parts. */
function render(text: SummaryText, { starts, ends, kept, hits }: Words, w: Window): Summary {
  const out: Summary = [];
  let pos = starts[kept.token(w.from)]!;
  // Hits in the window, in order: one pointer walks them.
  let h = lowerBound(hits, w.from);
  for (let i = w.from; i <= w.to; i++) {
    const t = kept.token(i);
    const start = starts[t]!;
    const hit = hits[h] === i;
    if (hit) h++;
    // The parts of a camelCase word share its span: it is shown once.
    if (!hit || start < pos) continue;
    if (start > pos) out.push({ text: squeeze(text.slice(pos, start)) });
    const end = ends[t]!;
    out.push({ text: text.slice(start, end), highlight: true });
    pos = end;
  }
  const end = ends[kept.token(w.to)]!;
  if (end > pos) out.push({ text: squeeze(text.slice(pos, end)) });
  return out;
}

/** Runs of whitespace as one space; most pieces of text have none to squeeze, and are seen to have none without a regular expression. */
function squeeze(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32 ? i + 1 < s.length && s.charCodeAt(i + 1) === 32 : c < 33 || c > 126) return s.replace(/\s+/g, ' ');
  }
  return s;
}

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
