/**
 * @module shared/index/tf-codes
 * A forward-index entry's frequencies in three bytes rather than ten: the
 * content frequency in a byte, the title, anchor, url and heading
 * frequencies in a nibble each of a 16-bit code (they are zero for most
 * entries, whose code is then not kept, tf-sparse, and small for the rest). A value too large for its place is
 * stored as the escape (all ones) and its frequency in an overflow list,
 * keyed by entry and field, that a reader holds whole: few entries need it.
 * A frequency is at most TF_MAX; the overflow list holds a title or content
 * count past it uncapped (from index format 10), as an entry's positions
 * are that many varints (position-marks).
 */
import { FIELDS } from './types.js';

const F = FIELDS.length;
/** The most a frequency counts (DocEntries.tf is 16-bit). */
export const TF_MAX = 0xffff;
const TITLE = FIELDS.indexOf('title');
/** The field whose frequency has a byte of its own; the others share the 16-bit code. */
export const BYTE_FIELD = FIELDS.indexOf('content');
const NIBBLE_FIELDS = FIELDS.map((_, f) => f).filter((f) => f !== BYTE_FIELD);
/** Each field's shift in the 16-bit code (-1: the byte field). */
const SHIFT = FIELDS.map((_, f) => (f === BYTE_FIELD ? -1 : 4 * NIBBLE_FIELDS.indexOf(f)));
export const BYTE_ESCAPE = 0xff;
export const NIBBLE_ESCAPE = 0xf;

/** The overflow key of an entry's field (exact as a double far past any entry count). */
export const overKey = (entry: number, field: number): number => entry * F + field;

/** The byte of an entry's content frequency. */
export const tfByte = (v: number): number => (v < BYTE_ESCAPE ? v : BYTE_ESCAPE);

/** Frequency `v` of field `f` (not the byte's) in its place of the 16-bit code. */
export const tfNibble = (v: number, f: number): number => (v < NIBBLE_ESCAPE ? v : NIBBLE_ESCAPE) << SHIFT[f]!;

/** The 16-bit code of entry `j`'s other frequencies, `tfs` holding each field's (FIELDS order). */
export function tfCode(tfs: readonly ArrayLike<number>[], j: number): number {
  let code = 0;
  for (const f of NIBBLE_FIELDS) code |= tfNibble(tfs[f]![j]!, f);
  return code;
}

/** How many of an entry's frequencies its byte and code leave to the overflow list. */
export function escapes(byte: number, code: number): number {
  let n = byte === BYTE_ESCAPE ? 1 : 0;
  for (const f of NIBBLE_FIELDS) if (((code >>> SHIFT[f]!) & NIBBLE_ESCAPE) === NIBBLE_ESCAPE) n++;
  return n;
}

/** What a document's frequencies add to the forward index's columns (tfCounts). */
export interface TfCounts {
  /** Frequencies their bytes and codes leave to the overflow list: each entry's `escapes`, summed. */
  overflow: number;
  /** Entries occurring in a field other than the byte's: their code is not zero. */
  coded: number;
  /** Entries whose byte is not `usual`. */
  bytesKept: number;
}

/**
 * Adds to `into` the counts of a document's field-major frequencies (DocEntries.tf, `n` entries),
 * in one pass over them: `usual` is the byte a sparse column leaves out (tf-sparse).
 */
export function tfCounts(tf: ArrayLike<number>, n: number, usual: number, into: TfCounts): void {
  let over = 0;
  let coded = 0;
  let kept = 0;
  for (let k = 0; k < n; k++) {
    let other = 0;
    for (let f = 0; f < F; f++) {
      const v = tf[f * n + k]!;
      if (f === BYTE_FIELD) {
        if (v >= BYTE_ESCAPE) over++;
        if (tfByte(v) !== usual) kept++;
      } else {
        other |= v;
        if (v >= NIBBLE_ESCAPE) over++;
      }
    }
    if (other) coded++;
  }
  into.overflow += over;
  into.coded += coded;
  into.bytesKept += kept;
}

/** A field's frequency from an entry's byte and code; -1 when it is in the overflow list. */
export function tfOf(byte: number, code: number, field: number): number {
  if (field === BYTE_FIELD) return byte === BYTE_ESCAPE ? -1 : byte;
  const v = (code >>> SHIFT[field]!) & NIBBLE_ESCAPE;
  return v === NIBBLE_ESCAPE ? -1 : v;
}

/**
 * Entries `from..to` of a window's bytes and codes (indexes into them, entry
 * numbers `first + index`) as a document's field-major frequencies (DocEntries.tf).
 */
export function decodeTfs(bytes: Uint8Array, codes: Uint16Array, from: number, to: number, first: number, over: (entry: number, field: number) => number): Uint16Array {
  const m = to - from;
  const out = new Uint16Array(m * F);
  for (let k = 0; k < m; k++)
    for (let f = 0; f < F; f++) {
      const v = tfOf(bytes[from + k]!, codes[from + k]!, f);
      out[f * m + k] = v >= 0 ? v : Math.min(over(first + from + k, f), TF_MAX);
    }
  return out;
}

/** How many positions each of entries `from..to` of a window's bytes and codes has (entry numbers `first + index`), as positionCount, into `out` from 0. */
export function positionCounts(bytes: Uint8Array, codes: Uint16Array, from: number, to: number, first: number, over: (entry: number, field: number) => number, out: Uint32Array): void {
  for (let k = from; k < to; k++) {
    const byte = bytes[k]!;
    const title = (codes[k]! >>> SHIFT[TITLE]!) & NIBBLE_ESCAPE;
    // Most entries escape neither count.
    out[k - from] = byte !== BYTE_ESCAPE && title !== NIBBLE_ESCAPE ? byte + title : positionCount(byte, codes[k]!, first + k, over);
  }
}

/** How many positions an entry has (its title and content counts, uncapped), from its byte and code and the overflow list. */
export function positionCount(byte: number, code: number, entry: number, over: (entry: number, field: number) => number): number {
  const t = tfOf(byte, code, TITLE);
  return (t >= 0 ? t : over(entry, TITLE)) + (byte === BYTE_ESCAPE ? over(entry, BYTE_FIELD) : byte);
}
