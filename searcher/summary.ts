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
import { lowerBound } from '../shared/bisect.js';

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

  /** The first range not wholly passed: spans that end by its start overlap no furniture and pass none. */
  get next(): readonly [number, number] | undefined {
    return this.ranges[this.r];
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
  readonly stretchWord: number[] = [];
  readonly stretchToken: number[] = [];
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
    for (let t = from; t < to; ) {
      const at = starts[t]!;
      const passed = walk.passed;
      const covered = walk.covers(at, ends[t]!);
      if (walk.passed > passed) this.cut = true;
      const f = walk.next;
      let end = t + 1;
      if (covered) {
        // The words that follow it inside the same furniture are left out with it, with no test each.
        while (end < to && starts[end]! < f![1] && ends[end]! > f![0]) end++;
        this.sectionsBy(starts[end - 1]!);
      } else {
        this.sectionsBy(at);
        if (this.cut && this.count) this.runs.push(this.count);
        this.cut = false;
        // The words that follow it up to the next section start or furniture are kept with it, with no test each.
        const section = this.sec < sections.length ? sections[this.sec]! : Infinity;
        const furniture = f ? f[0] : Infinity;
        while (end < to && starts[end]! < section && ends[end]! <= furniture) end++;
        this.keep(t, end - t);
      }
      t = end;
    }
  }

  /** Passes the section starts by `at`: a run ends there. */
  private sectionsBy(at: number): void {
    while (this.sec < this.sections.length && this.sections[this.sec]! <= at) {
      this.sec++;
      this.cut = true;
    }
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

/**
 * The windows around a summary's hits, as columns reused from one summary to
 * the next (summaries are made one at a time): window w spans kept words
 * wFrom[w]..wTo[w] in run wRun[w], with wTerms[w] distinct query terms
 * (-1 once chosen) among wHits[w] hits. A page's hits make no object each.
 */
let wFrom = new Int32Array(64);
let wTo = new Int32Array(64);
let wRun = new Int32Array(64);
let wTerms = new Int32Array(64);
let wHits = new Int32Array(64);
/** The kept words of the hits, in order (render marks them), `hitCount` of them. */
let hitWords = new Int32Array(256);
let hitCount = 0;
/** Per distinct term of the page (in `distinct`), the window it was last counted in: a term counts once a window. */
const distinct: string[] = [];
const countedIn: number[] = [];

function grown(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (n < a.length) return a;
  const b = new Int32Array(2 * n);
  b.set(a);
  return b;
}

/**
 * The windows of the kept hits in one pass: a hit joins the last window when
 * it is in its run, its context touches it and the window stays under
 * `length` words; it counts in the last window when it lies inside it; else
 * it opens a window. Returns the number of windows; `hitWords` holds the
 * kept hits, `hitCount` of them.
 */
function windowsOf(kept: KeptWords, src: WordRanges, context: number, length: number): number {
  const { stretchWord, stretchToken } = kept;
  const stretches = stretchToken.length;
  distinct.length = 0;
  countedIn.length = 0;
  hitCount = 0;
  let nw = 0;
  let k = -1;
  let run = 0;
  for (let h = 0; h < src.hits.length; h++) {
    // The hit's kept word: the hits come in token order, so one pointer walks the stretches.
    const t = src.hits[h]!;
    while (k + 1 < stretches && stretchToken[k + 1]! <= t) k++;
    if (k < 0) continue;
    const i = stretchWord[k]! + t - stretchToken[k]!;
    if (i >= (k + 1 < stretches ? stretchWord[k + 1]! : kept.count)) continue;
    let term = distinct.indexOf(src.terms[h]!);
    if (term < 0) (term = distinct.push(src.terms[h]!) - 1), countedIn.push(-1);
    hitWords = grown(hitWords, hitCount);
    hitWords[hitCount++] = i;
    run = kept.runOf(i, run);
    const to = Math.min(kept.runEnd(run), i + context);
    let w = nw - 1;
    if (w >= 0 && wRun[w] === run && i - context <= wTo[w]! + 1 && to - wFrom[w]! < length) wTo[w] = to;
    else if (w < 0 || i > wTo[w]!) {
      if (nw === wFrom.length) {
        wFrom = grown(wFrom, nw);
        wTo = grown(wTo, nw);
        wRun = grown(wRun, nw);
        wTerms = grown(wTerms, nw);
        wHits = grown(wHits, nw);
      }
      wFrom[nw] = Math.max(kept.runStart(run), i - context, w >= 0 ? wTo[w]! + 1 : 0);
      wTo[nw] = to;
      wRun[nw] = run;
      wTerms[nw] = 0;
      wHits[nw] = 0;
      w = nw++;
    }
    // Else the hit sits inside a full window: it counts there, no overlapping window.
    if (countedIn[term] !== w) ((countedIn[term] = w), wTerms[w]!++);
    wHits[w]!++;
  }
  return nw;
}

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
    render(text, starts, ends, kept, 0, to, out);
    if (moreAfter(to)) out.push({ ellipsis: true });
    return { parts: out };
  }
  // The best windows first (most terms, then most hits, then the earliest) until `length` words are shown: a few of many.
  const chosen: number[] = [];
  let shown = 0;
  while (shown < length && chosen.length < windows) {
    let b = -1;
    for (let w = 0; w < windows; w++) if (wTerms[w]! >= 0 && (b < 0 || wTerms[w]! > wTerms[b]! || (wTerms[w] === wTerms[b] && wHits[w]! > wHits[b]!))) b = w;
    const room = length - shown;
    if (wTo[b]! - wFrom[b]! + 1 > room) wTo[b] = wFrom[b]! + room - 1;
    wTerms[b] = -1;
    chosen.push(b);
    shown += wTo[b]! - wFrom[b]! + 1;
  }
  const best = wFrom[chosen[0]!]!;
  // Windows are made in text order.
  chosen.sort((a, b) => a - b);
  for (const w of chosen) {
    if (wFrom[w]! > 0 && !endsInEllipsis(out)) out.push({ ellipsis: true });
    render(text, starts, ends, kept, wFrom[w]!, wTo[w]!, out);
  }
  if (moreAfter(wTo[chosen[chosen.length - 1]!]!) && !endsInEllipsis(out)) out.push({ ellipsis: true });
  return { parts: out, offset: starts[kept.token(best)]! };
}

