/**
 * @module searcher/summary-words
 * The words a summary is made of, as columns of numbers rather than an
 * object a word: the analyzer's tokens of a text, the ranges of them to read,
 * the hits among them, and the content words they keep once furniture is
 * left out, in runs that a window never crosses (searcher/summary.ts).
 */
import { lowerBound } from '../shared/bisect.js';

/** A word of the text: its analyzed term and where it stands in the original string. */
export interface TextToken {
  term: string;
  start: number;
  end: number;
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
export class KeptWords {
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
