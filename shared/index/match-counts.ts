/**
 * @module shared/index/match-counts
 * How many documents hold every one of a query's terms and how many only
 * some, by each value of the site, type and language tags: read from the
 * terms' postings' document ids and the docinfo's tag columns alone, with
 * nothing scored, so a search's totals and facets are exact however many
 * documents match while only the few it shows are ranked. Given the
 * candidate stage's weights, the same pass weighs every match, so a pool of
 * any depth is then taken from it (`MatchPool.take`) as the candidate stage
 * would take it (shared/index/candidates), with no posting read again.
 */
import { blockBuffers } from './postings-codec.js';
import type { CandidateOptions, TermBlocks } from './types.js';

export const COUNTED_TAGS = ['site', 'type', 'lang'] as const;
export type CountedTag = (typeof COUNTED_TAGS)[number];

/** One tag's counts: by value id, the documents holding every term and only some; `values[id]` names the value. */
export interface TagCounts {
  values: readonly string[];
  full: Uint32Array;
  some: Uint32Array;
}

export interface MatchCounts {
  /** Documents holding every term. */
  full: number;
  /** Documents holding some of the terms but not all. */
  some: number;
  tags: Record<CountedTag, TagCounts>;
  /** The matches weighed, when weights were given. */
  pool?: MatchPool;
}

/** The candidate stage's weights (CandidateOptions): each posting's, and the document's own. */
export type MatchWeights = Pick<CandidateOptions, 'weigh' | 'docWeight' | 'docScale'>;

/**
 * Every match of a count with its weight, as the candidate stage weighs it:
 * the best `limit` are taken as selectCandidates takes them (by how many
 * terms a document holds, unless `byWeight`, then by weight, then by id),
 * `floor` set to the worst taken when `limit` were. Read from the reader's
 * shared arrays: valid until `release`, which the count's caller must call
 * before the reader counts again.
 */
export interface MatchPool {
  take(limit: number, byWeight: boolean, floor?: { count: number; weight: number }): number[];
  /** A match's weight. */
  weight(id: number): number;
  release(): void;
}

/** A tag as the docinfo holds it: each document's value id, and the values. */
export interface TagColumn {
  ids: Uint8Array | Uint16Array | Uint32Array;
  values: readonly string[];
}

/**
 * Arrays the size of the index a reader's counting passes share, kept
 * between queries and cleared after each (megabytes a query at a million
 * pages otherwise): how many terms each document holds, the sum of its
 * postings' weights, and the documents met.
 */
export class CountScratch {
  private heldArray: Uint8Array | undefined;
  private sumArray: Float64Array | undefined;
  private metArray: Uint32Array | undefined;
  private busy = false;

  constructor(readonly docCount: number) {}

  /** The arrays for one pass over fewer than 256 lists, zeroed; `release` clears what was set. */
  take(): { held: Uint8Array; sum: Float64Array; met: Uint32Array } {
    if (this.busy) throw new Error('a count was not released before the next');
    this.busy = true;
    this.heldArray ??= new Uint8Array(this.docCount);
    this.sumArray ??= new Float64Array(this.docCount);
    this.metArray ??= new Uint32Array(this.docCount);
    return { held: this.heldArray, sum: this.sumArray, met: this.metArray };
  }

  /** Clears the entries of the `n` documents met. */
  release(n: number): void {
    const { heldArray: held, sumArray: sum, metArray: met } = this;
    if (held && sum && met)
      for (let i = 0; i < n; i++) {
        held[met[i]!] = 0;
        sum[met[i]!] = 0;
      }
    this.busy = false;
  }
}

/**
 * For a query whose words have alternatives (synonyms, word variants), each
 * list's bit set for each of the query's word groups it is an alternative
 * of: a document holds a group when it holds any of its terms. At most
 * MAX_GROUPS groups, so that a document's groups fit the byte `held` keeps.
 */
export type GroupBits = readonly number[];

/** Word groups a count tells apart: a document's groups are a byte. */
export const MAX_GROUPS = 8;