function endsInEllipsis(parts: Summary): boolean {
  const p = parts[parts.length - 1];
  return p !== undefined && 'ellipsis' in p;
}

/** The original text of kept words from..to, split into plain and highlighted parts, added to `out`. */
function render(text: SummaryText, starts: ArrayLike<number>, ends: ArrayLike<number>, kept: KeptWords, from: number, to: number, out: Summary): void {
  const { stretchWord, stretchToken } = kept;
  // The stretch of word `from`; words go in order, so one pointer walks the stretches.
  let k = lowerBound(stretchWord, from + 1) - 1;
  const token = (i: number) => {
    while (k + 1 < stretchWord.length && stretchWord[k + 1]! <= i) k++;
    return stretchToken[k]! + i - stretchWord[k]!;
  };
  let pos = starts[token(from)]!;
  // Hits in the window, in order: one pointer walks them.
  let h = lowerBound(hitWords.subarray(0, hitCount), from);
  for (let i = from; i <= to; i++) {
    const t = token(i);
    const start = starts[t]!;
    const hit = h < hitCount && hitWords[h] === i;
    if (hit) h++;
    // The parts of a camelCase word share its span: it is shown once.
    if (!hit || start < pos) continue;
    if (start > pos) out.push({ text: squeeze(text.slice(pos, start)) });
    const end = ends[t]!;
    out.push({ text: text.slice(start, end), highlight: true });
    pos = end;
  }
  const end = ends[token(to)]!;
  if (end > pos) out.push({ text: squeeze(text.slice(pos, end)) });
}

/** Runs of whitespace as one space; most pieces of text have none to squeeze, and are seen to have none without a regular expression. */
function squeeze(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32 ? i + 1 < s.length && s.charCodeAt(i + 1) === 32 : c < 33 || c > 126) return s.replace(/\s+/g, ' ');
  }
  return s;
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
