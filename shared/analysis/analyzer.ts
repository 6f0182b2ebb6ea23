/**
 * @module shared/analysis/analyzer
 * The one text analyzer of hazelnut. The indexer, the index statistics and
 * the query parser all turn text into terms through it, so their
 * vocabularies cannot drift apart.
 * An index records the options it was built with (IndexMeta.analyzer) and the
 * searcher analyzes queries with those, never with its own configuration.
 *
 * Decisions:
 * - Compatibility forms are unified (NFKC), case is folded, and diacritics are
 *   stripped from Latin and Greek letters only: `München` → `munchen`,
 *   `café` → `cafe`. German umlauts fold to the bare vowel (ä → a, not ae),
 *   like every other Latin diacritic, so a user typing without umlauts finds
 *   the page; `ß` → `ss`. Cyrillic keeps its letters (й ≠ и) except ё → е.
 *   Japanese voicing marks are kept (が ≠ か).
 * - Han, kana, Thai, Lao, Khmer and Myanmar runs have no spaces between words;
 *   they go through `Intl.Segmenter` (ICU dictionaries). Korean is spaced;
 *   one trailing particle (josa) is removed from a Hangul word so `서울에서`
 *   and `서울` meet.
 * - Numbers stay whole: `2024`, `3.14`, `1,000` are single terms.
 * - A one-letter prefix joins its word (`e-mail` → `email`, `x-ray` → `xray`),
 *   so the spelling with and without the hyphen meet; other hyphens split,
 *   as `_`, `.` and `/` do.
 * - A camelCase identifier is its whole term followed by the terms of its
 *   parts (`readFile` → `readfile read file`, `XMLHttpRequest` → `xmlhttprequest
 *   xml http request`), in index and query alike: the prose words meet the
 *   identifier, and a query naming the identifier still needs the whole.
 * - A run-together word written in lower case that is not English but two
 *   English words of three letters or more (`readline`, `eventloop`,
 *   `hostname`; analysis.decompound) is also its whole term followed by its
 *   parts', as a camelCase word is: the dictionary is a list of 275,000
 *   English words (shared/analysis/words), and of several splits the most
 *   even wins. A capitalised word may be a name the list lacks (`Monday`
 *   would be `mon day`) and stays whole.
 * - No letter collapsing, no phonetic folding (`hello` stays `hello`).
 * - English stemming is optional (`analysis.stem.english`) and applies only
 *   to ASCII letter terms. It is Porter2 (Snowball English, Porter's own
 *   revision of his algorithm and Xapian's stemmer), which keeps words
 *   together that the 1980 Porter algorithm parts (`regularly` → `regular`,
 *   not `regularli`; `using` → `use`, not `us`). An index built with the
 *   1980 algorithm records no stemmer and is read with it
 *   (`Analyzer.ofIndex`), so its queries still meet its terms.
 * - Stop words are not removed here: dropping them is a query-time choice.
 * A term's position is its index in the returned list.
 */
import { stemmer as porter } from 'stemmer';
import porter2 from 'wink-porter2-stemmer';
import type { Conf } from '../conf.js';
import { ASCII_LETTERS, foldCase, foldWord, HANGUL, stripJosa } from './fold.js';
import { identifierWords, isIdentifier } from './identifiers.js';
import { tokenSpans, UNSPACED_START } from './token-spans.js';
import { WORD_CACHE, Word, WordCache, wordOf, type ValueOf } from './word-cache.js';
import { splitCompound } from './words.js';
import { StemCache } from './stem-cache.js';
import type { NumberedTokens, NumberList } from './term-numbers.js';

export interface AnalyzerOptions {
  /** Stem ASCII terms as English. @default false */
  stemEnglish: boolean;
  /** The English stemming algorithm: 1980 Porter or Porter2 (Snowball English). @default 'porter2' */
  englishStemmer: 'porter' | 'porter2';
  /** Split run-together English words into their two parts as well. @default false */
  decompound: boolean;
}

const STEMMERS: Record<AnalyzerOptions['englishStemmer'], (word: string) => string> = { porter, porter2 };
const OPTIONS: readonly string[] = ['stemEnglish', 'englishStemmer', 'decompound'];

