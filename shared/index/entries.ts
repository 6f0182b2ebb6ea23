/**
 * @module shared/index/entries
 * A document's terms in the form an index stores them: each distinct term
 * once, with its frequency in each field and its positions in the
 * title+content stream as delta varints (the bytes of the positions file),
 * and, for a page of two sections or more that indexer.max.tokens cut, the
 * sections it occurs in (a page indexed whole has them in its positions).
 * The writer spills documents in this form; the indexer builds it from the
 * analyzed token streams, merge reads it straight out of a segment index, so
 * a merge neither rebuilds token streams nor decodes and re-encodes positions.
 */
import { runsFromPositions } from './section-runs.js';
import { TF_MAX } from './tf-codes.js';
import { FIELDS } from './types.js';

/** Field indexes in FIELDS. */
const TITLE = FIELDS.indexOf('title');
const ANCHOR = FIELDS.indexOf('anchor');
const URL = FIELDS.indexOf('url');
const HEADING = FIELDS.indexOf('heading');
const CONTENT = FIELDS.indexOf('content');
const NF = FIELDS.length;
const NO_SECTIONS = new Uint32Array(0);
const NO_BYTES = new Uint8Array(0);
const NO_IDS = new Uint32Array(0);
/** Frequencies are stored in 16 bits. */

export interface DocEntries {
  /** Term ids, each once, in any order. */
  terms: Uint32Array;
  /** Frequency of entry k in field f (FIELDS order) at `f * terms.length + k`, at most TF_MAX. */
  tf: Uint16Array;
  /** Where entry k's positions end in `posData` (they start where entry k − 1's end). */
  posEnd: Uint32Array;
  /** Each entry's positions in the title+content stream, ascending, as LEB128 varints of the gaps from 0. */
  posData: Uint8Array;
  /** Field lengths in terms, FIELDS order. */
  lengths: Uint32Array;
  /** Each section's length in terms over the whole content (past the cap too); empty below two sections. */
  sections: Uint32Array;
  /** Where entry k's section run ends in `secData` (it starts where entry k − 1's ends). */
  secEnd: Uint32Array;
  /**
   * Each entry's sections, ascending, as LEB128 varint pairs: the gap from the previous section (from 0), the count there.
   * Empty for a page whose runs follow from its positions (section-runs).
   */
  secData: Uint8Array;
}

/** A document's terms as token streams of term ids: title and content in order, the other fields in any order. */
export interface TermStreams {
  title: ArrayLike<number>;
  anchor: ArrayLike<number>;
  content: ArrayLike<number>;
  url: ArrayLike<number>;
  heading: ArrayLike<number>;
  /** Content terms past the cap: counted in sections only. */
  rest?: ArrayLike<number>;
  /** Section lengths over content and rest (at least two), as AnalyzedFields.sections. */
  sections?: ArrayLike<number>;
}

/** Appends `v` to `bytes` at `b` as a LEB128 varint; returns where it ends. */
export function putVarint(bytes: Uint8Array, b: number, v: number): number {
  for (; ; v >>>= 7) {
    if (v <= 0x7f) {
      bytes[b++] = v;
      return b;
    }
    bytes[b++] = (v & 0x7f) | 0x80;
  }
}

/**
 * Builds DocEntries from token streams in scratch arrays reused from one
 * document to the next: what `build` returns is valid until it is called again.
 */
export class EntryBuilder {
  /** The entry of each term id in the document at hand, -1 when none (reset after each document). */
  private slot = new Int32Array(1024).fill(-1);
  private terms = new Uint32Array(1024);
  /** Field-major counts: field f, entry k at f * terms.length + k (zero between documents). */
  private counts = new Uint32Array(1024 * NF);
  private cursor = new Uint32Array(1024);
  /** The entry of each token of the title+content stream, in order (`see` finds them; the positions reuse them). */
  private entryAt = new Uint32Array(1024);
  private pos = new Uint32Array(1024);
  private bytes = new Uint8Array(4096);
  private tf = new Uint16Array(1024 * NF);
  private readonly lengths = new Uint32Array(NF);
  /** Section runs: each entry's open section and count there, its runs (then where they end), the closed runs as (entry, section, count). */
  private runSec = new Int32Array(1024);
  private runTf = new Uint32Array(1024);
  private runEnd = new Uint32Array(1024);
  private closed = new Uint32Array(3 * 1024);
  private bucket = new Uint32Array(1024);
  private secBytes = new Uint8Array(4096);
  private zeros = new Uint32Array(1024);
  /** Entries so far in the document at hand. */
  private n = 0;

