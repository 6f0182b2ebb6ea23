/**
 * @module segments/summary-text
 * The text a summary shows, as a summary reads it: stored for summaries one
 * byte a UTF-16 code unit (Latin-1), the few code units past U+00FF listed
 * after it with where they stand, so any span of it decodes on its own, a
 * page with one curly quote is not stored twice its size, and a summary
 * decodes only the words it shows, not the whole start of the page. A text
 * that listing would not make smaller (mostly another script) is stored
 * whole as UTF-16LE, the form older hazelnut stored every wide text in.
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

/**
 * How the bytes of a stored text read (the summary table's `form` column;
 * older hazelnut's summary_text table's `wide`): Latin-1; UTF-16LE; or Latin-1 with the
 * code units past U+00FF listed after it: their places (32 bits each, in
 * order), their code units (16 bits each), then how many (32 bits), little-endian.
 */
export const LATIN1 = 0;
export const UTF16 = 1;
export const LISTED = 2;
export type TextForm = typeof LATIN1 | typeof UTF16 | typeof LISTED;

const PAST_LATIN1 = /[\u0100-\uffff]/g;

/** How a text is stored for summaries: its bytes and their form, the smaller of listed and UTF-16. */
export function storedText(text: string): { bytes: Buffer; form: TextForm } {
  const places: number[] = [];
  for (PAST_LATIN1.lastIndex = 0; PAST_LATIN1.test(text); ) places.push(PAST_LATIN1.lastIndex - 1);
  // A code unit past U+00FF keeps its low byte in the Latin-1 bytes; the list says what it is.
  if (places.length === 0) return { bytes: Buffer.from(text, 'latin1'), form: LATIN1 };
  const n = text.length;
  const k = places.length;
  // Text mostly past Latin-1 (Cyrillic, Greek, CJK) is smaller, and faster to slice, whole in UTF-16.
  if (6 * k + 4 >= n) return { bytes: Buffer.from(text, 'utf16le'), form: UTF16 };
  const bytes = Buffer.allocUnsafe(n + 6 * k + 4);
  bytes.write(text, 0, n, 'latin1');
  for (let j = 0; j < k; j++) {
    bytes.writeUInt32LE(places[j]!, n + 4 * j);
    bytes.writeUInt16LE(text.charCodeAt(places[j]!), n + 4 * k + 2 * j);
  }
  bytes.writeUInt32LE(k, n + 6 * k);
  return { bytes, form: LISTED };
}

/** Stored text, decoded a span at a time. */
export class StoredText implements PageText {
  readonly length: number;
  /** How many code units are listed past the Latin-1 bytes (LISTED). */
  private readonly listed: number = 0;

  constructor(
    private readonly bytes: Buffer,
    private readonly form: TextForm,
  ) {
    if (form === LISTED) {
      this.listed = bytes.length >= 4 ? bytes.readUInt32LE(bytes.length - 4) : 0;
      this.length = Math.max(0, bytes.length - 4 - 6 * this.listed);
    } else this.length = form === UTF16 ? bytes.length >> 1 : bytes.length;
  }

  slice(start: number, end: number): string {
    end = Math.min(end, this.length);
    if (start >= end) return '';
    const { bytes, listed } = this;
    if (this.form === UTF16) return bytes.toString('utf16le', 2 * start, 2 * end);
    if (listed === 0) return bytes.toString('latin1', start, end);
    // The first listed code unit at or after start.
    const places = this.length;
    let lo = 0;
    let hi = listed;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (bytes.readUInt32LE(places + 4 * mid) < start) lo = mid + 1;
      else hi = mid;
    }
    let out = '';
    let at = start;
    for (let j = lo; j < listed; j++) {
      const i = bytes.readUInt32LE(places + 4 * j);
      if (i >= end) break;
      out += bytes.toString('latin1', at, i) + String.fromCharCode(bytes.readUInt16LE(places + 4 * listed + 2 * j));
      at = i + 1;
    }
    return at === start ? bytes.toString('latin1', start, end) : out + bytes.toString('latin1', at, end);
  }

  whole(): string {
    return this.slice(0, this.length);
  }
}
