/**
 * @module shared/index/forward-ids
 * The forward index's term ids in groups of 16 entries (format 12): each
 * group's first id, its base, packed at the dictionary's width (term-ids),
 * then the gaps from each id to the next in as many bits as the group's
 * largest gap needs, its width, a byte a group. A page's ids are sorted, so
 * its gaps are small: 10.5 bits an id in all on a growth crawl instead of
 * 18 or 19 (1.17 KB a page rather than 2.08 at 100k pages; offsets from the
 * base would take about 1.38 KB at 10k, the span of a group being some
 * fifteen gaps). Groups run over the whole column, not a page each, so an
 * entry's group is its number / 16 with no page to look up; a gap across a
 * page's end is taken modulo 2^bits (the few groups holding one are wide).
 * Where the gaps of every 16th group (a span) start is kept, word aligned,
 * the others' found by adding the widths between: a page's entry of a term
 * is a binary search of its groups' bases and a scan of one group, and
 * entries read in turn (a page's terms) cost one decode of their span.
 * An index of format 11 or older has a fixed width for every id (term-ids).
 */
import type { ColumnShape, IndexFileColumns, PackedColumnsWriter } from './format.js';
import type { PagedColumn, PagedFile } from './paged.js';
import { readTermIds, TermPacker } from './term-ids.js';

/** Entries a group. */
export const GROUP = 16;
/** Groups between two kept starts of their gaps. */
const SPAN = 16;
/** The column of the gaps, last in its file: its length follows from the widths, known once every page is in. */
export const IDS_GAPS = 'ids.gaps';
const BASE = 'ids.base';
const WIDTH = 'ids.width';
const AT = 'ids.at';

const groupsOf = (entries: number) => Math.ceil(entries / GROUP);
const wordsFor = (n: number, bits: number) => Math.ceil((n * bits) / 32);

/** The forward index's columns of `entries` grouped ids of a dictionary `bits` wide, the gaps' laid out at their bound (a gap is under 2^bits). */
export function idColumns(entries: number, bits: number): ColumnShape[] {
  const groups = groupsOf(entries);
  return [
    { name: 'term.bits', type: 'u8', length: 1 },
    { name: BASE, type: 'u32', length: wordsFor(groups, bits) },
    { name: WIDTH, type: 'u8', length: groups },
    { name: AT, type: 'u32', length: Math.ceil(groups / SPAN) },
    // Every SPAN groups' gaps start on a word: a word of padding at most.
    { name: IDS_GAPS, type: 'u32', length: wordsFor(entries, bits) + Math.ceil(groups / SPAN), bound: true },
  ];
}

const bitsOf = (v: number) => 32 - Math.clz32(v);

/** A buffer of a column's values appended a few at a time, passed on full. */
class Pending {
  n = 0;
  constructor(
    readonly a: Uint8Array | Uint32Array,
    private readonly out: (values: Uint8Array | Uint32Array) => void,
  ) {}
  push(v: number): void {
    this.a[this.n++] = v;
    if (this.n === this.a.length) this.flush();
  }
  flush(): void {
    if (this.n) this.out(this.a.subarray(0, this.n));
    this.n = 0;
  }
}

