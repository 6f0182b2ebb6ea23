/**
 * @module shared/analysis/word-cache
 * The analyzer's memory of words: each word met, found again by the
 * characters of its span, with its terms and what callers asked of it.
 */

/**
 * Words remembered with their terms per analyzer, in each of two
 * generations: a page's words repeat, and folding, stemming and the compound
 * test dominate analysis. The manuals of a few programs (identifiers, option
 * names, numbers) hold well over 100,000 word forms, a web of generated
 * pages 240,000: when the current generation is full it becomes the old one
 * and the one before is dropped, and a word found only in the old one moves
 * to the current one as it is. So the words still in use outlive a full
 * cache, and only those unused for a generation are derived again.
 */
export const WORD_CACHE = 200_000;

export type ValueOf = (word: string) => unknown;

/** V8 makes a slice of this many characters or more a view of the string it was cut from (a sliced string). */
const SLICED_MIN = 13;
/** Character codes of a long word, reused from copy to copy. */
const CODES: number[] = [];

/**
 * The characters of `src` from `from` to `to`, as a string that holds only
 * them. A remembered word cut out of a page with `slice` would keep the whole
 * page's text alive for as long as it is remembered: a searcher analysing
 * long pages for their summaries kept some 40 MB of realweb's pages so.
 */
export function wordOf(src: string, from: number, to: number): string {
  if (to - from < SLICED_MIN) return src.slice(from, to);
  let word = '';
  // In pieces, so a word of thousands of characters (base64, minified code) is no call of as many arguments.
  for (let at = from; at < to; at += 4096) {
    CODES.length = 0;
    for (let i = at, end = Math.min(to, at + 4096); i < end; i++) CODES.push(src.charCodeAt(i));
    word += String.fromCharCode.apply(null, CODES);
  }
  return word;
}

/**
 * A remembered word: its terms, their numbers once asked for
 * (`Analyzer.numberedTokens`) and, computed when first asked for, the value
 * of a caller's function of it, so a caller needing a number or a value per
 * word (the indexer: its terms' ids and its inflection class) looks the word
 * up once, here.
 */
export class Word {
  valueOf: ValueOf | undefined = undefined;
  value: unknown = undefined;
  numbers: number | Uint32Array | undefined = undefined;
  constructor(readonly terms: string | string[]) {}
}

/**
 * One generation: open addressing over at least twice as many slots as it
 * holds words, grown as it fills (an analyzer that meets few words, as a
 * query's, holds a small table). A slot holds a word's entry, its term
 * number once known, its length, where its characters are (in one array)
 * and its first INLINE characters, two to an int: with a web's vocabulary
 * the table outgrows the processor's caches and every place read is a
 * likely miss, and so a word of up to INLINE characters (96 % of the growth
 * corpus's words) is found by reading its slot alone (32 bytes), where
 * one whose characters were only in the array cost a second miss: the
 * indexer's analysis of the growth corpus's 10,000 pages took some 8 % less
 * CPU so. A numbering scan (`Analyzer.termNumbers`) of a word known with
 * one term reads nothing more.
 */
/** Ints a slot of a generation takes. */
const SLOT = 8;
/** Characters a slot holds. */
const INLINE = 8;
/** Where in a slot its characters start. */
const CHARS_AT = 4;

/** FNV-1a over `src`'s code units from `from` to `to`: where a word's slot is looked for first. */
function hashOf(src: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ src.charCodeAt(i), 0x01000193);
  return h;
}

/** The code units of `src` at `at` and `at + 1` as one int, a unit at or past `to` as 0. */
const pair = (src: string, at: number, to: number): number => (at < to ? src.charCodeAt(at) | (at + 1 < to ? src.charCodeAt(at + 1) << 16 : 0) : 0);

class Generation {
  /** Per slot (SLOT ints): its entry + 1 (0: empty), its term number + 1 (0: not known), its word's length, where its characters start in `chars`, its first INLINE characters. */
  private slots = new Int32Array(SLOT << 10);
  /** The characters of each entry longer than INLINE. */
  private chars = new Uint16Array(1 << 12);
  private used = 0;
  readonly keys: string[] = [];
  /** null: a word that yields no term. */
  readonly words: (Word | null)[] = [];
  /** Where in `slots` the word `find` last found or `add` last added is. */
  private slot = 0;

