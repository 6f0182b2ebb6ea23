/**
 * @module searcher/summary-checkpoints
 * The word offsets a summary reads, found in the page's text where it reads
 * them: from the checkpoint stored at index time (segments/checkpoints.ts)
 * nearest before each place, the spans of the text are the whole text's, one
 * token each but where the record's exceptions say otherwise, so only the
 * words around the hits, the head of the page and the words after the last
 * part are found, each part from at most CHECKPOINT_EVERY tokens before it,
 * and no word is analyzed but those of a run of Han or kana (their tokens are
 * the segmenter's). searcher/summary-offsets.ts then reads them as it reads
 * offsets stored whole, and judges the hits' words as it does those.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { tokenSpans, UNSPACED_START } from '../shared/analysis/token-spans.js';
import { lowerBound } from '../shared/bisect.js';
import type { Checkpoints } from '../segments/checkpoints.js';
import type { TokenOffsets } from '../segments/offsets.js';
import { hitPart, type TextHits } from './summary-offsets.js';

/** A text's token offsets, each found in the text when first asked for (`fill`); `broken` once the text has fewer tokens than its record says. */
export class ScannedOffsets implements TokenOffsets {
  readonly count: number;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  private readonly known: Uint8Array;
  broken = false;

  constructor(
    private readonly analyzer: Pick<Analyzer, 'tokens'>,
    private readonly checkpoints: Checkpoints & { readonly text: string },
  ) {
    this.count = checkpoints.count;
    this.starts = new Uint32Array(this.count);
    this.ends = new Uint32Array(this.count);
    this.known = new Uint8Array(this.count);
  }

  /** The token of the last checkpoint at or before token i: a scan for token i starts there. */
  restartBefore(i: number): number {
    const { tokens } = this.checkpoints;
    return tokens[lowerBound(tokens, i + 1) - 1]!;
  }

  /** Finds tokens [from, to) (as far as the text has them) from the last checkpoint before the first one not found yet. */
  fill(from: number, to: number): void {
    const { known, starts, ends } = this;
    to = Math.min(to, this.count);
    while (from < to && known[from]) from++;
    while (to > from && known[to - 1]) to--;
    if (from >= to) return;
    const { tokens, chars, text, exceptions, exceptionTokens } = this.checkpoints;
    // The checkpoint at or before `from`: the first, token 0 at offset 0, always is.
    const k = lowerBound(tokens, from + 1) - 1;
    const at = chars[k]!;
    // The first checkpoint at or after `to`: the words before it end at the whitespace before it, so the scan
    // stops there and never looks through the rest of a long text (for its next non-ASCII character).
    const j = lowerBound(tokens, to);
    const stop = j < tokens.length ? chars[j]! : text.length;
    let i = tokens[k]!;
    let x = lowerBound(exceptions, at);
    tokenSpans(at || stop < text.length ? text.slice(at, stop) : text, (a, b) => {
      const start = a + at;
      const end = b + at;
      let n = 1;
      if (exceptions[x] === start) n = exceptionTokens[x++]!;
      if (text.charCodeAt(start) > 0x7f && UNSPACED_START.test(text.slice(start, start + 2))) {
        // A run of Han or kana: its tokens are the segmenter's words in it.
        for (const t of this.analyzer.tokens(text.slice(start, end), n)) if (i < this.count) (starts[i] = t.start + start), (ends[i] = t.end + start), (known[i++] = 1);
        return i < to;
      }
      for (; n > 0 && i < this.count; n--) (starts[i] = start), (ends[i] = end), (known[i++] = 1);
      return i < to;
    });
    if (i < to) this.broken = true;
  }
}

/**
 * Reads the words of the part of every hit among the first `n` tokens
 * (hitPart: `context` words on each side), a part in the pass of the parts
 * before it unless a checkpoint lies past them and by its start, where a
 * pass of its own scans fewer words; false when the text has fewer tokens
 * than its record says (it is not the one indexed).
 */
export function readHitParts(offsets: ScannedOffsets, hits: TextHits, context: number, n: number): boolean {
  let from = 0;
  let to = 0;
  for (const i of hits.at) {
    if (i >= n) break;
    const [a, b] = hitPart(i, context, n);
    if (a > to && offsets.restartBefore(a) > to) {
      offsets.fill(from, to);
      from = a;
    }
    to = Math.max(to, b);
  }
  offsets.fill(from, to);
  return !offsets.broken;
}