export interface Token {
  term: string;
  /** Position in the token stream (0-based). */
  pos: number;
  /** Offsets of the source word in the analyzed text, for highlighting. */
  start: number;
  end: number;
  /** A part of the camelCase identifier whose whole term precedes it. */
  part?: true;
}

/** A token with the value of a caller's function of the text it spans (`Analyzer.valuedTokens`). */
export interface ValuedToken<V> extends Token {
  value: V;
}

/** Longer "words" are base64, hashes or minified code: never worth a term. */
export const MAX_TERM_LENGTH = 64;

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * Receives each word that yields terms (with its value when one is asked for): the word, or for a
 * numbering scan its terms' numbers; returning false stops the scan.
 */
type Emit<W = Word> = (word: W, start: number, end: number, value: unknown) => unknown;
type Numbers = number | Uint32Array;

/** Where a camelCase word splits: lower→Upper (`readFile`) and before the last capital of a run of three or more (`XMLHttp`, not `IPv6`). */
const CAMEL_SPLIT = /(?<=[a-z])(?=[A-Z])|(?<=[A-Z]{2})(?=[A-Z][a-z])/;
const HAS_CAMEL = /[a-z][A-Z]|[A-Z]{3}[a-z]/;

export class Analyzer {
  readonly options: Readonly<AnalyzerOptions>;
  private readonly words: WordCache;
  /** Stems of folded words, when the analyzer stems English; at most half as many a generation as the words remembered. */
  private readonly stems: StemCache | undefined;
  private numberOf: Map<string, number> | undefined;
  /**
   * Every term the numbered scans met, by number (its index), for the
   * analyzer's lifetime: the numbers outlive the cache of words, and only an
   * indexer asks for them (a searcher's analyzer never grows this).
   */
  readonly numbered: string[] = [];

  /** `remembered`: the words each of the word cache's two generations holds. */
  constructor(opts: Partial<AnalyzerOptions> = {}, remembered = WORD_CACHE) {
    for (const k of Object.keys(opts)) if (!OPTIONS.includes(k)) throw new TypeError(`unknown analyzer option ${k}`);
    const englishStemmer = opts.englishStemmer ?? 'porter2';
    if (!(englishStemmer in STEMMERS)) throw new TypeError(`unknown English stemmer ${englishStemmer}`);
    this.options = Object.freeze({ stemEnglish: opts.stemEnglish ?? false, englishStemmer, decompound: opts.decompound ?? false });
    this.words = new WordCache(remembered);
    this.stems = this.options.stemEnglish ? new StemCache(STEMMERS[englishStemmer], Math.max(1, remembered >> 1)) : undefined;
  }

  /** The analyzer an index was built with, from its recorded options: one that names no stemmer predates Porter2. */
  static ofIndex(opts: Partial<AnalyzerOptions>, remembered?: number): Analyzer {
    return new Analyzer({ englishStemmer: 'porter', ...opts }, remembered);
  }

  /** The analyzer a crawler tool builds indexes with (`analysis.*` properties). */
  static fromConf(conf: Conf): Analyzer {
    return new Analyzer({ stemEnglish: conf.getBoolean('analysis.stem.english'), decompound: conf.getBoolean('analysis.decompound') });
  }

  /** Terms of a text, in order; a term's position is its index. Only the first `max` when given (the rest is not analyzed). */
  terms(text: string, max = Infinity): string[] {
    const out: string[] = [];
    if (max >= 1)
      this.scan(text, ({ terms }) => {
        if (typeof terms === 'string') return out.push(terms) < max;
        for (const t of terms) if (out.push(t) >= max) return false;
        return true;
      });
    return out;
  }

  /** Terms with positions and source offsets (summaries and highlighting); only the first `max` when given. */
  tokens(text: string, max = Infinity): Token[] {
    return this.valuedTokens(text, undefined, max);
  }