  build(s: TermStreams): DocEntries {
    this.n = 0;
    const total = s.title.length + s.anchor.length + s.content.length + s.url.length + s.heading.length;
    if (this.terms.length < total) {
      this.terms = new Uint32Array(2 * total);
      this.counts = new Uint32Array(2 * total * NF);
      this.cursor = new Uint32Array(2 * total);
    }
    const streamLength = s.title.length + s.content.length;
    if (this.entryAt.length < streamLength) this.entryAt = new Uint32Array(2 * streamLength);
    this.see(s.title, TITLE, 0);
    this.see(s.anchor, ANCHOR);
    this.see(s.content, CONTENT, s.title.length);
    this.see(s.url, URL);
    this.see(s.heading, HEADING);
    const { n, terms, counts } = this;
    const stride = terms.length;

    const secEnd = this.sectionRuns(s, n);
    // Positions: bucket the stream by entry (counting sort), then delta-encode each bucket.
    if (this.pos.length < streamLength) this.pos = new Uint32Array(2 * streamLength);
    if (this.bytes.length < 5 * streamLength) this.bytes = new Uint8Array(10 * streamLength);
    const { cursor, pos, bytes, slot, entryAt } = this;
    let next = 0;
    for (let k = 0; k < n; k++) {
      cursor[k] = next;
      next += counts[TITLE * stride + k]! + counts[CONTENT * stride + k]!;
    }
    for (let i = 0; i < streamLength; i++) pos[cursor[entryAt[i]!]!++] = i;
    // cursor[k] is now where entry k's positions end in `pos`; there it is where its bytes end.
    let b = 0;
    let from = 0;
    for (let k = 0; k < n; k++) {
      const to = cursor[k]!;
      let prev = 0;
      for (let j = from; j < to; j++) {
        b = putVarint(bytes, b, pos[j]! - prev);
        prev = pos[j]!;
      }
      from = to;
      cursor[k] = b;
      slot[terms[k]!] = -1;
    }

    if (this.tf.length < NF * n) this.tf = new Uint16Array(2 * NF * n);
    const { lengths } = this;
    lengths[TITLE] = s.title.length;
    lengths[ANCHOR] = s.anchor.length;
    lengths[URL] = s.url.length;
    lengths[HEADING] = s.heading.length;
    lengths[CONTENT] = s.content.length;
    const tf = this.tf.subarray(0, NF * n);
    for (let f = 0; f < NF; f++) {
      const c = counts.subarray(f * stride, f * stride + n);
      // A field of no more terms than TF_MAX has no count past it: copied in one native call.
      if (lengths[f]! <= TF_MAX) tf.set(c, f * n);
      else for (let k = 0; k < n; k++) tf[f * n + k] = Math.min(c[k]!, TF_MAX);
      c.fill(0);
    }
    return {
      terms: terms.subarray(0, n),
      tf,
      posEnd: cursor.subarray(0, n),
      posData: bytes.subarray(0, b),
      lengths,
      sections: s.sections && secEnd ? Uint32Array.from(s.sections) : NO_SECTIONS,
      secEnd: secEnd ?? this.noRuns(n),
      secData: secEnd ? this.secBytes.subarray(0, n ? secEnd[n - 1] : 0) : NO_BYTES,
    };
  }

