/**
 * @module shared/analysis/token-spans
 * Where the words of a text are, before any folding: the spans the analyzer
 * turns into terms and the summaries highlight, found by one pattern so both
 * agree. An ASCII fast path finds the same spans an order of magnitude
 * faster wherever the text around them allows.
 */

import { identifierPatterns } from './identifiers.js';

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
/** A span that starts in a script written without spaces: a run for Intl.Segmenter. */
export const UNSPACED_START = new RegExp(`^[${UNSPACED}]`, 'v');
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
/**
 * ASCII characters after a run of letters and digits where ASCII_TOKEN's
 * match at the run's start ends with the run: none of its alternatives
 * continues a run over them (a number over `.` or `,`, a one-letter prefix
 * over `-`, a word over `'`, `.`, `=` or `_`).
 */
const ENDS_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ENDS_WORD[c] = !isAlnum(c) && !"-'.=_,".includes(String.fromCharCode(c)) ? 1 : 0;
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
        // Most words are a run of letters and digits that no separator continues: it ends where the run does.
        // So does one before a separator other than `_` that no letter or digit follows (the end of a sentence).
        let end = start;
        while (isAlnum(text.charCodeAt(end))) end++;
        const c = text.charCodeAt(end);
        if (end === start || (!ENDS_WORD[c] && (c >= 128 || c === 95 /* _ */ || isAlnum(text.charCodeAt(end + 1))))) {
          fast.lastIndex = start;
          fast.test(text);
          end = fast.lastIndex;
        }
        // Safe when everything from `from` through the two characters after the match is ASCII:
        // TOKEN can extend a match by a separator (-, ', ’, ., ,) and one more word character.
        if (end + 1 < next) {
          from = end;
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