  /**
   * tokens(), each with `valueOf` of the text it spans. `valueOf` must be a
   * pure function: its value is remembered with the word, for as long as the
   * analyzer remembers the word's terms.
   */
  valuedTokens<V>(text: string, valueOf: (word: string) => V, max?: number): ValuedToken<V>[];
  valuedTokens(text: string, valueOf: undefined, max?: number): Token[];
  valuedTokens<V>(text: string, valueOf: ((word: string) => V) | undefined, max = Infinity): (Token & { value?: V })[] {
    const out: (Token & { value?: V })[] = [];
    if (max >= 1)
      this.scan(
        text,
        ({ terms }, start, end, value) => {
          const many = typeof terms !== 'string';
          for (let i = 0, n = many ? terms.length : 1; i < n; i++) {
            const t: Token & { value?: V } = { term: many ? terms[i]! : terms, pos: out.length, start, end };
            if (i > 0) t.part = true;
            if (valueOf) t.value = value as V;
            if (out.push(t) >= max) return false;
          }
          return true;
        },
        valueOf,
      );
    return out;
  }

  /** The numbers of a text's terms (`numbered`), appended to `out`; only the first `max`. */
  termNumbers(text: string, out: NumberList, max = Infinity): void {
    let left = max;
    if (left >= 1)
      this.scanNumbers(text, (n: Numbers) => {
        if (typeof n === 'number') return (out.push(n), --left > 0);
        for (let i = 0; i < n.length; i++) if ((out.push(n[i]!), --left <= 0)) return false;
        return true;
      });
  }

  /** Every token of a text as numbers into `out` (emptied first), each with `valueOf` of its word (as valuedTokens) when given. */
  numberedTokens(text: string, valueOf: ((word: string) => number) | undefined, out: NumberedTokens): void {
    out.count = 0;
    out.exceptions = 0;
    let before = 0;
    this.scanWords(
      text,
      (n: Numbers, start: number, end: number, value: unknown) => {
        const k = typeof n === 'number' ? 1 : n.length;
        for (let i = 0; i < k; i++) {
          const at = out.count++;
          if (at === out.terms.length) out.grow();
          out.terms[at] = typeof n === 'number' ? n : n[i]!;
          out.starts[at] = start;
          out.ends[at] = end;
          if (valueOf) out.values[at] = value as number;
        }
        return true;
      },
      valueOf,
      true,
      (start) => {
        if (out.count - before !== 1) out.except(start, out.count - before, before);
        before = out.count;
      },
    );
  }

  /** A word's terms' numbers, numbering the terms met for the first time. */
  private number(w: Word): number | Uint32Array {
    const numberOf = (this.numberOf ??= new Map());
    const of = (t: string) => {
      let n = numberOf.get(t);
      if (n === undefined) numberOf.set(t, (n = this.numbered.push(t) - 1));
      return n;
    };
    return (w.numbers = typeof w.terms === 'string' ? of(w.terms) : Uint32Array.from(w.terms, of));
  }

  /** The term one query word becomes, or undefined when it yields none or several. */
  term(word: string): string | undefined {
    const t = this.terms(word);
    return t.length === 1 ? t[0] : undefined;
  }

  /** Calls `emit` for each word that yields terms until it returns false. */
  private scan(text: string, emit: Emit, valueOf?: ValueOf): void {
    this.scanWords(text, emit, valueOf, false);
  }

  /** scan() passing each word's terms' numbers (`numbered`) rather than the word. */
  private scanNumbers(text: string, emit: Emit<Numbers>, valueOf?: ValueOf): void {
    this.scanWords(text, emit, valueOf, true);
  }

  /** `spanDone`: called with each span's start once its words are emitted. */
  private scanWords(text: string, emit: Emit<never>, valueOf: ValueOf | undefined, numbers: boolean, spanDone?: (start: number) => void): void {
    tokenSpans(text, (at, end) => {
      const more = this.spanWords(text, at, end, emit, numbers, valueOf);
      if (spanDone) spanDone(at);
      return more;
    });
  }