/** The GroupBits of the lists of `termIds` for `groups` (each its terms' ids). */
export function groupBits(termIds: readonly number[], groups: readonly (readonly number[])[]): GroupBits {
  if (groups.length > MAX_GROUPS) throw new Error(`a count of ${groups.length} word groups: at most ${MAX_GROUPS}`);
  return termIds.map((id) => groups.reduce((bits, g, k) => (g.includes(id) ? bits | (1 << k) : bits), 0));
}

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, v) => {
  let c = 0;
  for (let b = v; b; b &= b - 1) c++;
  return c;
});

/**
 * Counts the documents of `lists` (one a term, `terms` of them: a term
 * missing from the index has no list, and no document holds every term)
 * among `docCount`, but for the `deleted`. One pass over the postings
 * notes the documents met and how many terms each holds; then each
 * document met is counted once, by its tags. With `weights`
 * (and `termIds`, the lists' terms) every match is weighed too (`pool`),
 * its postings' weights summed in the lists' order as the candidate stage
 * sums them; `stats` counts the blocks decoded. With `groups` (GroupBits,
 * `terms` then counting the groups), a match holds as many words as groups
 * it holds a term of: an OR of the lists within a group, an AND across.
 */
export function countMatches(lists: readonly TermBlocks[], terms: number, docCount: number, column: (tag: CountedTag) => TagColumn, deleted: ReadonlySet<number>, scratch = new CountScratch(docCount), weighing?: { weights: MatchWeights; termIds: readonly number[]; stats?: { decoded: number; skipped: number } }, groups?: GroupBits): MatchCounts {
  const cols = COUNTED_TAGS.map(column);
  const shared = lists.length < 256;
  const { held, sum, met } = shared ? scratch.take() : { held: new Uint16Array(docCount), sum: new Float64Array(docCount), met: new Uint32Array(docCount) };
  const weigh = weighing?.weights.weigh;
  const skip = deleted.size > 0;
  let n = 0;
  let released = false;
  const release = () => {
    if (!released && shared) scratch.release(n);
    released = true;
  };
  const buf = blockBuffers();
  try {
    for (let l = 0; l < lists.length; l++) {
      const list = lists[l]!;
      const weights = weigh?.(weighing!.termIds[l]!);
      const bit = groups?.[l] ?? 0;
      for (let b = 0; b < list.blocks; b++) {
        // A block whose weights are not known yet is decoded once, with the frequencies they are worked out from.
        const tf = weights?.needsTf?.(b) ?? false;
        const m = list.decode(b, buf, tf);
        if (weighing?.stats) weighing.stats.decoded++;
        const { docs } = buf;
        const w = weights?.of(b, tf ? buf : undefined);
        for (let i = 0; i < m; i++) {
          const d = docs[i]!;
          if (skip && deleted.has(d)) continue;
          if (w) sum[d] += w[i]!;
          if (bit) {
            if (held[d] === 0) met[n++] = d;
            held[d] |= bit;
          } else if (held[d]++ === 0) met[n++] = d;
        }
      }
    }
  } catch (e) {
    release();
    throw e;
  }
  // The groups a document holds a word of, from their bits.
  if (groups) for (let i = 0; i < n; i++) held[met[i]!] = POPCOUNT[held[met[i]!]!]!;
  const counts = tally(held, met, n, terms, cols);
  if (!weighing || n === 0) {
    release();
    return counts;
  }
  return { ...counts, pool: weighedPool(held, sum, met, n, lists.length, weighing.weights, release) };
}

