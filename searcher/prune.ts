/**
 * @module searcher/prune
 * Ranking a query's matches without scoring every one (MaxScore over the
 * index's own postings). Each posting of a query's terms has its term's score at
 * idf 1 in its document worked out, a block at a time, when its block is first
 * asked for, and kept (`unitScores`), so a match's upper bound is a few
 * multiplications (Scorer.bound), and a block's bound needs none of its
 * postings decoded (the candidate stage skips by it). A query reads each
 * term's scores at its matches' postings, found when their entries were
 * (DocTerms.locate). Matches are scored in full in the order of their
 * bounds until the ones scored above
 * every remaining bound decide the page: the proximity block, the page, and
 * what grouping by site reads from the rest of the list (which sites have
 * more, how many hits it hides). The rest keep their bounds as scores and an
 * arbitrary order below; nothing shown depends on them. The result is the
 * exhaustive ranking's, hit for hit and score for score (test/searcher/prune.test.ts).
 */
import { FIELDS, type IndexReader, type TermBlocks } from '../shared/index/types.js';
import { Bm25fQuery } from './rank/bm25f.js';
import type { RankParams } from './rank/params.js';
import { readerStats } from './rank/score.js';
import { BLOCK, blockBuffers, type DecodedBlock } from '../shared/index/postings-codec.js';
import { Lru } from '../shared/index/lru.js';

const F = FIELDS.length;

/**
 * Each posting's term score at idf 1 in its document, by the term's blocks
 * (`reader.postingBlocks`): a block's are worked out when a query first
 * needs them and kept, the most recently used terms', per index and ranking
 * parameters. A block's bound is the largest of them once they are known,
 * else the score of its largest frequency in each field at its shortest
 * length there (BM25F rises with the one and falls with the other).
 */
export interface UnitScores {
  /** A term's: looked up once for all the blocks a query asks of it. */
  term(termId: number): TermUnitScores;
}

/** One term's unit scores (UnitScores). */
export interface TermUnitScores {
  /** Block `b`'s postings' unit scores, in its order; from `decoded` (the block with its frequencies) when given and they are not known. */
  block(b: number, decoded?: DecodedBlock): Float32Array;
  /** Whether block `b`'s unit scores are known (block() decodes it otherwise). */
  known(b: number): boolean;
  /** The unit score of the posting at a place in the list (`block * BLOCK + place`, as DocTerms.postingAt gives it); 0 at -1 (no posting). */
  at(place: number): number;
  /** At least every unit score of block `b`. */
  bound(b: number): number;
  /** Per block, room for the candidate stage's largest weight at `weight` plus prior (BlockWeights.withOwn), kept for the last `weight` asked. */
  withOwn(weight: number): Float64Array;
}

/** A term's unit scores: a block's at `b * BLOCK`, `done[b]` once worked out; `bounds[b]`, NaN until asked. */
interface TermUnits {
  units: Float32Array;
  done: Uint8Array;
  bounds: Float32Array;
  withOwn?: { weight: number; max: Float64Array };
}

const units = new WeakMap<IndexReader, { params: RankParams; units: UnitScores }>();

/**
 * The unit scores of an index and ranking parameters, by the rank module's
 * own BM25F (rounded up to a float32): a block's are computed from its
 * postings' frequencies and its documents' field lengths in one pass.
 */