  /** The words of the span of `text` from `at` to `end` passed to `emit`; false when it asked to stop. */
  private spanWords(text: string, at: number, end: number, emit: Emit<never>, numbers: boolean, valueOf: ValueOf | undefined): boolean {
    if (text.charCodeAt(at) < 128) return this.emitWord(text, at, end, at, end, emit, numbers, valueOf);
    const raw = text.slice(at, end);
    if (!UNSPACED_START.test(raw)) return this.emitWord(text, at, end, at, end, emit, numbers, valueOf);
    // Half-width kana only segment well once composed; offsets then fall back to the run's.
    const run = raw.normalize('NFKC');
    const exact = run.length === raw.length;
    for (const s of segmenter.segment(run)) {
      if (!s.isWordLike) continue;
      const start = exact ? at + s.index : at;
      const stop = exact ? at + s.index + s.segment.length : end;
      // A value is of the text a token spans, which is the segment only when NFKC left the run as it was.
      if (!this.emitWord(s.segment, 0, s.segment.length, start, stop, emit, numbers, valueOf, valueOf && run !== raw ? text.slice(start, stop) : undefined)) return false;
    }
    return true;
  }

  /**
   * The word `src` holds from `from` to `to`, its tokens spanning `start` to
   * `end` of the text, passed to `emit` (or its terms' numbers, for a numbering scan);
   * false when `emit` asked to stop. `spanned`: the text the word's tokens span, when it is not the word.
   */
  private emitWord(src: string, from: number, to: number, start: number, end: number, emit: Emit<never>, numbers: boolean, valueOf?: ValueOf, spanned?: string): boolean {
    const cache = this.words;
    let e = cache.find(src, from, to);
    // A word of one term met before is its number, remembered beside it in the cache.
    if (numbers && e >= 0 && valueOf === undefined) {
      const n = cache.number;
      if (n >= 0) return (emit as Emit<Numbers>)(n, start, end, undefined) !== false;
    }
    if (e < 0) {
      const raw = wordOf(src, from, to);
      const terms = this.wordTerms(raw);
      e = cache.add(raw, terms === null ? null : new Word(terms));
    }
    const w = cache.words[e]!;
    if (w === null) return true;
    let value: unknown;
    if (valueOf !== undefined) {
      if (spanned !== undefined) value = valueOf(spanned);
      else {
        if (w.valueOf !== valueOf) (w.value = valueOf(cache.keys[e]!)), (w.valueOf = valueOf);
        value = w.value;
      }
    }
    if (!numbers) return (emit as Emit)(w, start, end, value) !== false;
    const n = w.numbers ?? this.number(w);
    if (typeof n === 'number') cache.number = n;
    return (emit as Emit<Numbers>)(n, start, end, value) !== false;
  }

  /** The term of a word, or for a camelCase identifier or a compound its whole term then its parts'. */
  private wordTerms(raw: string): string | string[] | null {
    if (isIdentifier(raw)) return this.identifierTerms(raw);
    const whole = this.wordTerm(raw);
    if (whole === null) return whole;
    if (!HAS_CAMEL.test(raw)) {
      const parts = this.options.decompound ? splitCompound(raw) : undefined;
      return parts ? [whole, ...parts.map((p) => this.wordTerm(p)!)] : whole;
    }
    const parts = raw.split(CAMEL_SPLIT).map((p) => this.wordTerm(p)).filter((t): t is string => t !== null);
    return parts.length > 1 ? [whole, ...parts] : whole;
  }

  /** An identifier's whole term (folded, never stemmed) then its words' terms. */
  private identifierTerms(raw: string): string | string[] | null {
    const parts = identifierWords(raw).flatMap((w) => this.wordTerms(w) ?? []);
    const whole = foldCase(raw);
    if (whole.length > MAX_TERM_LENGTH) return parts.length === 0 ? null : parts.length === 1 ? parts[0]! : parts;
    return parts.length === 0 ? whole : [whole, ...parts];
  }

  /** The term of one word, or null when it yields none. */
  private wordTerm(raw: string): string | null {
    const w = foldWord(raw);
    if (w.length === 0 || w.length > MAX_TERM_LENGTH) return null;
    if (this.stems && ASCII_LETTERS.test(w)) return this.stems.get(w);
    if (HANGUL.test(w)) return stripJosa(w);
    return w;
  }
}
