/**
 * @module segments/checkpoints
 * Where a summary can start analyzing a page's parse text in the middle and
 * still get the words a scan of the whole text gets: stored beside the parse
 * at index time instead of every word's offsets. A checkpoint is a word, the
 * first at or after every CHECKPOINT_EVERY-th token, that starts right after
 * whitespace: the analyzer's patterns look back at most one character, and
 * whitespace there reads as the start of a text, so analyzing the text from
 * that word on gives the whole text's tokens from that one on. The searcher
 * re-reads only the words around its hits from the nearest checkpoint before
 * them (searcher/summary-checkpoints.ts). The record is the number of tokens
 * summaries cover, then per checkpoint its token index and character offset
 * as steps from the last one's, in LEB128 varints: a few bytes every
 * CHECKPOINT_EVERY tokens, where every word's offsets took about a byte each.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { NumberedTokens } from '../shared/analysis/term-numbers.js';
import { SUMMARY_TEXT_CHARS, SUMMARY_SCAN_CHARS, summaryTokens } from './offsets.js';

/** Tokens between checkpoints: at most this many are analyzed before the words a summary wants. */
export const CHECKPOINT_EVERY = 32;

/** Where summaries may resume a scan of a text, and how many of its tokens they cover. Token 0 at offset 0 is a checkpoint without being stored. */
export interface Checkpoints {
  readonly count: number;
  readonly tokens: Uint32Array;
  readonly chars: Uint32Array;
}

/** Whitespace no pattern of the analyzer tells from a text's start (tab, line feed, form feed, carriage return, space, U+2028). */
const isRestartSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13 || c === 0x2028;

/**
 * The checkpoints of a text's first `n` tokens, whose starts are `starts` (as
 * the analyzer gives them, the parts of a camelCase word sharing its start).
 */
export function encodeCheckpoints(text: string, starts: ArrayLike<number>, n: number): Buffer {
  const out = Buffer.allocUnsafe(5 + 10 * Math.ceil(n / CHECKPOINT_EVERY));
  let p = 0;
  const varint = (v: number) => {
    while (v > 0x7f) {
      out[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    out[p++] = v;
  };
  varint(n);
  let lastToken = 0;
  let lastChar = 0;
  for (let i = CHECKPOINT_EVERY; i < n; ) {
    const at = starts[i]!;
    if (starts[i - 1] === at || !isRestartSpace(text.charCodeAt(at - 1))) {
      i++;
      continue;
    }
    varint(i - lastToken);
    varint(at - lastChar);
    lastToken = i;
    lastChar = at;
    i += CHECKPOINT_EVERY;
  }
  return out.subarray(0, p);
}

/** textCheckpoints' tokens, reused from one text to the next. */
const scratch = new NumberedTokens();
const noValue = () => 0;

/** The checkpoints of a parse text's words, as `analyzer` splits them: of the tokens summaryTokens keeps. */
export function textCheckpoints(analyzer: Analyzer, text: string): Buffer {
  analyzer.numberedTokens(text.length > SUMMARY_TEXT_CHARS ? text.slice(0, SUMMARY_SCAN_CHARS) : text, noValue, scratch);
  return encodeCheckpoints(text, scratch.starts, summaryTokens(scratch, text.length));
}

/** The stored checkpoints, or undefined when the record is damaged. */
export function readCheckpoints(data: Uint8Array): Checkpoints | undefined {
  let p = 0;
  const varint = () => {
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (p >= data.length) return -1;
      const b = data[p++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return v;
    }
    return -1;
  };
  const count = varint();
  if (count < 0) return undefined;
  const tokens: number[] = [0];
  const chars: number[] = [0];
  while (p < data.length) {
    const tokenStep = varint();
    const charStep = varint();
    if (tokenStep <= 0 || charStep <= 0) return undefined;
    tokens.push(tokens[tokens.length - 1]! + tokenStep);
    chars.push(chars[chars.length - 1]! + charStep);
  }
  if (tokens[tokens.length - 1]! >= Math.max(1, count)) return undefined;
  return { count, tokens: Uint32Array.from(tokens), chars: Uint32Array.from(chars) };
}