export function unitScores(reader: IndexReader, params: RankParams): UnitScores {
  const known = units.get(reader);
  if (known?.params === params) return known.units;
  const query = new Bm25fQuery([1], readerStats(reader, params), params.bm25f.k1, params.bm25f.fields);
  let shares: Float64Array | undefined;
  // The commonest terms' stay, within the reader's budget for them.
  const kept = new Lru<number, TermUnits>(reader.cacheBudget.units, (u) => u.units.byteLength + u.bounds.byteLength + u.done.byteLength);
  const buf = blockBuffers();
  const termUnits = (termId: number, blocks: TermBlocks): TermUnits => {
    const known = termId >= 0 ? kept.get(termId) : undefined;
    if (known) return known;
    const u = { units: new Float32Array(blocks.count), done: new Uint8Array(blocks.blocks), bounds: new Float32Array(blocks.blocks).fill(NaN) };
    return termId >= 0 ? kept.set(termId, u) : u;
  };
  const compute = (blocks: TermBlocks, u: TermUnits, b: number, decoded?: DecodedBlock): void => {
    // One occurrence's weighted share in each field of each document (8 bytes a document and field), made once.
    if (!shares) {
      shares = new Float64Array(reader.meta.docCount * F);
      const lengths = reader.fieldLengths();
      for (let i = 0; i < shares.length; i++) shares[i] = query.unitTf(i % F, lengths[i]!);
    }
    const share = shares;
    const d = decoded ?? buf;
    const n = decoded ? decoded.n : blocks.decode(b, buf);
    const { docs, tf } = d;
    const at0 = b * BLOCK;
    // The five fields' columns held at hand, summed in field order: a million-page list's scores are worked
    // out again whenever they leave the cache, a fifth of a query there.
    const [t0, t1, t2, t3, t4] = tf as [Uint16Array, Uint16Array, Uint16Array, Uint16Array, Uint16Array];
    const { units } = u;
    for (let i = 0; i < n; i++) {
      const at = docs[i]! * F;
      const w = t0[i]! * share[at]! + t1[i]! * share[at + 1]! + t2[i]! * share[at + 2]! + t3[i]! * share[at + 3]! + t4[i]! * share[at + 4]!;
      // float32 keeps about 7 digits, and the shares are rounded otherwise than the scorer's sum: scaled up past both, the stored score stays a bound.
      units[at0 + i] = query.termScore(0, w) * (1 + 1e-6);
    }
    u.done[b] = 1;
    u.bounds[b] = NaN;
  };
  const made: UnitScores = {
    term(termId) {
      const blocks = reader.postingBlocks(termId);
      const u = termUnits(termId, blocks);
      return {
        block(b, decoded) {
          if (!u.done[b]) compute(blocks, u, b, decoded);
          return u.units.subarray(b * BLOCK, Math.min(u.units.length, (b + 1) * BLOCK));
        },
        known: (b) => u.done[b] === 1,
        at(place) {
          if (place < 0) return 0;
          const b = Math.floor(place / BLOCK);
          if (!u.done[b]) compute(blocks, u, b);
          return u.units[place]!;
        },
        bound(b) {
          if (!Number.isNaN(u.bounds[b])) return u.bounds[b]!;
          if (u.done[b]) {
            let m = 0;
            for (let i = b * BLOCK, end = Math.min(u.units.length, i + BLOCK); i < end; i++) m = Math.max(m, u.units[i]!);
            return (u.bounds[b] = m);
          }
          const { maxTf, minLength } = blocks;
          let w = 0;
          for (let f = 0; f < F; f++) if (maxTf[f]![b]) w += maxTf[f]![b]! * query.unitTf(f, minLength[f]![b]!);
          // Above the unit scores' own margin and their rounding to a float32 (stored rounded up past it).
          return (u.bounds[b] = query.termScore(0, w) * (1 + 1e-5));
        },
        withOwn(weight) {
          if (u.withOwn?.weight !== weight) u.withOwn = { weight, max: new Float64Array(u.done.length).fill(NaN) };
          return u.withOwn.max;
        },
      };
    },
  };
  units.set(reader, { params, units: made });
  return made;
}

/** The matches as pruning sees them, one index a match. */
export interface Pool {
  /** Upper bound of each match's score. */
  bound: Float64Array;
  /** Document ids: equal scores rank by id. */
  id: ArrayLike<number>;
  /** Each match's site, as an index below `sites`. */
  site: Int32Array;
  sites: number;
}

export interface PageNeeds {
  /** Hits from the top that must be exact whatever grouping does: the proximity block, the page. */
  top: number;
  hitsPerSite: number;
  /** Hits grouping never hides (groupBySite's keepTop). */
  keepTop: number;
  /** At least the score of every match left out of the pool; the pool holds every match when not given. */
  outside?: number;
  /** Whether an exact prefix (matches scoring above every other, in no order) decides what is shown; by the pool alone (`decided`) when not given. */
  decide?: (exact: readonly number[], scores: Float64Array) => boolean;
}