  /** The entry of `src`'s characters from `from` to `to`, whose hash is `h`, or -1. */
  find(h: number, src: string, from: number, to: number): number {
    const { slots, chars } = this;
    const mask = slots.length / SLOT - 1;
    const n = to - from;
    const c0 = pair(src, from, to);
    const c1 = pair(src, from + 2, to);
    const c2 = pair(src, from + 4, to);
    const c3 = pair(src, from + 6, to);
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const s = at * SLOT;
      const e = slots[s]! - 1;
      if (e < 0) return -1;
      if (slots[s + 2] !== n || slots[s + 4] !== c0 || slots[s + 5] !== c1 || slots[s + 6] !== c2 || slots[s + 7] !== c3) continue;
      let i = INLINE;
      if (n > INLINE) {
        const p = slots[s + 3]!;
        while (i < n && chars[p + i] === src.charCodeAt(from + i)) i++;
      }
      if (i >= n) {
        this.slot = s;
        return e;
      }
    }
  }

  /** Adds a word this generation lacks, whose hash is `h`; returns its entry. */
  add(h: number, key: string, word: Word | null): number {
    if (2 * (this.keys.length + 1) > this.slots.length / SLOT) this.grow();
    const e = this.keys.push(key) - 1;
    this.words.push(word);
    // A word's characters past its slot's: the array holds those of long words only.
    const p = this.used;
    if (key.length > INLINE) {
      if (p + key.length > this.chars.length) {
        const chars = new Uint16Array(Math.max(2 * this.chars.length, p + key.length));
        chars.set(this.chars);
        this.chars = chars;
      }
      for (let i = 0; i < key.length; i++) this.chars[p + i] = key.charCodeAt(i);
      this.used = p + key.length;
    }
    this.slot = this.file(this.slots, h, e + 1, 0, p);
    return e;
  }

  /** The term number of the word `find` last found or `add` last added, -1 when not known. */
  get number(): number {
    return this.slots[this.slot + 1]! - 1;
  }

  set number(n: number) {
    this.slots[this.slot + 1] = n + 1;
  }

  get size(): number {
    return this.keys.length;
  }

  /** Files the slot of entry `entry - 1` (its characters at `at` in `chars`) in `slots`; returns where. */
  private file(slots: Int32Array, h: number, entry: number, number: number, at: number): number {
    const key = this.keys[entry - 1]!;
    const mask = slots.length / SLOT - 1;
    let s = (h & mask) * SLOT;
    while (slots[s]! !== 0) s = (s + SLOT) & (slots.length - 1);
    slots[s] = entry;
    slots[s + 1] = number;
    slots[s + 2] = key.length;
    slots[s + 3] = at;
    for (let k = 0; k < INLINE / 2; k++) slots[s + CHARS_AT + k] = pair(key, 2 * k, key.length);
    return s;
  }

  /** Twice the slots, every entry filed again. */
  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(2 * old.length);
    for (let s = 0; s < old.length; s += SLOT) if (old[s] !== 0) this.file(slots, hashOf(this.keys[old[s]! - 1]!, 0, old[s + 2]!), old[s]!, old[s + 1]!, old[s + 3]!);
    this.slots = slots;
  }
}

/**
 * Remembered words, found by the characters of a span of text: a word met
 * again is not first copied out of the text as a string, as a Map's key
 * would need.
 */
export class WordCache {
  private current = new Generation();
  private old: Generation | undefined;
  /** The hash of the span `find` last looked for, which `add` files its word under. */
  private hash = 0;

  /** `capacity`: words a generation holds. */
  constructor(private readonly capacity = WORD_CACHE) {}

  /** The current generation's keys and words, by entry (as `find` and `add` return them). */
  get keys(): readonly string[] {
    return this.current.keys;
  }

  get words(): readonly (Word | null)[] {
    return this.current.words;
  }

  /** The entry of `src`'s characters from `from` to `to`, or -1; a word of the old generation moves to the current one. */
  find(src: string, from: number, to: number): number {
    const h = (this.hash = hashOf(src, from, to));
    const e = this.current.find(h, src, from, to);
    if (e >= 0 || !this.old) return e;
    const o = this.old.find(h, src, from, to);
    if (o < 0) return -1;
    const n = this.old.number;
    const moved = this.add(this.old.keys[o]!, this.old.words[o]!);
    this.current.number = n;
    return moved;
  }

  /** The term number remembered with the word `find` last found or `add` last added (-1: none), as `Analyzer.termNumbers` numbers terms. */
  get number(): number {
    return this.current.number;
  }

  set number(n: number) {
    this.current.number = n;
  }

  /** Adds the word `find` just looked for in vain; returns its entry. */
  add(key: string, word: Word | null): number {
    if (this.current.size === this.capacity) {
      this.old = this.current;
      this.current = new Generation();
    }
    return this.current.add(this.hash, key, word);
  }
}
