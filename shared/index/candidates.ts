/**
 * @module shared/index/candidates
 * The candidate stage of a search, over the postings read from disk: the
 * documents holding the most of the query's terms first (all of them, then
 * the best partial matches), and among as many terms the best by a weight a
 * posting is given (the searcher's bound of the score) plus the document's
 * own, up to a limit. The terms' blocks are walked together in document
 * order, a window at a time (up to the nearest block end): a window whose
 * blocks' bounds cannot beat the worst document kept is passed over without
 * being decoded (block-max skipping, as Lucene's and tantivy's top-k
 * collectors do), so a query of common words decodes the blocks that can
 * still rank, not every posting; and a window's documents are walked from
 * the lists one must be in to beat the worst kept (a rare word's, beside a
 * common word's). The documents taken are exactly those an
 * exhaustive pass would take, ties going to the lowest ids.
 */
import { blockBuffers, type DecodedBlock } from './postings-codec.js';
import type { BlockWeights, CandidateOptions, TermBlocks } from './types.js';

export const TAG_FIELDS = ['host', 'site', 'type', 'lang'] as const;
export type TagField = (typeof TAG_FIELDS)[number];
export type Tags = Record<TagField, string>;

/** One term's postings as the candidate stage reads them: its blocks and, optionally, a weight each. */
export interface CandidateList {
  blocks: TermBlocks;
  weights?: BlockWeights;
}

/** What decides between documents, and how the stage fared: the reader's options (types.ts) less those it turns into lists, plus which documents may be taken at all. */
export type CandidateRules = Omit<CandidateOptions, 'limit' | 'tags' | 'weigh'> & { accept?: (id: number) => boolean };

/** The distinct ids of `terms` that the index holds (`termId` −1 for the others). */
export const termIds = (terms: readonly string[], termId: (term: string) => number) => [...new Set(terms.map(termId).filter((t) => t >= 0))];

/** Browsing by tags: the first `limit` documents `accept` takes. */
export function browse(docCount: number, limit: number, accept: (id: number) => boolean): number[] {
  const out: number[] = [];
  for (let id = 0; id < docCount && out.length < limit; id++) if (accept(id)) out.push(id);
  return out;
}

/** A term's place in the walk: its block at hand, decoded or not, and the next posting in it. */
interface Cursor {
  blocks: TermBlocks;
  weights: BlockWeights | undefined;
  block: number;
  /** The block decoded (its postings), or -1. */
  n: number;
  /** Whether the block was decoded with its frequencies, for its weights. */
  tf: boolean;
  pos: number;
  buf: DecodedBlock;
  w: ArrayLike<number> | undefined;
}

/**
 * Up to `limit` documents of the lists that `rules.accept` takes (all when
 * it is not given): by how many lists hold them, most first, then by the sum
 * of their postings' weights and their own, highest first, then by id.
 */
export function selectCandidates(lists: readonly CandidateList[], limit: number, rules: CandidateRules = {}): number[] {
  if (limit <= 0 || !lists.length) return [];
  const { accept, docWeight, stats, byWeight } = rules;
  const priorBound = docWeight ? (rules.docWeightBound ?? (() => Infinity)) : () => 0;
  const scale = rules.docScale;
  // A document's weight: the exhaustive pass's arithmetic, so its ties are these.
  const total = (d: number, sum: number) => (scale && sum > 0 ? scale(d) * sum : sum) + (docWeight ? docWeight(d) : 0);
  const cursors: Cursor[] = lists.map((l) => ({ blocks: l.blocks, weights: l.weights, block: 0, n: -1, tf: false, pos: 0, buf: blockBuffers(), w: undefined }));
  const top = new TopK(limit);
  const inWindow: Cursor[] = [];
  for (let cur = 0; ; ) {
    let end = Infinity;
    for (const c of cursors) {
      const { blocks } = c;
      while (c.block < blocks.blocks && blocks.last[c.block]! < cur) {
        if (c.n < 0 && stats) stats.skipped++;
        c.block++;
        c.n = -1;
        c.w = undefined;
      }
      if (c.block < blocks.blocks) end = Math.min(end, blocks.last[c.block]!);
    }
    if (end === Infinity) break;
    // The lists whose block at hand may hold a document of the window cur..end, and the best any could score.
    inWindow.length = 0;
    let sum = 0;
    let boost = 0;
    for (const c of cursors) {
      const b = c.block;
      if (b >= c.blocks.blocks || (b ? c.blocks.last[b - 1]! + 1 : 0) > end) continue;
      inWindow.push(c);
      sum += c.weights ? c.weights.bound(b) : 0;
      boost = Math.max(boost, c.blocks.maxBoost[b]!);
    }
    // A list's largest weight with own bounds the documents of the window only when each is in every list (by count, as many as the worst kept).
    const own = byWeight && inWindow.length > 1 ? Infinity : boundWithOwn(inWindow, sum, docWeight);
    if (!top.full || (top.beats(byWeight ? 0 : inWindow.length, Math.min(sum + priorBound(boost), own)) && mayHold(inWindow, cur, end, top, byWeight ? priorBound(boost) : undefined, lists.length, stats)))
      collect(inWindow, cur, end, top, { accept, docWeight, stats, byWeight }, total);
    cur = end + 1;
  }
  if (top.full && rules.floor) Object.assign(rules.floor, top.worst());
  return top.sorted();
}

