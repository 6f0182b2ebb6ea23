/**
 * @module shared/analysis/term-numbers
 * The growing typed arrays an analyzer scan fills with term numbers, reused
 * from one text to the next so indexing and summaries allocate nothing a page.
 */

/** A copy of `a` in a typed array of `size` elements (at least its length), for arrays that grow by doubling. */
export function grown<A extends Uint32Array | Float64Array>(a: A, size = 2 * a.length): A {
  const b = new (a.constructor as new (n: number) => A)(size);
  b.set(a);
  return b;
}

/**
 * A text's tokens as numbers: each term's number (`Analyzer.numbered`), its
 * word's span and a number the caller's function gives the word, in arrays
 * reused from one scan to the next; and the text's spans (token-spans.ts)
 * that gave other than one token, which summaries' checkpoints list
 * (segments/checkpoints.ts), so that they are known without scanning the text again.
 */
export class NumberedTokens {
  count = 0;
  terms = new Uint32Array(1024);
  starts = new Uint32Array(1024);
  ends = new Uint32Array(1024);
  values = new Float64Array(1024);
  /** How many spans gave other than one token; per span, in text order, its start, its tokens and the tokens before it. */
  exceptions = 0;
  exceptionStarts = new Uint32Array(64);
  exceptionTokens = new Uint32Array(64);
  exceptionBefore = new Uint32Array(64);

  /** Room for one more token. */
  grow(): void {
    this.terms = grown(this.terms);
    this.starts = grown(this.starts);
    this.ends = grown(this.ends);
    this.values = grown(this.values);
  }

  /** Records a span at `start` that gave `tokens` tokens (not one), `before` tokens before it. */
  except(start: number, tokens: number, before: number): void {
    if (this.exceptions === this.exceptionStarts.length) {
      this.exceptionStarts = grown(this.exceptionStarts);
      this.exceptionTokens = grown(this.exceptionTokens);
      this.exceptionBefore = grown(this.exceptionBefore);
    }
    const x = this.exceptions++;
    this.exceptionStarts[x] = start;
    this.exceptionTokens[x] = tokens;
    this.exceptionBefore[x] = before;
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

  /** Appends the first `n` numbers of `a` in one copy (a page's content is thousands). */
  pushFirst(a: Uint32Array, n: number): void {
    if (this.length + n > this.array.length) this.array = grown(this.array, 2 * (this.length + n));
    this.array.set(a.subarray(0, n), this.length);
    this.length += n;
  }
}
