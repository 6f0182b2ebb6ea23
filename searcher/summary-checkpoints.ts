/**
 * @module searcher/summary-checkpoints
 * The word offsets a summary reads, re-read from the page's text where it
 * reads them: from the checkpoint stored at index time (segments/checkpoints.ts)
 * nearest before each place, the analyzer gives the words the whole text's
 * analysis gives there, so only the words around the hits, the head of the
 * page and the words after the last part are analyzed, each part from at most
 * CHECKPOINT_EVERY tokens before it. searcher/summary-offsets.ts then reads
 * them as it reads offsets stored whole. Each hit's term is checked against
 * the word found at its position: a text that no longer has the index's
 * words there is summarized by a scan instead.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { lowerBound } from '../shared/bisect.js';
import { CHECKPOINT_EVERY, type Checkpoints } from '../segments/checkpoints.js';
import type { TokenOffsets } from '../segments/offsets.js';
import { hitPart, type TextHits } from './summary-offsets.js';

/** A text's token offsets, each read from the text when first asked for (`fill`); `broken` once the text has fewer tokens than its checkpoints say. */
export class ScannedOffsets implements TokenOffsets {
  readonly count: number;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  /** Each read token's term. */
  readonly terms: string[];
  private readonly known: Uint8Array;
  broken = false;

  constructor(
    private readonly analyzer: Pick<Analyzer, 'eachToken'>,
    private readonly checkpoints: Checkpoints & { readonly text: string },
  ) {
    this.count = checkpoints.count;
    this.starts = new Uint32Array(this.count);
    this.ends = new Uint32Array(this.count);
    this.terms = new Array<string>(this.count);
    this.known = new Uint8Array(this.count);
  }

  /** Reads tokens [from, to) (as far as the text has them) from the last checkpoint before the first one not read yet. */
  fill(from: number, to: number): void {
    const { known } = this;
    to = Math.min(to, this.count);
    while (from < to && known[from]) from++;
    while (to > from && known[to - 1]) to--;
    if (from >= to) return;
    const { tokens, chars, text } = this.checkpoints;
    // The checkpoint at or before `from`: the first, token 0 at offset 0, always is.
    const k = lowerBound(tokens, from + 1) - 1;
    const first = tokens[k]!;
    const at = chars[k]!;
    const { starts, ends, terms } = this;
    let i = first;
    this.analyzer.eachToken(at ? text.slice(at) : text, (term, start, end) => {
      starts[i] = start + at;
      ends[i] = end + at;
      terms[i] = term;
      known[i] = 1;
      return ++i < to;
    });
    if (i < to) this.broken = true;
  }
}

/**
 * Reads the words of the part of every hit among the first `n` tokens
 * (hitPart: `context` words on each side), parts fewer than CHECKPOINT_EVERY
 * tokens apart in one pass; false when a hit's word is not of its term (the
 * text is not the one indexed).
 */
export function readHitParts(offsets: ScannedOffsets, hits: TextHits, context: number, n: number): boolean {
  let from = 0;
  let to = 0;
  for (const i of hits.at) {
    if (i >= n) break;
    const [a, b] = hitPart(i, context, n);
    if (a > to + CHECKPOINT_EVERY) {
      offsets.fill(from, to);
      from = a;
    }
    to = Math.max(to, b);
  }
  offsets.fill(from, to);
  return !offsets.broken && hits.at.every((i, h) => i >= n || offsets.terms[i] === hits.terms[h]);
}
