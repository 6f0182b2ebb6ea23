/**
 * @module shared/analysis/analyzer
 * The one text analyzer of hazelnut. The indexer, the index statistics, the
 * candidate index (flexsearch gets it as its encoder) and the query parser all
 * turn text into terms through it, so their vocabularies cannot drift apart.
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
import { identifierPatterns, identifierWords, isIdentifier } from './identifiers.js';
import { isEnglishWord } from './words.js';

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

/** Shortest part of a split compound: shorter ones (`a`, `in`, `re`) split too much. */
const MIN_PART = 3;
const LOWER_ASCII = /^[a-z]+$/;

/**
 * The two English words a word written in lower case runs together, when it
 * is not a word itself: of several splits the most even (`hostname` → host name).
 */
export function splitCompound(word: string, isWord: (w: string) => boolean = isEnglishWord): [string, string] | undefined {
  if (word.length < 2 * MIN_PART || !LOWER_ASCII.test(word) || isWord(word)) return undefined;
  let best: [string, string] | undefined;
  for (let i = MIN_PART; i <= word.length - MIN_PART; i++) {
    const a = word.slice(0, i);
    const b = word.slice(i);
    if (isWord(a) && isWord(b) && (!best || Math.min(a.length, b.length) > Math.min(best[0].length, best[1].length))) best = [a, b];
  }
  return best;
}

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

/** Scripts written without spaces between words: segmented by ICU. */
const UNSPACED = String.raw`\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\u30FC\u3005\u3099-\u309C\uFF70\uFF9E\uFF9F`;
const WORD_CHAR = String.raw`[[\p{L}\p{M}\p{N}]--[${UNSPACED}]]`;
const TOKEN = new RegExp(
  [
    `[${UNSPACED}]+`, // a run for Intl.Segmenter
    String.raw`\p{N}+(?:[.,]\p{N}+)+(?!${WORD_CHAR})`, // a decimal or grouped number, whole
    `(?<!${WORD_CHAR})${WORD_CHAR}-${WORD_CHAR}+`, // one letter + hyphen: e-mail, x-ray, joined
    ...identifierPatterns(WORD_CHAR), // a word (apostrophes inside kept for now), or an identifier
  ].join('|'),
  'gv',
);
const UNSPACED_START = new RegExp(`^[${UNSPACED}]`, 'v');
const WORD_CHAR_ONLY = new RegExp(`^${WORD_CHAR}$`, 'v');
/**
 * TOKEN's alternatives restricted to ASCII, an order of magnitude faster. Where
 * the text around a match is ASCII too, TOKEN would match exactly the same
 * span (its other alternatives need a non-ASCII character), so `tokenSpans`
 * takes it and falls back to TOKEN only near non-ASCII text.
 */
const ASCII_TOKEN = new RegExp(['[0-9]+(?:[.,][0-9]+)+(?![A-Za-z0-9])', '(?<![A-Za-z0-9])[A-Za-z0-9]-[A-Za-z0-9]+', ...identifierPatterns('[A-Za-z0-9]')].join('|'), 'g');
const NON_ASCII_G = /[^\x00-\x7f]/g;
/** ASCII letters and digits, by character code (past the end, NaN: neither). */
const ALNUM = new Uint8Array(128);
for (const [a, z] of ['09', 'AZ', 'az']) for (let c = a!.charCodeAt(0); c <= z!.charCodeAt(0); c++) ALNUM[c] = 1;
const isAlnum = (c: number) => c < 128 && ALNUM[c] === 1;
/** Where an ASCII token can start: a letter or digit, underscores before one, or `--` before one; neither of the last two after a word. */
function startsToken(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (isAlnum(c)) return true;
  if (c !== 95 /* _ */ && !(c === 45 /* - */ && text.charCodeAt(at + 1) === 45)) return false;
  let i = c === 95 ? at : at + 2;
  while (c === 95 && text.charCodeAt(i) === 95) i++;
  return isAlnum(text.charCodeAt(i)) && !afterWord(text, at, c);
}

/** Whether the character before `at` is a word character, or the underscore or hyphen (`c`) that would run on from one. */
function afterWord(text: string, at: number, c: number): boolean {
  if (at === 0) return false;
  const p = text.charCodeAt(at - 1);
  if (p < 128) return isAlnum(p) || p === 95 || (c === 45 && p === 45);
  const from = p >= 0xdc00 && p <= 0xdfff && at >= 2 ? at - 2 : at - 1;
  return WORD_CHAR_ONLY.test(String.fromCodePoint(text.codePointAt(from)!));
}