const bytesOf = (a: Uint8Array | Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Appends each page's sorted ids to the columns idColumns laid out from `col` on, a group at a time. */
export class IdGroupsWriter {
  private readonly group = new Uint32Array(GROUP);
  private n = 0;
  private groups = 0;
  private readonly mod: number;
  private readonly bases: TermPacker;
  private readonly pendingBases: Pending;
  private readonly widths: Pending;
  private readonly starts: Pending;
  private readonly gaps: Pending;
  /** Gap bits not yet in a whole word, and how many; words of gaps written. */
  private acc = 0;
  private used = 0;
  private words = 0;

  constructor(
    w: PackedColumnsWriter,
    col: number,
    private readonly bits: number,
  ) {
    this.mod = 2 ** bits;
    w.append(col, Uint8Array.of(bits));
    this.bases = new TermPacker(bits, (words) => w.append(col + 1, bytesOf(words)));
    this.pendingBases = new Pending(new Uint32Array(1024), (ids) => this.bases.append(ids as Uint32Array));
    this.widths = new Pending(new Uint8Array(4096), (v) => w.append(col + 2, bytesOf(v)));
    this.starts = new Pending(new Uint32Array(1024), (v) => w.append(col + 3, bytesOf(v)));
    this.gaps = new Pending(new Uint32Array(4096), (v) => w.append(col + 4, bytesOf(v)));
  }

  append(ids: Uint32Array): void {
    const { group } = this;
    for (let i = 0; i < ids.length; i++) {
      group[this.n++] = ids[i]!;
      if (this.n === GROUP) this.flushGroup();
    }
  }

  private flushGroup(): void {
    const { group, n, mod } = this;
    if (this.groups % SPAN === 0) {
      this.pad();
      this.starts.push(this.words);
    }
    this.pendingBases.push(group[0]!);
    // The gaps modulo 2^bits: one across a page's end is "negative".
    let or = 0;
    for (let k = n - 1; k > 0; k--) {
      const gap = group[k]! - group[k - 1]!;
      or |= group[k] = gap < 0 ? gap + mod : gap;
    }
    const width = bitsOf(or);
    this.widths.push(width);
    if (width) for (let k = 1; k < n; k++) this.put(group[k]!, width);
    this.groups++;
    this.n = 0;
  }

  /** Puts `width` bits of `v` after the gaps before it. */
  private put(v: number, width: number): void {
    this.acc |= v << this.used;
    this.used += width;
    if (this.used >= 32) {
      this.used -= 32;
      this.word(this.acc);
      // The gap's bits past the word just filled (none when it ended there).
      this.acc = this.used ? v >>> (width - this.used) : 0;
    }
  }

  private word(v: number): void {
    this.gaps.push(v);
    this.words++;
  }

  /** Ends the gaps' last word, padded with zeros. */
  private pad(): void {
    if (this.used) this.word(this.acc);
    this.acc = 0;
    this.used = 0;
  }

  /** Writes the last group and what is held back. */
  close(): void {
    if (this.n) this.flushGroup();
    this.pad();
    this.pendingBases.flush();
    this.bases.close();
    this.widths.flush();
    this.starts.flush();
    this.gaps.flush();
  }
}

/** `width` bits (1 to 32) at bit `at` of `words`. */
function bitsAt(words: Uint32Array, at: number, width: number): number {
  const w = Math.floor(at / 32);
  const s = at - 32 * w;
  let v = words[w]! >>> s;
  if (s + width > 32) v |= words[w + 1]! << (32 - s);
  return width === 32 ? v >>> 0 : v & ((1 << width) - 1);
}

/**
 * Decodes the ids of entries `e0..e1` into `out[e - e0]` from groups `g0..` (g0 the first of its span): their bases
 * from `bases`, g0's at bit `baseAt`; `widths[g - g0]` a group's width; the gaps from `gaps`, a span's from word `start(s)`.
 */
function decodeGroups(g0: number, e0: number, e1: number, bits: number, bases: Uint32Array, baseAt: number, widths: Uint8Array, start: (s: number) => number, gaps: Uint32Array, out: Uint32Array): void {
  const mod = 2 ** bits;
  for (let g = g0, at = 0; g * GROUP < e1; g++) {
    if (g % SPAN === 0) at = 32 * start(g / SPAN);
    const width = widths[g - g0]!;
    let id = bitsAt(bases, baseAt + (g - g0) * bits, bits);
    const first = g * GROUP;
    if (first >= e0) out[first - e0] = id;
    for (let e = first + 1, last = Math.min(first + GROUP, e1), gap = at; e < last; e++, gap += width) {
      id += width && bitsAt(gaps, gap, width);
      if (id >= mod) id -= mod;
      if (e >= e0) out[e - e0] = id;
    }
    at += (GROUP - 1) * width;
  }
}

/** The grouped ids of a forward file read where they lie (paged). */
export class PagedIds {
  private readonly base: PagedColumn;
  private readonly width: PagedColumn;
  private readonly at: PagedColumn;
  private readonly gaps: PagedColumn;
  private readonly mod: number;
  /** Where each span's gaps start (a word a span, 0.014 KB a page), read on first use. */
  private starts: Uint32Array | undefined;
  /** What `find` copies out of the pages: the bases of a page's groups, the widths of a span up to a group, a group's gap words. */
  private readonly findBases = new Words(64);
  private readonly findWidths = new Uint8Array(SPAN);
  private readonly findGaps = new Words(GROUP + 1);
  /** The span read last, decoded whole (entries read in turn, a page's terms, cost a copy of its columns' bytes a span), and its number. */
  private readonly spanIds = new Uint32Array(GROUP * SPAN);
  private span = -1;
  private readonly spanWidths = new Uint8Array(SPAN);
  private readonly spanBases = new Words(SPAN + 1);
  private readonly spanGaps = new Words(GROUP * SPAN);

  constructor(
    private readonly f: PagedFile,
    private readonly bits: number,
    private readonly entries: number,
  ) {
    this.base = f.column(BASE, 'u32');
    this.width = f.column(WIDTH, 'u8');
    this.at = f.column(AT, 'u32');
    this.gaps = f.column(IDS_GAPS, 'u32');
    this.mod = 2 ** bits;
  }

  /** Whether the columns hold the entries' ids. */
  holds(): boolean {
    const groups = groupsOf(this.entries);
    return this.width.length === groups && this.base.length === wordsFor(groups, this.bits) && this.at.length === Math.ceil(groups / SPAN);
  }

  /** The id of an entry. */
  id(entry: number): number {
    const s = Math.floor(entry / (GROUP * SPAN));
    if (s !== this.span) this.readSpan(s);
    return this.spanIds[entry - s * GROUP * SPAN]!;
  }

  /** Decodes span s's ids, its columns' bytes copied out of their pages first. */
  private readSpan(s: number): void {
    const { f, bits } = this;
    const g0 = s * SPAN;
    const g1 = Math.min(g0 + SPAN, this.width.length);
    const e0 = g0 * GROUP;
    f.copy(this.width, g0, g1, this.spanWidths);
    // Words copied as pairs of 16-bit halves (a page holds whole words).
    const b0 = Math.floor((g0 * bits) / 32);
    const spanBases = this.spanBases.fill(f, this.base, b0, wordsFor(g1, bits));
    this.starts ??= f.all(AT, Uint32Array);
    const w0 = this.starts[s]!;
    const w1 = s + 1 < this.starts.length ? this.starts[s + 1]! : this.gaps.length;
    const spanGaps = this.spanGaps.fill(f, this.gaps, w0, w1);
    decodeGroups(g0, e0, Math.min(g1 * GROUP, this.entries), bits, spanBases, g0 * bits - 32 * b0, this.spanWidths, () => 0, spanGaps, this.spanIds);
    this.span = s;
  }

  /** An id plus a gap, modulo 2^bits. */
  private add(id: number, gap: number): number {
    const v = id + gap;
    return v < this.mod ? v : v - this.mod;
  }

  /** The entry of `termId` among entries `first..end` (a page's, ids ascending), or -1. */
  find(first: number, end: number, termId: number): number {
    if (first >= end) return -1;
    const { f, bits } = this;
    const g0 = Math.floor(first / GROUP);
    const g1 = Math.floor((end - 1) / GROUP);
    // The page's groups' bases, copied out of their pages at once.
    const b0 = Math.floor((g0 * bits) / 32);
    const b1 = wordsFor(g1 + 1, bits);
    const bases = this.findBases.fill(f, this.base, b0, b1);
    const baseAt = -32 * b0;
    // The last group starting in the page whose base is not past the id; else the page's first group.
    let lo = g0 + 1;
    let hi = g1;
    let g = g0;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (bitsAt(bases, baseAt + mid * bits, bits) <= termId) (g = mid), (lo = mid + 1);
      else hi = mid - 1;
    }
    let e = g * GROUP;
    let id = bitsAt(bases, baseAt + g * bits, bits);
    if (e >= first && id >= termId) return id === termId ? e : -1;
    // Where the group's gaps start: its span's start, then the widths of the groups before it in the span.
    const s0 = g - (g % SPAN);
    const widths = this.findWidths;
    f.copy(this.width, s0, g + 1, widths);
    this.starts ??= f.all(AT, Uint32Array);
    let at = 32 * this.starts[s0 / SPAN]!;
    for (let k = 0; k < g - s0; k++) at += (GROUP - 1) * widths[k]!;
    const width = widths[g - s0]!;
    const w0 = Math.floor(at / 32);
    const gaps = this.findGaps.fill(f, this.gaps, w0, Math.min(this.gaps.length, Math.ceil((at + (GROUP - 1) * width) / 32)));
    const last = Math.min(end, e + GROUP);
    for (at -= 32 * w0; ++e < last; at += width) {
      id = this.add(id, width && bitsAt(gaps, at, width));
      if (e >= first && id >= termId) return id === termId ? e : -1;
    }
    return -1;
  }
}