/**
 * The matches ranked as the exhaustive ranking would rank them, as far as
 * anything shown depends on it: scores `score(i)` in the order of the bounds
 * (a heap: only those scored are ordered), and stops when the exact prefix
 * (matches scoring above every bound left, in the pool and outside it)
 * decides what `needs` says. Returns the ranking as match indexes, each
 * match's score (its bound when not scored), how many were scored, and
 * whether it was decided: never, when matches left out of the pool may
 * still count and scoring the whole pool did not decide.
 */
export function rankPruned(pool: Pool, score: (i: number) => number, needs: PageNeeds): { order: number[]; scores: Float64Array; scored: number; decided: boolean } {
  const { bound, id } = pool;
  const n = bound.length;
  const outside = needs.outside ?? -Infinity;
  const scores = Float64Array.from(bound);
  const grouped = needs.hitsPerSite > 0 && pool.sites > 1;
  const top = Math.min(n, grouped ? Math.max(needs.top, needs.keepTop) : needs.top);
  const decide = needs.decide ?? ((exact: readonly number[]) => exact.length >= top && decided(pool, exact, inExact, grouped, needs.hitsPerSite));
  const heap = new BoundHeap(bound);
  const scored: number[] = [];
  const inExact = new Uint8Array(n);
  const byScore = (a: number, b: number) => scores[b]! - scores[a]! || id[a]! - id[b]!;
  let next = top;
  while (heap.size > 0) {
    const i = heap.pop();
    scores[i] = score(i);
    scored.push(i);
    if (scored.length < next && heap.size > 0) continue;
    const rest = Math.max(outside, heap.size > 0 ? bound[heap.peek()]! : -Infinity);
    const exact = scored.filter((j) => scores[j]! > rest);
    for (const j of exact) inExact[j] = 1;
    if (decide(exact, scores)) {
      exact.sort(byScore);
      for (let j = 0; j < n; j++) if (!inExact[j]) exact.push(j);
      return { order: exact, scores, scored: scored.length, decided: true };
    }
    inExact.fill(0);
    // Checked again once a quarter more are scored: the checks cost O(n) each.
    next = Math.max(scored.length + 1, Math.ceil(scored.length * 1.25));
  }
  const order = Array.from({ length: n }, (_, j) => j).sort(byScore);
  return { order, scores, scored: n, decided: needs.outside === undefined };
}

/**
 * Whether the matches below the exact prefix change nothing shown: every
 * site has a match in the prefix (a facet names its site by its best hit)
 * and, when grouping, every site with matches below has `hitsPerSite` in the
 * prefix, so that each match below is hidden whichever order they come in.
 */
function decided(pool: Pool, exact: readonly number[], inExact: Uint8Array, grouped: boolean, hitsPerSite: number): boolean {
  if (exact.length === inExact.length) return true;
  const inPrefix = new Int32Array(pool.sites);
  let present = 0;
  for (const j of exact) if (inPrefix[pool.site[j]!]!++ === 0) present++;
  if (present < pool.sites) return false;
  if (!grouped) return true;
  for (let j = 0; j < inExact.length; j++) if (!inExact[j] && inPrefix[pool.site[j]!]! < hitsPerSite) return false;
  return true;
}

/** Match indexes by bound, highest first (ties in any order). */
class BoundHeap {
  private readonly a: Int32Array;
  size: number;

  constructor(private readonly key: Float64Array) {
    this.size = key.length;
    this.a = new Int32Array(key.length);
    for (let i = 0; i < key.length; i++) this.a[i] = i;
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.down(i);
  }

  peek(): number {
    return this.a[0]!;
  }

  pop(): number {
    const top = this.a[0]!;
    this.a[0] = this.a[--this.size]!;
    this.down(0);
    return top;
  }

  private down(i: number): void {
    const { a, key } = this;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) return;
      const c = l + 1 < this.size && key[a[l + 1]!]! > key[a[l]!]! ? l + 1 : l;
      if (key[a[c]!]! <= key[a[i]!]!) return;
      const t = a[i]!;
      a[i] = a[c]!;
      a[c] = t;
      i = c;
    }
  }
}