/**
 * The spans TOKEN matches in `text`, in order, as [start, end) pairs passed
 * to `each` until it returns false; `ascii` (the default) takes the fast path
 * wherever the text allows.
 */
export function tokenSpans(text: string, each: (start: number, end: number) => boolean, ascii = true): void {
  // Building TOKEN costs more than scanning a short text (summaries scan many): a scan reuses the idle set.
  const rx = idleScanners ?? newScanners();
  idleScanners = undefined;
  try {
    scanSpans(text, each, ascii, rx);
  } finally {
    idleScanners = rx;
  }
}

interface Scanners {
  full: RegExp;
  fast: RegExp;
  nonAscii: RegExp;
}
const newScanners = (): Scanners => ({ full: new RegExp(TOKEN.source, 'gv'), fast: new RegExp(ASCII_TOKEN.source, 'y'), nonAscii: new RegExp(NON_ASCII_G.source, 'g') });
/** Regular expressions no scan is using (a scan started from `each` builds its own). */
let idleScanners: Scanners | undefined = newScanners();

function scanSpans(text: string, each: (start: number, end: number) => boolean, ascii: boolean, { full, fast, nonAscii }: Scanners): void {
  let from = 0;
  // The first non-ASCII character at or after `from` (text.length when none).
  let next = -1;
  for (;;) {
    if (next < from) {
      nonAscii.lastIndex = from;
      next = ascii ? (nonAscii.exec(text)?.index ?? text.length) : from;
    }
    if (next > from) {
      // An ASCII match starts at the first ASCII letter or digit (ASCII_TOKEN's last alternative matches
      // any); `fast` (sticky) tells where it ends, without building the match or its text.
      let start = from;
      while (start < next && !startsToken(text, start)) start++;
      if (start < next) {
        fast.lastIndex = start;
        fast.test(text);
        // Safe when everything from `from` through the two characters after the match is ASCII:
        // TOKEN can extend a match by a separator (-, ', ’, ., ,) and one more word character.
        if (fast.lastIndex + 1 < next) {
          from = fast.lastIndex;
          if (!each(start, from)) return;
          continue;
        }
      } else if (next >= text.length) return;
    }
    full.lastIndex = from;
    const f = full.exec(text);
    if (!f) return;
    from = f.index + f[0].length;
    if (!each(f.index, from)) return;
  }
}
const NON_ASCII = /[^\x00-\x7f]/;
const APOSTROPHE = /['’]/g;
const POSSESSIVE = /['’]s$/;
const ASCII_LETTERS = /^[a-z]+$/;
/** Combining marks on a Latin or Greek base letter (after NFD). */
const LATIN_GREEK_MARKS = /([\p{sc=Latin}\p{sc=Greek}])[\u0300-\u036f]+/gu;
/** Letters that have no decomposition but fold all the same. */
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ς: 'σ', ё: 'е' };
const FOLD_CHARS = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'g');
const HANGUL = /^\p{sc=Hangul}+$/u;
/** Korean particles, longest first; removed only when two syllables remain. */
const JOSA = ['에서는', '으로는', '에게서', '에서', '에게', '으로', '부터', '까지', '보다', '처럼', '께서', '은', '는', '이', '가', '을', '를', '에', '의', '와', '과', '도', '로', '만'];

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** Case and diacritic folding of one word (already NFKC). */
function fold(word: string): string {
  const lower = word.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  return lower
    .normalize('NFD')
    .replace(LATIN_GREEK_MARKS, '$1')
    .normalize('NFC')
    .replace(FOLD_CHARS, (c) => FOLD[c]!);
}

/**
 * Words remembered with their terms per analyzer: a page's words repeat, and
 * folding, stemming and the compound test dominate analysis. Full, the cache
 * starts afresh and derives every word again: the manuals of a few programs
 * (identifiers, option names, numbers) hold well over 100,000 word forms.
 */
const WORD_CACHE = 200_000;

/** Receives each word that yields terms (with its value when one is asked for); returning false stops the scan. */
type Emit = (word: Word, start: number, end: number, value: unknown) => unknown;
type ValueOf = (word: string) => unknown;

/**
 * A remembered word: its terms, their numbers once asked for
 * (`Analyzer.numberedTokens`) and, computed when first asked for, the value
 * of a caller's function of it, so a caller needing a number or a value per
 * word (the indexer: its terms' ids and its inflection class) looks the word
 * up once, here.
 */
class Word {
  valueOf: ValueOf | undefined = undefined;
  value: unknown = undefined;
  numbers: number | Uint32Array | undefined = undefined;
  constructor(readonly terms: string | string[]) {}
}