  /**
   * Each entry's sections and its count in each, for a page of two sections
   * or more: the content and the rest walked in order, an entry's count in a
   * section closed when it next occurs in another (or at the end), the
   * closed counts bucketed by entry (counting sort, so each entry's stay in
   * section order) and delta-encoded. Needs `slot` of the build at hand.
   */
  private sectionRuns(s: TermStreams, n: number): Uint32Array | undefined {
    if (!s.sections || s.sections.length < 2) return undefined;
    // A page indexed whole has its runs in its positions: none to count.
    if (runsFromPositions(s.sections, s.content.length)) return this.noRuns(n);
    const rest = s.rest ?? NO_IDS;
    const total = s.content.length + rest.length;
    if (this.runSec.length < n) (this.runSec = new Int32Array(2 * n)), (this.runTf = new Uint32Array(2 * n)), (this.runEnd = new Uint32Array(2 * n));
    if (this.closed.length < 3 * total) this.closed = new Uint32Array(6 * total);
    const { runSec, runTf, runEnd, closed, slot } = this;
    runSec.fill(-1, 0, n);
    runEnd.fill(0, 0, n);
    let c = 0;
    const close = (k: number) => {
      closed[c++] = k;
      closed[c++] = runSec[k]!;
      closed[c++] = runTf[k]!;
      runEnd[k]!++;
    };
    let sec = 0;
    let secEnds = s.sections[0]!;
    for (let i = 0; i < total; i++) {
      while (i >= secEnds && sec + 1 < s.sections.length) secEnds += s.sections[++sec]!;
      const t = i < s.content.length ? s.content[i]! : rest[i - s.content.length]!;
      // A term past the cap that the capped text lacks has no entry: no page-level evidence to add to.
      const k = t < slot.length ? slot[t]! : -1;
      if (k < 0) continue;
      if (runSec[k] === sec) runTf[k]!++;
      else {
        if (runSec[k]! >= 0) close(k);
        runSec[k] = sec;
        runTf[k] = 1;
      }
    }
    for (let k = 0; k < n; k++) if (runSec[k]! >= 0) close(k);
    // runEnd[k]: entry k's runs, then where they end in the bucketed order.
    for (let k = 1; k < n; k++) runEnd[k]! += runEnd[k - 1]!;
    const runs = c / 3;
    if (this.bucket.length < runs) this.bucket = new Uint32Array(2 * runs);
    const bucket = this.bucket;
    for (let r = runs - 1; r >= 0; r--) bucket[--runEnd[closed[3 * r]!]!] = r;
    if (this.secBytes.length < 10 * runs) this.secBytes = new Uint8Array(20 * runs);
    const bytes = this.secBytes;
    let b = 0;
    for (let k = 0, r = 0; k < n; k++) {
      const to = k + 1 < n ? runEnd[k + 1]! : runs;
      let prev = 0;
      for (; r < to; r++) {
        const at = 3 * bucket[r]!;
        b = putVarint(bytes, b, closed[at + 1]! - prev);
        b = putVarint(bytes, b, closed[at + 2]!);
        prev = closed[at + 1]!;
      }
      runEnd[k] = b;
    }
    return runEnd.subarray(0, n);
  }

  /** n zeros: the section runs of a page without sections. */
  private noRuns(n: number): Uint32Array {
    if (this.zeros.length < n) this.zeros = new Uint32Array(2 * n);
    return this.zeros.subarray(0, n);
  }

  /**
   * Counts a field's terms, giving each term new to the document the next entry; `stream`: where the
   * field's tokens start in the title+content stream, whose entries are kept (`entryAt`), so the
   * positions need not look each token's term up again in `slot`, a likely cache miss once the index's
   * vocabulary outgrows the processor's caches.
   */
  private see(a: ArrayLike<number>, f: number, stream = -1): void {
    const { terms, counts, entryAt } = this;
    const at = f * terms.length;
    let n = this.n;
    for (let i = 0; i < a.length; i++) {
      const t = a[i]!;
      if (t >= this.slot.length) this.growSlots(t);
      let k = this.slot[t]!;
      if (k < 0) {
        k = this.slot[t] = n;
        terms[n++] = t;
      }
      counts[at + k]++;
      if (stream >= 0) entryAt[stream + i] = k;
    }
    this.n = n;
  }

  private growSlots(t: number): void {
    const grown = new Int32Array(Math.max(t + 1, 2 * this.slot.length)).fill(-1);
    grown.set(this.slot);
    this.slot = grown;
  }
}
