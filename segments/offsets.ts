/**
 * @module segments/offsets
 * Where each word of a page's parse text stands, stored beside the parse at
 * index time, so the searcher builds a summary from the index's term
 * positions without analyzing the page again. Only the start of the text
 * that summaries look at is covered. Encoded as LEB128 varints: a version,
 * the token count, then per token its start minus the previous token's start
 * and its length (the parts of a camelCase word share its span: a 0 step).
 */

import type { Analyzer } from '../shared/analysis/analyzer.js';
import type { ParseMeta } from '../shared/plugin/types.js';

/** Summaries look at this much of a page's text, and the stored offsets cover it. */
export const SUMMARY_TEXT_CHARS = 60_000;

/** Changes when the encoding changes; an older record is not used. */
const OFFSETS_VERSION = 1;

/** The stored form of token spans (in text order, as the analyzer gives them). */
export function encodeOffsets(spans: readonly { start: number; end: number }[]): Buffer {
  const out: number[] = [];
  const push = (v: number) => {
    while (v > 0x7f) {
      out.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.push(v);
  };
  push(OFFSETS_VERSION);
  push(spans.length);
  let prev = 0;
  for (const s of spans) {
    push(s.start - prev);
    push(s.end - s.start);
    prev = s.start;
  }
  return Buffer.from(out);
}

/**
 * The stored offsets of a parse text's words, as `analyzer` splits them. A
 * word cut by the end of the covered part is left out: the index holds it whole.
 */
export function textOffsets(analyzer: Analyzer, text: string): Buffer {
  const part = summaryPart(text);
  const tokens = analyzer.tokens(part);
  if (part.length < text.length) while (tokens.length && tokens[tokens.length - 1]!.end === part.length) tokens.pop();
  return encodeOffsets(tokens);
}

/** What a summary reads of a page's parse meta: the sections and furniture that start in the part it looks at. */
export function summaryMeta(meta: ParseMeta): Pick<ParseMeta, 'sections' | 'furniture'> {
  return {
    ...(Array.isArray(meta.sections) ? { sections: meta.sections.filter((s) => s.offset < SUMMARY_TEXT_CHARS) } : {}),
    ...(Array.isArray(meta.furniture) ? { furniture: meta.furniture.filter(([start]) => start < SUMMARY_TEXT_CHARS) } : {}),
  };
}

/** The part of a parse text summaries look at. */
export const summaryPart = (text: string) => (text.length > SUMMARY_TEXT_CHARS ? text.slice(0, SUMMARY_TEXT_CHARS) : text);

/**
 * Token spans read from the stored form as far as they are asked for: token i
 * spans [starts[i], ends[i]) once `reach(i + 1)` has been called. A summary
 * needs the words around its hits, often far less than the whole.
 */
export class TokenOffsets {
  readonly count: number;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  private decoded = 0;
  private at = 0;

  private constructor(
    private readonly data: Uint8Array,
    private p: number,
    count: number,
  ) {
    this.count = count;
    this.starts = new Uint32Array(count);
    this.ends = new Uint32Array(count);
  }

  /** The stored offsets, or undefined when they are of another version or damaged. */
  static read(data: Uint8Array): TokenOffsets | undefined {
    const version = varintAt(data, 0);
    const count = varintAt(data, after);
    // Each token takes at least two bytes.
    if (version !== OFFSETS_VERSION || count < 0 || after + 2 * count > data.length) return undefined;
    return new TokenOffsets(data, after, count);
  }

  /** Makes the first `n` tokens readable (fewer when there are fewer); false when the record is damaged. */
  reach(n: number): boolean {
    const { data, starts, ends } = this;
    const to = Math.min(n, this.count);
    let p = this.p;
    // This loop reads every word up to a page's last hit: no allocation in it.
    for (let i = this.decoded; i < to; i++) {
      this.at += varintAt(data, p);
      starts[i] = this.at;
      ends[i] = this.at + varintAt(data, after);
      p = after;
    }
    if (to > this.decoded) {
      this.decoded = to;
      this.p = p;
    }
    return p <= data.length && (to < this.count || p === data.length);
  }
}

/** Where the last `varintAt` ended: past the data's end when it ran out. */
let after = 0;

/** An unsigned LEB128 varint at byte `p` (its end goes to `after`); -1 past the end. */
function varintAt(data: Uint8Array, p: number): number {
  let v = 0;
  let shift = 0;
  let b: number;
  do {
    if (p >= data.length) {
      after = data.length + 1;
      return -1;
    }
    b = data[p++]!;
    v += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  after = p;
  return v;
}

/** Every stored token span, or undefined when the record is of another version or damaged. */
export function decodeOffsets(data: Uint8Array): TokenOffsets | undefined {
  const o = TokenOffsets.read(data);
  return o && o.reach(o.count) ? o : undefined;
}