/**
 * Remembered words, found by the characters of a span of text: a word met
 * again is not first copied out of the text as a string, as a Map's key
 * would need. Open addressing over at least twice as many slots as it holds
 * words, grown as it fills (an analyzer that meets few words, as a query's,
 * holds a small table); full, it starts afresh.
 */
class WordCache {
  private slots = new Int32Array(1 << 10).fill(-1);
  private hashes = new Int32Array(1 << 9);
  readonly keys: string[] = [];
  /** null: a word that yields no term. */
  readonly words: (Word | null)[] = [];
  /** The hash of the span `find` last looked for, which `add` files its word under. */
  private hash = 0;

  /** The entry of `src`'s characters from `from` to `to`, or -1. */
  find(src: string, from: number, to: number): number {
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) h = Math.imul(h ^ src.charCodeAt(i), 0x01000193);
    this.hash = h;
    const { slots, hashes, keys } = this;
    const mask = slots.length - 1;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const e = slots[at]!;
      if (e < 0) return -1;
      if (hashes[e] !== h) continue;
      const k = keys[e]!;
      if (k.length !== to - from) continue;
      let i = 0;
      while (i < k.length && k.charCodeAt(i) === src.charCodeAt(from + i)) i++;
      if (i === k.length) return e;
    }
  }

  /** Adds the word `find` just looked for in vain; returns its entry. */
  add(key: string, word: Word | null): number {
    const { keys } = this;
    if (keys.length === WORD_CACHE) {
      this.slots.fill(-1);
      keys.length = 0;
      this.words.length = 0;
    } else if (keys.length === this.hashes.length) this.grow();
    const e = keys.push(key) - 1;
    this.words.push(word);
    this.hashes[e] = this.hash;
    this.file(e);
    return e;
  }

  private file(e: number): void {
    const { slots } = this;
    const mask = slots.length - 1;
    let at = this.hashes[e]! & mask;
    while (slots[at]! >= 0) at = (at + 1) & mask;
    slots[at] = e;
  }

  /** Twice the room, every entry filed again in twice the slots. */
  private grow(): void {
    const hashes = new Int32Array(2 * this.hashes.length);
    hashes.set(this.hashes);
    this.hashes = hashes;
    this.slots = new Int32Array(2 * this.slots.length).fill(-1);
    for (let e = 0; e < this.keys.length; e++) this.file(e);
  }
}

/** A copy of `a` in a typed array of `size` elements (at least its length), for arrays that grow by doubling. */
export function grown<A extends Uint32Array | Float64Array>(a: A, size = 2 * a.length): A {
  const b = new (a.constructor as new (n: number) => A)(size);
  b.set(a);
  return b;
}

/**
 * A text's tokens as numbers: each term's number (`Analyzer.numbered`), its
 * word's span and a number the caller's function gives the word, in arrays
 * reused from one scan to the next.
 */
export class NumberedTokens {
  count = 0;
  terms = new Uint32Array(1024);
  starts = new Uint32Array(1024);
  ends = new Uint32Array(1024);
  values = new Float64Array(1024);

  /** Room for one more token. */
  grow(): void {
    this.terms = grown(this.terms);
    this.starts = grown(this.starts);
    this.ends = grown(this.ends);
    this.values = grown(this.values);
  }
}

/** Term numbers appended to a growing array (`Analyzer.termNumbers`). */
export class NumberList {
  length = 0;
  array = new Uint32Array(1024);

  push(n: number): void {
    if (this.length === this.array.length) this.array = grown(this.array);
    this.array[this.length++] = n;
  }
}

/** Where a camelCase word splits: lower→Upper (`readFile`) and before the last capital of a run of three or more (`XMLHttp`, not `IPv6`). */
const CAMEL_SPLIT = /(?<=[a-z])(?=[A-Z])|(?<=[A-Z]{2})(?=[A-Z][a-z])/;
const HAS_CAMEL = /[a-z][A-Z]|[A-Z]{3}[a-z]/;

function stripJosa(word: string): string {
  for (const j of JOSA) if (word.length - j.length >= 2 && word.endsWith(j)) return word.slice(0, -j.length);
  return word;
}

export class Analyzer {
  readonly options: Readonly<AnalyzerOptions>;
  private readonly words = new WordCache();
  private readonly stem: ((word: string) => string) | undefined;
  private numberOf: Map<string, number> | undefined;
  /**
   * Every term the numbered scans met, by number (its index), for the
   * analyzer's lifetime: the numbers outlive the cache of words, and only an
   * indexer asks for them (a searcher's analyzer never grows this).
   */
  readonly numbered: string[] = [];

