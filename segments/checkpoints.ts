/**
 * @module segments/checkpoints
 * What a summary needs to find the words of a page's parse text around its
 * hits without analyzing the text, stored beside the parse at index time
 * instead of every word's offsets. The analyzer's tokens are the spans
 * shared/analysis/token-spans.ts finds, one token a span but where a span
 * gives none (a run too long for a term), several (a camelCase word or an
 * identifier and its parts, a compound and its parts, the words of a run of
 * Han or kana) or an `exception` says so. A checkpoint is a word, the first
 * at or after every CHECKPOINT_EVERY-th token, that starts right after
 * whitespace: the span patterns look back at most one character, and
 * whitespace there reads as the start of a text, so scanning the text from
 * that word on finds the whole text's spans from there. The searcher scans
 * only the text around its hits, from the nearest checkpoint before them
 * (searcher/summary-checkpoints.ts). The record, in LEB128 varints: the
 * number of tokens summaries cover, the number of checkpoints, each
 * checkpoint's token index and character offset as steps from the last
 * one's, then each exception's span start (a step from the last one's) and
 * its tokens: a few bytes every CHECKPOINT_EVERY tokens and a few an
 * exception, where every word's offsets took about a byte each.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { NumberedTokens } from '../shared/analysis/term-numbers.js';
import { SUMMARY_TEXT_CHARS, SUMMARY_SCAN_CHARS, summaryTokens } from './offsets.js';
import { VarintReader, VarintWriter } from './varints.js';

/** Tokens between checkpoints: at most this many are scanned before the words a summary wants. */
export const CHECKPOINT_EVERY = 32;

/**
 * Where summaries may resume a scan of a text (token 0 at offset 0 is a
 * checkpoint without being stored), how many of its tokens they cover, and
 * the spans that give other than one token each: where each starts, in
 * order, and how many tokens it gives.
 */
export interface Checkpoints {
  readonly count: number;
  readonly tokens: Uint32Array;
  readonly chars: Uint32Array;
  readonly exceptions: Uint32Array;
  readonly exceptionTokens: Uint32Array;
}

/** Whitespace no span pattern tells from a text's start (tab, line feed, form feed, carriage return, space, U+2028). */
const isRestartSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13 || c === 0x2028;

/**
 * The record of a text's first `n` tokens, as the analyzer's numberedTokens
 * gives them: their starts (the tokens of one span sharing its start or, in a run
 * of Han or kana, starting inside it) and the spans that gave other than one token.
 */
export function encodeCheckpoints(text: string, tokens: NumberedTokens, n: number): Buffer {
  const { starts } = tokens;
  const marks: number[] = [];
  for (let i = CHECKPOINT_EVERY; i < n; ) {
    const at = starts[i]!;
    if (starts[i - 1] === at || !isRestartSpace(text.charCodeAt(at - 1))) i++;
    else (marks.push(i, at), (i += CHECKPOINT_EVERY));
  }
  const v = new VarintWriter();
  v.push(n);
  v.push(marks.length / 2);
  for (let k = 0; k < marks.length; k += 2) (v.push(marks[k]! - (k ? marks[k - 2]! : 0)), v.push(marks[k + 1]! - (k ? marks[k - 1]! : 0)));
  // The spans of other than one token, until the last covered token's span (where it cuts a span, that span's tokens it covers).
  let last = 0;
  for (let x = 0; x < tokens.exceptions && tokens.exceptionBefore[x]! < n; x++) {
    const before = tokens.exceptionBefore[x]!;
    const k = Math.min(before + tokens.exceptionTokens[x]!, n) - before;
    const start = tokens.exceptionStarts[x]!;
    if (k !== 1) (v.push(start - last), v.push(k), (last = start));
  }
  return v.bytes();
}

/** textCheckpoints' tokens, reused from one text to the next. */
const scratch = new NumberedTokens();

/** The record of a parse text's words, as `analyzer` splits them: of the tokens summaryTokens keeps. */
export function textCheckpoints(analyzer: Analyzer, text: string): Buffer {
  const scanned = text.length > SUMMARY_TEXT_CHARS ? text.slice(0, SUMMARY_SCAN_CHARS) : text;
  analyzer.numberedTokens(scanned, undefined, scratch);
  return encodeCheckpoints(scanned, scratch, summaryTokens(scratch, text.length));
}

/** The stored record, or undefined when it is damaged. */
export function readCheckpoints(data: Uint8Array): Checkpoints | undefined {
  const r = new VarintReader(data);
  const varint = () => r.next();
  const count = varint();
  const marks = varint();
  if (count < 0 || marks < 0 || marks > data.length) return undefined;
  const tokens = new Uint32Array(marks + 1);
  const chars = new Uint32Array(marks + 1);
  for (let k = 1; k <= marks; k++) {
    const tokenStep = varint();
    const charStep = varint();
    if (tokenStep <= 0 || charStep <= 0) return undefined;
    tokens[k] = tokens[k - 1]! + tokenStep;
    chars[k] = chars[k - 1]! + charStep;
  }
  if (marks && tokens[marks]! >= count) return undefined;
  const starts: number[] = [];
  const given: number[] = [];
  for (let at = 0; r.left > 0; ) {
    const step = varint();
    const k = varint();
    if (step < 0 || k < 0 || (starts.length && step === 0)) return undefined;
    starts.push((at += step));
    given.push(k);
  }
  return { count, tokens, chars, exceptions: Uint32Array.from(starts), exceptionTokens: Uint32Array.from(given) };
}
