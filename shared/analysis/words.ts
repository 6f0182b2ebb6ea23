/**
 * @module shared/analysis/words
 * The English dictionary the analyzer splits compounds by, and the split: the 275,000 words
 * of `an-array-of-english-words`, kept as the package's own text (a sorted
 * JSON array of lower-case words) and searched by bisection in place. Parsing
 * it into a Set of strings costs about half a second and 30 MB at every
 * start; reading it and finding where its words start costs a few milliseconds and 4 MB.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

let english: SortedWords | undefined;

/** The list as `,"a","aa",…"zzzs"]`: every word preceded by `,"` and followed by `"`. */
function text(): string {
  const raw = fs.readFileSync(createRequire(import.meta.url).resolve('an-array-of-english-words'), 'utf8');
  return ',' + raw.slice(raw.indexOf('"'));
}

/**
 * A sorted list of words in the form `text()` gives, searched by bisection over where each word
 * starts (1.1 MB for the English list, found once): a bisection over the characters themselves
 * looked for the start of a word at every step, which cost more than the comparison.
 */
export class SortedWords {
  /** Where each word's characters start in the list, then where a word after the last would. */
  private readonly starts: Uint32Array;

  constructor(private readonly list: string) {
    let n = 0;
    for (let at = list.indexOf(',"'); at >= 0; at = list.indexOf(',"', at + 2)) n++;
    this.starts = new Uint32Array(n + 1);
    let k = 0;
    for (let at = list.indexOf(',"'); at >= 0; at = list.indexOf(',"', at + 2)) this.starts[k++] = at + 2;
    this.starts[n] = n > 0 ? list.indexOf('"', this.starts[n - 1]!) + 3 : 0;
  }

  /** Whether `word` is in the list. */
  has(word: string): boolean {
    const { list, starts } = this;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // Compared in place: a copy of each word on the way costs more than the comparison.
      const c = compareAt(list, starts[mid]!, starts[mid + 1]! - 3, word);
      if (c === 0) return true;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return false;
  }
}

/** `text`'s characters from `start` to `end` against `word`, by code unit as `<` compares strings: negative, zero or positive. */
function compareAt(text: string, start: number, end: number, word: string): number {
  const m = Math.min(end - start, word.length);
  for (let i = 0; i < m; i++) {
    const d = text.charCodeAt(start + i) - word.charCodeAt(i);
    if (d !== 0) return d;
  }
  return end - start - word.length;
}

/** Whether a lower-case word is English. */
export const isEnglishWord = (word: string): boolean => (english ??= new SortedWords(text())).has(word);

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