  constructor(opts: Partial<AnalyzerOptions> = {}) {
    for (const k of Object.keys(opts)) if (!OPTIONS.includes(k)) throw new TypeError(`unknown analyzer option ${k}`);
    const englishStemmer = opts.englishStemmer ?? 'porter2';
    if (!(englishStemmer in STEMMERS)) throw new TypeError(`unknown English stemmer ${englishStemmer}`);
    this.options = Object.freeze({ stemEnglish: opts.stemEnglish ?? false, englishStemmer, decompound: opts.decompound ?? false });
    this.stem = this.options.stemEnglish ? STEMMERS[englishStemmer] : undefined;
  }

  /** The analyzer an index was built with, from its recorded options: one that names no stemmer predates Porter2. */
  static ofIndex(opts: Partial<AnalyzerOptions>): Analyzer {
    return new Analyzer({ englishStemmer: 'porter', ...opts });
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
      this.scan(text, (w) => {
        const n = w.numbers ?? this.number(w);
        if (typeof n === 'number') return (out.push(n), --left > 0);
        for (let i = 0; i < n.length; i++) if ((out.push(n[i]!), --left <= 0)) return false;
        return true;
      });
  }

  /** Every token of a text as numbers into `out` (emptied first), each with `valueOf` of its word (as valuedTokens). */
  numberedTokens(text: string, valueOf: (word: string) => number, out: NumberedTokens): void {
    out.count = 0;
    this.scan(
      text,
      (w, start, end, value) => {
        const n = w.numbers ?? this.number(w);
        const k = typeof n === 'number' ? 1 : n.length;
        for (let i = 0; i < k; i++) {
          const at = out.count++;
          if (at === out.terms.length) out.grow();
          out.terms[at] = typeof n === 'number' ? n : n[i]!;
          out.starts[at] = start;
          out.ends[at] = end;
          out.values[at] = value as number;
        }
        return true;
      },
      valueOf,
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
    tokenSpans(text, (at, end) => {
      if (text.charCodeAt(at) < 128) return this.emitWord(text, at, end, at, end, emit, valueOf);
      const raw = text.slice(at, end);
      if (!UNSPACED_START.test(raw)) return this.emitWord(text, at, end, at, end, emit, valueOf);
      // Half-width kana only segment well once composed; offsets then fall back to the run's.
      const run = raw.normalize('NFKC');
      const exact = run.length === raw.length;
      for (const s of segmenter.segment(run)) {
        if (!s.isWordLike) continue;
        const start = exact ? at + s.index : at;
        const stop = exact ? at + s.index + s.segment.length : end;
        // A value is of the text a token spans, which is the segment only when NFKC left the run as it was.
        if (!this.emitWord(s.segment, 0, s.segment.length, start, stop, emit, valueOf, valueOf && run !== raw ? text.slice(start, stop) : undefined)) return false;
      }
      return true;
    });
  }

  /**
   * The word `src` holds from `from` to `to`, its tokens spanning `start` to
   * `end` of the text, passed to `emit`; false when `emit` asked to stop.
   * `spanned`: the text the word's tokens span, when it is not the word.
   */
  private emitWord(src: string, from: number, to: number, start: number, end: number, emit: Emit, valueOf?: ValueOf, spanned?: string): boolean {
    const cache = this.words;
    let e = cache.find(src, from, to);
    if (e < 0) {
      const raw = src.slice(from, to);
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
    return emit(w, start, end, value) !== false;
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
    const whole = NON_ASCII.test(raw) ? fold(raw.normalize('NFKC')) : raw.toLowerCase();
    if (whole.length > MAX_TERM_LENGTH) return parts.length === 0 ? null : parts.length === 1 ? parts[0]! : parts;
    return parts.length === 0 ? whole : [whole, ...parts];
  }

  /** The term of one word, or null when it yields none. */
  private wordTerm(raw: string): string | null {
    let w = NON_ASCII.test(raw) ? fold(raw.normalize('NFKC')) : raw.toLowerCase();
    if (w.includes("'") || w.includes('’')) w = w.replace(POSSESSIVE, '').replace(APOSTROPHE, '');
    else if (w[1] === '-') w = w[0]! + w.slice(2);
    if (w.length === 0 || w.length > MAX_TERM_LENGTH) return null;
    if (this.stem && ASCII_LETTERS.test(w)) return this.stem(w);
    if (HANGUL.test(w)) return stripJosa(w);
    return w;
  }
}
