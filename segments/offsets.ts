/**
 * @module segments/offsets
 * The part of a page's parse text summaries read, what they read of its
 * parse meta, and the word offsets older hazelnut stored beside the parse
 * (now segments/checkpoints.ts stands in for them), still read. An offsets
 * record is a version and the token count (32-bit little-endian each), then
 * every token's start, then every token's end, 16 bits each (the covered
 * part fits), then every token's inflection class, a byte each (a summary
 * tells which hits to mark without reading their text). The parts of a
 * camelCase word share its span. Records of version 2 (no classes) and
 * version 1 (LEB128 deltas) are read too.
 */

import { MAX_TERM_LENGTH } from '../shared/analysis/analyzer.js';
import type { NumberedTokens } from '../shared/analysis/term-numbers.js';
import type { PageSection, ParseMeta } from '../shared/plugin/extension-points.js';
import { VarintReader } from './varints.js';

/** Summaries look at this much of a page's text, and the stored offsets cover it (in 16 bits: below 65,536). */
export const SUMMARY_TEXT_CHARS = 60_000;

/** Changes when the encoding changes; a record of an unknown version is not used. */
export const OFFSETS_VERSION = 3;
/** The version and the token count. */
export const HEADER = 8;

/** The class of a word whose class would not tell its inflection base (segments/inflection.ts) from another base of its term in the page: its text decides. */
export const UNCLASSED = 255;

/** An inflection base's class: a hash of it, below UNCLASSED. */
export function baseClass(base: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < base.length; i++) h = Math.imul(h ^ base.charCodeAt(i), 0x01000193);
  return (h >>> 0) % UNCLASSED;
}

/**
 * How many of a text's tokens (numberedTokens, in text order, of the text or
 * of a start of it that reaches past the part summaries read) summaries
 * cover: the words that lie whole in that part, for a text `length` long.
 */
export function summaryTokens(tokens: NumberedTokens, length: number): number {
  if (length <= SUMMARY_TEXT_CHARS) return tokens.count;
  let lo = 0;
  let hi = tokens.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tokens.ends[mid]! <= SUMMARY_TEXT_CHARS) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Characters scanned past the part summaries read, so that a word its end
 * cuts is seen whole and left out (`user’s`, not `user`), as a scan of the
 * whole text leaves it out: a longer run of word characters yields no term
 * (MAX_TERM_LENGTH).
 */
const SCAN_PAST = 2 * MAX_TERM_LENGTH;

/** How much of a long text is analyzed for the words that lie whole in the part summaries read. */
export const SUMMARY_SCAN_CHARS = SUMMARY_TEXT_CHARS + SCAN_PAST;

/** What a summary reads of a page's parse meta: the sections and furniture that start in the part it looks at. */
export function summaryMeta(meta: ParseMeta): Pick<ParseMeta, 'sections' | 'furniture'> {
  return {
    ...(Array.isArray(meta.sections) ? { sections: meta.sections.filter((s) => s.offset < SUMMARY_TEXT_CHARS) } : {}),
    ...(Array.isArray(meta.furniture) ? { furniture: meta.furniture.filter(([start]) => start < SUMMARY_TEXT_CHARS) } : {}),
  };
}

/**
 * The sections and furniture as a summary reads them: where each section
 * starts (in the parser's order) and the furniture ranges, at once; a
 * section's heading and id (JSON) only for the section a summary names.
 */
export interface SummaryMeta {
  readonly sections: readonly number[];
  readonly furniture: readonly (readonly [number, number])[];
  /** Each section's heading and id: as parsed, or as stored (encodeSummaryMeta's lines after the first, found only for the section named). */
  readonly headings: readonly Pick<PageSection, 'heading' | 'id'>[] | string;
}

/**
 * The stored form of summaryMeta(): a first line of JSON, the sections'
 * offsets and the furniture, then a line of JSON per section, its heading and
 * id; the headings are most of it, and a summary parses one.
 */
export function encodeSummaryMeta(meta: Pick<ParseMeta, 'sections' | 'furniture'>): string {
  const sections = Array.isArray(meta.sections) ? meta.sections : [];
  const head = JSON.stringify([sections.map((s) => s.offset), Array.isArray(meta.furniture) ? meta.furniture : []]);
  return [head, ...sections.map((s) => JSON.stringify(headingOf(s)))].join('\n');
}