/** Scratch words, and the view of their 16-bit halves PagedFile.copy fills (it copies bytes or halves). */
class Words {
  private u32: Uint32Array;
  private u16: Uint16Array;

  constructor(n: number) {
    this.u32 = new Uint32Array(n);
    this.u16 = new Uint16Array(this.u32.buffer);
  }

  /** Words `from..to` of a column of a paged file, copied out of their pages; valid until the next fill. */
  fill(f: PagedFile, c: PagedColumn, from: number, to: number): Uint32Array {
    if (this.u32.length < to - from) {
      this.u32 = new Uint32Array(2 * (to - from));
      this.u16 = new Uint16Array(this.u32.buffer);
    }
    f.copy(c, 2 * from, 2 * to, this.u16);
    return this.u32;
  }
}

/** The ids of entries `e0..e1` read from a forward file of grouped ids being walked (merge). */
function readGroupedIds(cols: IndexFileColumns, e0: number, e1: number): Uint32Array {
  const out = new Uint32Array(e1 - e0);
  if (e0 >= e1) return out;
  const bits = cols.read('term.bits', Uint8Array, 0, 1)[0]!;
  // From the first group of the span holding e0's: where its gaps start is kept.
  const s0 = Math.floor(e0 / GROUP / SPAN);
  const g0 = s0 * SPAN;
  const g1 = Math.floor((e1 - 1) / GROUP) + 1;
  const b0 = Math.floor((g0 * bits) / 32);
  const bases = cols.read(BASE, Uint32Array, b0, wordsFor(g1, bits));
  const widths = cols.read(WIDTH, Uint8Array, g0, g1);
  const starts = cols.read(AT, Uint32Array, s0, Math.ceil(g1 / SPAN));
  let gapBits = 0;
  for (let g = g0; g < g1; g++) gapBits += (GROUP - 1) * widths[g - g0]! + (g % SPAN === 0 ? 32 : 0);
  const w0 = starts[0]!;
  const words = cols.read(IDS_GAPS, Uint32Array, w0, Math.min(cols.length(IDS_GAPS), w0 + Math.ceil(gapBits / 32)));
  decodeGroups(g0, e0, e1, bits, bases, g0 * bits - 32 * b0, widths, (s) => starts[s - s0]! - w0, words, out);
  return out;
}

/** The ids of entries `e0..e1` of a forward file being walked, whichever layout it has. */
export function readIds(cols: IndexFileColumns, e0: number, e1: number): Uint32Array {
  return cols.has(IDS_GAPS) ? readGroupedIds(cols, e0, e1) : readTermIds(cols, e0, e1);
}
