/**
 * Counting a query's matches from its terms' postings (shared/index/match-counts)
 * against counting them the plain way, over random lists: documents holding
 * every term and only some, by tag value, with deletions and terms the index
 * lacks, one set of arrays shared by every pass (each must leave them
 * cleared); and the pools taken from the weighed matches against the
 * candidate stage's over the same lists and weights.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { selectCandidates } from '../../../shared/index/candidates.js';
import { COUNTED_TAGS, countMatches, CountScratch, type CountedTag } from '../../../shared/index/match-counts.js';
import type { TermBlocks } from '../../../shared/index/types.js';
import { rng } from '../../fixtures/rng.js';

/** A term's documents in blocks of `size`, held in arrays. */
function blocksOf(docs: number[], size: number): TermBlocks {
  const n = Math.ceil(docs.length / size);
  const part = (b: number) => docs.slice(b * size, (b + 1) * size);
  const last = Uint32Array.from({ length: n }, (_, b) => part(b).at(-1)!);
  return { count: docs.length, blocks: n, last, maxTf: [], minLength: [], maxBoost: new Float64Array(n), decode: (b, out) => (out.docs.set(part(b)), part(b).length), decodePlaces: () => {} };
}

/** Each tag's value of a document: a few values, so most are shared. */
const VALUES: Record<CountedTag, string[]> = { site: ['a', 'b', 'c', 'd'], type: ['text/html', 'text/plain'], lang: ['en', 'de', 'fr'] };

test('counts: every term and only some, by tag value, as counting each document plainly gives them; the shared array cleared after each pass', () => {
  const rnd = rng(5);
  const docCount = 700;
  const scratch = new CountScratch(docCount);
  const columns = Object.fromEntries(COUNTED_TAGS.map((t) => [t, { ids: Uint32Array.from({ length: docCount }, () => Math.floor(rnd() * VALUES[t].length)), values: VALUES[t] }]));
  for (let round = 0; round < 200; round++) {
    const lists = Array.from({ length: Math.floor(rnd() * 4) }, () => {
      const density = rnd() ** 2;
      return Array.from({ length: docCount }, (_, d) => d).filter(() => rnd() < density);
    });
    // A term the index lacks has no list: no document holds every term.
    const terms = lists.length + (round % 5 === 0 ? 1 : 0);
    const deleted = new Set(round % 3 ? [] : Array.from({ length: 40 }, () => Math.floor(rnd() * docCount)));
    const got = countMatches(lists.map((l) => blocksOf(l, 1 + Math.floor(rnd() * 128))), terms, docCount, (t) => columns[t]!, deleted, scratch);
    const holding = new Map<number, number>();
    for (const l of lists) for (const d of l) if (!deleted.has(d)) holding.set(d, (holding.get(d) ?? 0) + 1);
    const want = { full: 0, some: 0, tags: {} as Record<string, { full: number[]; some: number[] }> };
    for (const t of COUNTED_TAGS) want.tags[t] = { full: VALUES[t].map(() => 0), some: VALUES[t].map(() => 0) };
    for (const [d, n] of holding) {
      const kind = n === terms ? 'full' : 'some';
      want[kind]++;
      for (const t of COUNTED_TAGS) want.tags[t]![kind][columns[t]!.ids[d]!]!++;
    }
    assert.equal([got.full, got.some], [want.full, want.some], `round ${round}`);
    for (const t of COUNTED_TAGS) assert.equal({ full: [...got.tags[t].full], some: [...got.tags[t].some] }, want.tags[t], `round ${round}, ${t}`);
    const arrays = scratch.take();
    assert.ok(arrays.held.every((n) => n === 0) && arrays.sum.every((n) => n === 0), `round ${round}: the shared arrays are cleared`);
    scratch.release(0);
  }
});

/** A list's weights as the candidate stage reads them: each block's, its bound their largest. */
function weightsOf(weights: number[], size: number) {
  const part = (b: number) => weights.slice(b * size, (b + 1) * size);
  return { bound: (b: number) => Math.max(...part(b)), of: part, withOwn: new Float64Array(Math.ceil(weights.length / size)).fill(NaN) };
}

test('pools taken from the weighed matches are the candidate stage\'s: by terms held then weight, or weight alone, and the worst taken', () => {
  const rnd = rng(9);
  const most = 6000;
  const scratch = new CountScratch(most);
  const column = () => ({ ids: new Uint32Array(most), values: [''] });
  for (let round = 0; round < 200; round++) {
    // Some passes meet thousands of documents: a pool is then gathered from a sample's estimate of its worst.
    const docCount = round % 4 === 3 ? most : 500;
    const lists = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => {
      const density = round % 8 === 7 ? rnd() ** 4 : rnd();
      const docs = Array.from({ length: docCount }, (_, d) => d).filter(() => rnd() < density);
      // Ties are common: weights from a few values.
      return { docs, weights: docs.map(() => Math.floor(rnd() * 5) / 4) };
    });
    const size = 1 + Math.floor(rnd() * 128);
    const prior = Float64Array.from({ length: docCount }, () => (rnd() < 0.5 ? rnd() : 0));
    const docWeight = (id: number) => prior[id]!;
    const docScale = round % 2 ? (id: number) => ((id * 37) % 10) / 10 : undefined;
    const deleted = new Set(round % 3 ? [] : [3, 50, 77]);
    const weigh = (t: number) => weightsOf(lists[t]!.weights, size);
    const blocks = lists.map((l) => blocksOf(l.docs, size));
    const counts = countMatches(blocks, lists.length, most, column, deleted, scratch, { weights: { weigh, docWeight, docScale }, termIds: lists.map((_, t) => t) });
    try {
      for (const limit of [1, 7, 60, 600, 2500])
        for (const byWeight of [false, true]) {
          const floor = { count: -1, weight: 0 };
          const got = counts.pool ? counts.pool.take(limit, byWeight, floor) : [];
          const wantFloor = { count: -1, weight: 0 };
          const lists2 = blocks.map((b, t) => ({ blocks: b, weights: weigh(t) }));
          const want = selectCandidates(lists2, limit, { accept: (id) => !deleted.has(id), docWeight, docScale, byWeight, floor: wantFloor });
          assert.equal(got, want, `round ${round}, limit ${limit}, byWeight ${byWeight}`);
          assert.equal(floor, wantFloor, `round ${round}, limit ${limit}: the worst taken`);
        }
    } finally {
      counts.pool?.release();
    }
  }
});

test.run();