const headingOf = (s: Pick<PageSection, 'heading' | 'id'>) => ({ heading: s.heading, ...(s.id === undefined ? {} : { id: s.id }) });

/** A parse meta as a summary reads it. */
export function metaForSummary(meta: ParseMeta): SummaryMeta {
  const sections = Array.isArray(meta.sections) ? meta.sections : [];
  return {
    sections: sections.map((s) => s.offset),
    furniture: Array.isArray(meta.furniture) ? meta.furniture : [],
    headings: sections,
  };
}

/** A stored summary meta: encodeSummaryMeta's form, or the JSON of summaryMeta() that older hazelnut stored. */
export function readSummaryMeta(stored: string): SummaryMeta {
  if (stored.startsWith('{')) return metaForSummary(JSON.parse(stored) as ParseMeta);
  const line = stored.indexOf('\n');
  const [sections, furniture] = JSON.parse(line < 0 ? stored : stored.slice(0, line)) as [number[], [number, number][]];
  return { sections, furniture, headings: line < 0 ? '' : stored.slice(line + 1) };
}

/** Section k's heading and id. */
export function sectionOf(meta: SummaryMeta, k: number): Pick<PageSection, 'heading' | 'id'> {
  const { headings } = meta;
  if (typeof headings !== 'string') return headingOf(headings[k]!);
  let from = 0;
  for (let i = 0; i < k; i++) from = headings.indexOf('\n', from) + 1;
  const to = headings.indexOf('\n', from);
  return JSON.parse(headings.slice(from, to < 0 ? headings.length : to)) as Pick<PageSection, 'heading' | 'id'>;
}

/** The part of a parse text summaries look at. */
export const summaryPart = (text: string) => (text.length > SUMMARY_TEXT_CHARS ? text.slice(0, SUMMARY_TEXT_CHARS) : text);

/** Token spans: token i spans [starts[i], ends[i]) of the text. */
export interface TokenOffsets {
  readonly count: number;
  readonly starts: Uint16Array | Uint32Array;
  readonly ends: Uint16Array | Uint32Array;
  /** Token i's inflection class; absent in records written before classes were stored, and in offsets read from the text. */
  readonly classes?: Uint8Array;
  /** Reads tokens [from, to) where offsets are read from the text as they are needed (searcher/summary-checkpoints.ts). */
  fill?(from: number, to: number): void;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The stored token spans, or undefined when the record is of an unknown version or damaged. */
export function readOffsets(data: Uint8Array): TokenOffsets | undefined {
  if (data[0] === 1) return readVersion1(data);
  if (data.length < HEADER) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = view.getUint32(0, true);
  const count = view.getUint32(4, true);
  // Version 2 is version 3 without the classes.
  const perToken = version === OFFSETS_VERSION ? 5 : version === 2 ? 4 : 0;
  if (!perToken || data.length !== HEADER + perToken * count) return undefined;
  const classes = perToken === 5 ? data.subarray(HEADER + 4 * count) : undefined;
  if (!LITTLE_ENDIAN || data.byteOffset % 2) {
    const starts = new Uint16Array(count);
    const ends = new Uint16Array(count);
    for (let i = 0; i < count; i++) {
      starts[i] = view.getUint16(HEADER + 2 * i, true);
      ends[i] = view.getUint16(HEADER + 2 * (count + i), true);
    }
    return { count, starts, ends, ...(classes ? { classes } : {}) };
  }
  // The columns are read in place.
  const at = data.byteOffset + HEADER;
  return { count, starts: new Uint16Array(data.buffer, at, count), ends: new Uint16Array(data.buffer, at + 2 * count, count), ...(classes ? { classes } : {}) };
}

/** Version 1: a LEB128 varint version and count, then per token its start minus the previous start and its length. */
function readVersion1(data: Uint8Array): TokenOffsets | undefined {
  const r = new VarintReader(data);
  const varint = () => r.next();
  varint();
  const count = varint();
  // Each token takes at least two bytes.
  if (count < 0 || 2 * count > r.left) return undefined;
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const step = varint();
    const length = varint();
    if (step < 0 || length < 0) return undefined;
    at += step;
    starts[i] = at;
    ends[i] = at + length;
  }
  return r.left === 0 ? { count, starts, ends } : undefined;
}
