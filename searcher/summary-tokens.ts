/**
 * @module searcher/summary-tokens
 * The words a summary needs, without analyzing the whole page: the head of
 * the page (the summary when nothing matches) and the words around every place
 * where a query term can stand. Those places are found by a plain scan for
 * each term's probe; only the text around them goes through the analyzer,
 * which decides what really matches. Each place gets at least `context` words
 * on both sides, so a window found in the parts is the window the whole text
 * would give; the parts are separated by cuts that no window crosses.
 *
 * A word whose term is an ASCII term T holds T's first characters (3 when T
 * has at least 4, else up to 2), with at most an apostrophe or a hyphen
 * between them: folding is lower-casing, apostrophes and a one-letter prefix's
 * hyphen are dropped, and stemming rewrites only the end of a word (except
 * Porter2's dying, lying, tying → die, lie, tie, whose places are missed).
 * A word with a non-ASCII Latin or common letter, mark or digit may fold into
 * any ASCII term: those are places too. A non-ASCII query term, or a probe
 * found too often to pay, gets the whole text analyzed.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { MAX_TERM_LENGTH } from '../shared/analysis/analyzer.js';
import { tokenSpans } from '../shared/analysis/token-spans.js';
import { Furniture, tokenColumns, type SummaryOptions, type TextToken, type TokenColumns } from './summary.js';

export interface SummaryTokens {
  tokens: TokenColumns;
  /** Offsets where a part starts after skipped text: windows must not reach across. */
  cuts: number[];
  /** Whether content words follow the last token. */
  more: boolean;
}

/** Past this many places the probes are too common to pay: the whole text is analyzed instead. */
const MAX_PLACES = 1000;

/** Non-ASCII characters that may fold into ASCII letters or digits (Latin and common letters, marks, digits). */
const FOLDABLE = new RegExp(String.raw`^[[[\p{L}\p{M}\p{N}]&&[\p{sc=Latin}\p{sc=Common}\p{sc=Inherited}]]--[\x00-\x7f]]`, 'v');
const escapeChar = (c: string) => (/[a-z0-9]/.test(c) ? c : `\\${c}`);

/** The scan for where `terms` can stand, in lower-cased text, or undefined when a term is not ASCII. */
export function placesPattern(terms: readonly string[]): RegExp | undefined {
  const probes = new Set<string>();
  for (const t of terms) {
    if (!/^[\x21-\x7e]+$/.test(t)) return undefined;
    probes.add(t.slice(0, t.length >= 4 ? 3 : 2));
  }
  const alts = [...probes].map((p) => [...p].map(escapeChar).join(`[\\-'’]?`));
  return new RegExp(`${alts.length ? `(?<![a-z0-9])(?:${alts.join('|')})|` : ''}[^\\x00-\\x7f]`, 'g');
}

const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029;
const isAsciiWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * Where the text around `at` holds `words` runs of non-space that surely give a
 * token (an ASCII letter or digit in at most MAX_TERM_LENGTH characters), going
 * back (`step` -1, the start returned) or forth (+1, the end returned). Runs are
 * cut at whitespace, never inside a token, so the part is tokenized as in the
 * whole text. Runs inside `skip` do not count.
 */
function reach(text: string, at: number, words: number, step: 1 | -1, skip?: (a: number, b: number) => boolean): number {
  let i = at;
  let counted = 0;
  while (counted < words) {
    if (step < 0 ? i <= 0 : i >= text.length) break;
    // Over whitespace, then over one run of non-space.
    while (step < 0 ? i > 0 && isSpace(text.charCodeAt(i - 1)) : i < text.length && isSpace(text.charCodeAt(i))) i += step;
    const from = i;
    let word = false;
    while (step < 0 ? i > 0 && !isSpace(text.charCodeAt(i - 1)) : i < text.length && !isSpace(text.charCodeAt(i))) {
      if (isAsciiWordChar(text.charCodeAt(step < 0 ? i - 1 : i))) word = true;
      i += step;
    }
    const [a, b] = step < 0 ? [i, from] : [from, i];
    if (word && b - a <= MAX_TERM_LENGTH && !skip?.(a, b)) counted++;
  }
  return i;
}

/** Longer runs of non-space are not analyzed just to confirm a place. */
const MAX_RUN = 256;

/** Whether the run of non-space holding `at` has a word whose term is wanted (a place the probe found may be another word). */
function isHit(analyzer: Analyzer, text: string, at: number, wanted: ReadonlySet<string>): boolean {
  let a = at;
  let b = at;
  while (a > 0 && at - a < MAX_RUN && !isSpace(text.charCodeAt(a - 1))) a--;
  while (b < text.length && b - at < MAX_RUN && !isSpace(text.charCodeAt(b))) b++;
  if ((a > 0 && !isSpace(text.charCodeAt(a - 1))) || (b < text.length && !isSpace(text.charCodeAt(b)))) return true;
  return analyzer.terms(text.slice(a, b)).some((t) => wanted.has(t));
}

/** Spans [from, to) in order of their starts, overlapping or touching ones merged. */
function mergeSpans(spans: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  for (const [from, to] of spans) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/**
 * Tokens of the head of `text` and of the parts around each place the query's
 * terms can stand, or undefined when the whole text is to be analyzed.
 */
export function summaryTokens(
  analyzer: Analyzer,
  text: string,
  terms: readonly string[],
  opts: SummaryOptions,
  furniture: readonly (readonly [number, number])[],
): SummaryTokens | undefined {
  const pattern = placesPattern(terms);
  const lower = text.toLowerCase();
  // Lower-casing keeps offsets in all but a few scripts; where it does not, the whole text is analyzed.
  if (!pattern || lower.length !== text.length) return undefined;
  const context = Math.max(0, opts.context);
  const length = Math.max(1, opts.length);
  const wanted = new Set(terms);
  // The head: `length` content words and one more, for a page where nothing matches.
  const head = new Furniture(furniture);
  const spans: [number, number][] = [[0, reach(text, 0, length + 1, 1, (a, b) => head.covers(a, b))]];
  let scanned = 0;
  for (const m of lower.matchAll(pattern)) {
    if (++scanned > MAX_PLACES) return undefined;
    const at = m.index;
    if (m[0].length === 1 && m[0].charCodeAt(0) > 0x7f && !FOLDABLE.test(text.slice(at, at + 2))) continue;
    if (!isHit(analyzer, text, at, wanted)) continue;
    // The word at the place, `context` words before it and after it (its own run may hold more than one);
    // a place inside the previous part starts where it does, as the parts merge.
    const last = spans[spans.length - 1]!;
    const from = at < last[1] ? last[0] : reach(text, at, context + 1, -1);
    const to = reach(text, at, context + 2, 1);
    spans.push([from, to]);
  }
  const tokens: TextToken[] = [];
  const cuts: number[] = [];
  let end = 0;
  // Places come in text order; each merged part is analyzed once.
  for (const [from, to] of mergeSpans(spans)) {
    const first = tokens.length;
    for (const t of analyzer.tokens(text.slice(from, to))) tokens.push({ term: t.term, start: t.start + from, end: t.end + from });
    if (from > end && tokens.length > first) cuts.push(tokens[first]!.start);
    end = to;
  }
  let more = false;
  const tail = new Furniture(furniture);
  if (end < text.length) tokenSpans(text.slice(end), (a, b) => !(more = !tail.covers(a + end, b + end)));
  return { tokens: tokenColumns(tokens), cuts, more };
}