/**
 * A bound of the window's documents' weight by a list whose block's largest
 * posting weight plus own weight is known (`withOwn`): that, plus the other
 * lists' bounds, widened past the rounding of a sum taken in another order;
 * Infinity when no list knows it.
 */
function boundWithOwn(inWindow: Cursor[], sum: number, docWeight: CandidateRules['docWeight']): number {
  let best = Infinity;
  if (!docWeight) return best;
  for (const c of inWindow) {
    const own = c.weights?.withOwn?.[c.block];
    if (own === undefined || Number.isNaN(own)) continue;
    const v = sum - c.weights!.bound(c.block) + own;
    best = Math.min(best, v + (Math.abs(v) + Math.abs(sum)) * 1e-9);
  }
  return best;
}

/** Decodes a cursor's block (its document ids, and frequencies its weights need) unless it is, and moves it to the first document from `cur`. */
function load(c: Cursor, cur: number, stats: CandidateRules['stats']): void {
  if (c.n < 0) {
    // A block whose weights are not known yet is decoded with the frequencies they are worked out from, once.
    c.tf = c.weights?.needsTf?.(c.block) ?? false;
    c.n = c.blocks.decode(c.block, c.buf, c.tf);
    c.pos = 0;
    if (stats) stats.decoded++;
  }
  while (c.pos < c.n && c.buf.docs[c.pos]! < cur) c.pos++;
}

const boundOf = (c: Cursor) => (c.weights ? c.weights.bound(c.block) : 0);

/**
 * Whether the window cur..end of a full `top` may hold a document to keep,
 * told from the lists such a document must be in, their blocks decoded
 * (document ids only) and no other's. By weight (`prior`, the bound of the
 * documents' own): in one of the lists whose bound, with those of all the
 * lists of smaller bounds and the prior, beats the worst kept (MaxScore's
 * essential lists; the window's documents come after every one kept). By
 * count, when the worst kept is in every list: in each list, told from
 * those decoded already.
 */
function mayHold(inWindow: Cursor[], cur: number, end: number, top: TopK, prior: number | undefined, lists: number, stats: CandidateRules['stats']): boolean {
  const holds = (c: Cursor) => (load(c, cur, stats), c.pos < c.n && c.buf.docs[c.pos]! <= end);
  if (prior === undefined) return top.worst().count < lists || inWindow.every((c) => c.n < 0 || holds(c));
  const byBound = [...inWindow].sort((a, b) => boundOf(a) - boundOf(b));
  let rest = prior;
  let k = 0;
  let v = 0;
  // Widened past the rounding of the documents' sums, taken in another order.
  while (k < byBound.length && !top.beats(0, (v = rest + boundOf(byBound[k]!)) + Math.abs(v) * 1e-9)) rest = v, k++;
  return byBound.slice(k).some(holds);
}