/** The documents met (`met`, `n` of them) counted by how many of the `terms` each holds (`held`), and by each tag's value. */
function tally(held: ArrayLike<number>, met: Uint32Array, n: number, terms: number, cols: TagColumn[]): Omit<MatchCounts, 'pool'> {
  const [site, type, lang] = cols.map((c) => c.ids) as [TagColumn['ids'], TagColumn['ids'], TagColumn['ids']];
  const [fullSite, fullType, fullLang] = cols.map((c) => new Uint32Array(c.values.length)) as [Uint32Array, Uint32Array, Uint32Array];
  const [someSite, someType, someLang] = cols.map((c) => new Uint32Array(c.values.length)) as [Uint32Array, Uint32Array, Uint32Array];
  let full = 0;
  for (let i = 0; i < n; i++) {
    const d = met[i]!;
    if (held[d] === terms) {
      full++;
      fullSite[site[d]!]!++;
      fullType[type[d]!]!++;
      fullLang[lang[d]!]!++;
    } else {
      someSite[site[d]!]!++;
      someType[type[d]!]!++;
      someLang[lang[d]!]!++;
    }
  }
  const tag = (k: number, full: Uint32Array, some: Uint32Array): TagCounts => ({ values: cols[k]!.values, full, some });
  return { full, some: n - full, tags: { site: tag(0, fullSite, someSite), type: tag(1, fullType, someType), lang: tag(2, fullLang, someLang) } };
}

/** The matches of a count (`met`, `n` of them) with their weights: the candidate stage's arithmetic, in ascending id order as it offers them. */
function weighedPool(held: ArrayLike<number>, sum: Float64Array, met: Uint32Array, n: number, lists: number, weights: MatchWeights, release: () => void): MatchPool {
  // One list's documents are met in id order; several lists' are sorted, or found in one walk over the ids when most documents match.
  if (lists > 1) {
    if (n * 16 > held.length) {
      let k = 0;
      for (let d = 0; d < held.length; d++) if (held[d]) met[k++] = d;
    } else met.subarray(0, n).sort();
  }
  const { docWeight, docScale } = weights;
  for (let i = 0; i < n; i++) {
    const d = met[i]!;
    const s = sum[d]!;
    sum[d] = (docScale && s > 0 ? docScale(d) * s : s) + (docWeight ? docWeight(d) : 0);
  }
  return {
    take(limit, byWeight, floor) {
      const taken = bestOf(met, n, byWeight ? undefined : held, sum, limit);
      if (n >= limit && limit > 0 && floor) {
        const worst = taken[limit - 1]!;
        Object.assign(floor, { count: byWeight ? 0 : held[worst]!, weight: sum[worst]! });
      }
      return taken;
    },
    weight: (id) => sum[id]!,
    release,
  };
}

/** Matches a sample is drawn from, every so many: about this many in it. */
const SAMPLE = 512;

/**
 * The best `limit` of the matches `met` (`n`, ascending ids), best first:
 * by `held` (how many terms a document holds, when counted), then weight,
 * then the lowest id, as TopK keeps them. Those from a sample's estimate of
 * the worst taken up are gathered in one pass and sorted; an estimate that
 * gathers too few is lowered. A heap fed every match cost a tenth of a
 * query of common words.
 */
function bestOf(met: Uint32Array, n: number, held: ArrayLike<number> | undefined, sum: Float64Array, limit: number): number[] {
  if (limit <= 0) return [];
  const count = (d: number) => (held ? held[d]! : 0);
  const order = (a: number, b: number) => count(b) - count(a) || sum[b]! - sum[a]! || a - b;
  if (n <= limit) return Array.from(met.subarray(0, n)).sort(order);
  const step = Math.max(1, Math.floor(n / SAMPLE));
  const sample: number[] = [];
  for (let i = 0; i < n; i += step) sample.push(met[i]!);
  sample.sort(order);
  // A quarter more than the share of the sample the limit is, so that one pass gathers enough.
  let r = Math.min(sample.length - 1, Math.ceil(((limit * sample.length) / n) * 1.25));
  for (;;) {
    const t = sample[r]!;
    const tc = count(t);
    const tw = sum[t]!;
    const gathered: number[] = [];
    for (let i = 0; i < n; i++) {
      const d = met[i]!;
      const c = count(d);
      if (c > tc || (c === tc && sum[d]! >= tw)) gathered.push(d);
    }
    if (gathered.length >= limit) return gathered.sort(order).slice(0, limit);
    if (r === sample.length - 1) return Array.from(met.subarray(0, n)).sort(order).slice(0, limit);
    r = Math.min(sample.length - 1, 2 * r + 1);
  }
}
