/**
 * @module segments/summary-text
 * The text a summary shows, as a summary reads it: stored for summaries as
 * Latin-1, or UTF-16LE when it holds a character past U+00FF, so any span of
 * it decodes on its own and a summary decodes only the words it shows, not
 * the whole start of the page.
 */

/** A page's text as a summary reads it. */
export interface PageText {
  readonly length: number;
  slice(start: number, end: number): string;
  whole(): string;
}

/** Text at hand (a parse text). */
export class WholeText implements PageText {
  constructor(private readonly text: string) {}
  get length(): number {
    return this.text.length;
  }
  slice(start: number, end: number): string {
    return this.text.slice(start, end);
  }
  whole(): string {
    return this.text;
  }
}

/** Characters up to U+00FF are stored one byte each, others make the whole text UTF-16. */
const LATIN1 = /^[\x00-\xff]*$/;

/** How a text is stored for summaries: its bytes, and whether they are UTF-16LE. */
export function storedText(text: string): { bytes: Buffer; wide: boolean } {
  const wide = !LATIN1.test(text);
  return { bytes: Buffer.from(text, wide ? 'utf16le' : 'latin1'), wide };
}

/** Stored text, decoded a span at a time. */
export class StoredText implements PageText {
  readonly length: number;
  constructor(
    private readonly bytes: Buffer,
    private readonly wide: boolean,
  ) {
    this.length = wide ? bytes.length >> 1 : bytes.length;
  }
  slice(start: number, end: number): string {
    end = Math.min(end, this.length);
    if (start >= end) return '';
    return this.wide ? this.bytes.toString('utf16le', 2 * start, 2 * end) : this.bytes.toString('latin1', start, end);
  }
  whole(): string {
    return this.slice(0, this.length);
  }
}
