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
 * reused from one scan to the next.
 */
export class NumberedTokens {
  count = 0;
  terms = new Uint32Array(1024);
  starts = new Uint32Array(1024);
  ends = new Uint32Array(1024);
  values = new Float64Array(1024);

  /** Room for one more token. */
  grow(): void {
    this.terms = grown(this.terms);
    this.starts = grown(this.starts);
    this.ends = grown(this.ends);
    this.values = grown(this.values);
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
}