/** Every document of the window cur..end in the lists at hand, counted and weighed as the exhaustive pass would, offered to `top`. */
function collect(inWindow: Cursor[], cur: number, end: number, top: TopK, rules: CandidateRules, total: (d: number, sum: number) => number): void {
  const { accept, docWeight, stats, byWeight } = rules;
  for (const c of inWindow) {
    load(c, cur, stats);
    if (c.weights && !c.w) {
      c.w = c.weights.of(c.block, c.tf ? c.buf : undefined);
      const withOwn = c.weights.withOwn;
      if (withOwn && docWeight && Number.isNaN(withOwn[c.block])) {
        let m = -Infinity;
        for (let i = 0; i < c.n; i++) m = Math.max(m, c.w[i]! + docWeight(c.buf.docs[i]!));
        withOwn[c.block] = m;
      }
    }
  }
  if (inWindow.length === 1) return collectOne(inWindow[0]!, end, top, accept, total, byWeight ? 0 : 1);
  // A document is kept only if it is in as many lists as the worst kept: then it is in one of the lists
  // with the fewest postings left, all but that many less one of them, and only theirs are walked.
  const fewest = byWeight || !top.full ? inWindow.length : Math.max(1, inWindow.length - top.worst().count + 1);
  const lead = fewest === inWindow.length ? inWindow : [...inWindow].sort((a, b) => leftIn(a, end) - leftIn(b, end)).slice(0, fewest);
  for (;;) {
    let d = Infinity;
    for (const c of lead) if (c.pos < c.n && c.buf.docs[c.pos]! < d) d = c.buf.docs[c.pos]!;
    if (d > end) return;
    let count = 0;
    // Summed in the lists' order from 0, then the document's own.
    let sum = 0;
    for (const c of inWindow) {
      const { docs } = c.buf;
      while (c.pos < c.n && docs[c.pos]! < d) c.pos++;
      if (c.pos < c.n && docs[c.pos] === d) {
        count++;
        if (c.w) sum += c.w[c.pos]!;
        c.pos++;
      }
    }
    if (accept && !accept(d)) continue;
    top.offer(byWeight ? 0 : count, total(d, sum), d);
  }
}

/** How many postings of a cursor's decoded block are left up to `end`. */
function leftIn(c: Cursor, end: number): number {
  let lo = c.pos;
  let hi = c.n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (c.buf.docs[mid]! <= end) lo = mid + 1;
    else hi = mid;
  }
  return lo - c.pos;
}

/** collect() of a window one list alone may hold documents of (a one-word query's every window): its postings in order, no merge. */
function collectOne(c: Cursor, end: number, top: TopK, accept: CandidateRules['accept'], total: (d: number, sum: number) => number, count: number): void {
  const { docs } = c.buf;
  const w = c.w;
  for (; c.pos < c.n && docs[c.pos]! <= end; c.pos++) {
    const d = docs[c.pos]!;
    if (accept && !accept(d)) continue;
    top.offer(count, total(d, w ? w[c.pos]! : 0), d);
  }
}

/** The best `k` documents offered, by count, then weight, then the lowest id: a heap whose root is the worst kept. */
export class TopK {
  private readonly count: Int32Array;
  private readonly weight: Float64Array;
  private readonly id: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.count = new Int32Array(k);
    this.weight = new Float64Array(k);
    this.id = new Float64Array(k);
  }

  get full(): boolean {
    return this.size === this.k;
  }

  /** Whether a document of `count` and `weight`, offered after every one kept (a higher id), would be kept. */
  beats(count: number, weight: number): boolean {
    return count > this.count[0]! || (count === this.count[0]! && weight > this.weight[0]!);
  }

  /** The worst document kept: its count and weight. */
  worst(): { count: number; weight: number } {
    return { count: this.count[0]!, weight: this.weight[0]! };
  }

  /** i ranks below j. */
  private worse(i: number, j: number): boolean {
    const { count, weight, id } = this;
    return count[i]! < count[j]! || (count[i] === count[j] && (weight[i]! < weight[j]! || (weight[i] === weight[j] && id[i]! > id[j]!)));
  }

  /** Offers documents in ascending id order. */
  offer(count: number, weight: number, id: number): void {
    if (this.size < this.k) {
      let i = this.size++;
      this.set(i, count, weight, id);
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    if (!this.beats(count, weight)) return;
    this.set(0, count, weight, id);
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      if (l >= this.size) return;
      const c = l + 1 < this.size && this.worse(l + 1, l) ? l + 1 : l;
      if (!this.worse(c, i)) return;
      this.swap(i, c);
      i = c;
    }
  }

  private set(i: number, count: number, weight: number, id: number): void {
    this.count[i] = count;
    this.weight[i] = weight;
    this.id[i] = id;
  }

  private swap(i: number, j: number): void {
    const c = this.count[i]!;
    const w = this.weight[i]!;
    const d = this.id[i]!;
    this.set(i, this.count[j]!, this.weight[j]!, this.id[j]!);
    this.set(j, c, w, d);
  }

  /** The documents kept, best first. */
  sorted(): number[] {
    const order = Array.from({ length: this.size }, (_, i) => i);
    order.sort((i, j) => (this.worse(j, i) ? -1 : this.worse(i, j) ? 1 : 0));
    return order.map((i) => this.id[i]!);
  }
}
