/**
 * The candidate stage's rule (shared/index/candidates), as a table and
 * against an exhaustive pass over random lists: block-max skipping, and the
 * lists a window's documents are walked from, take what every posting
 * counted and weighed would.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { selectCandidates } from '../../../shared/index/candidates.js';
import { blockBuffers, type DecodedBlock } from '../../../shared/index/postings-codec.js';
import type { TermBlocks } from '../../../shared/index/types.js';
import { rng } from '../../fixtures/rng.js';

/** A term's blocks of `size` postings held in arrays, with `boosts[doc]` the documents' link scores. */
function blocksOf(docs: number[], size: number, boosts: ArrayLike<number> = []): TermBlocks {
  const n = Math.ceil(docs.length / size);
  const part = (b: number) => docs.slice(b * size, (b + 1) * size);
  return {
    count: docs.length,
    blocks: n,
    last: Uint32Array.from({ length: n }, (_, b) => part(b).at(-1)!),
    maxTf: [],
    minLength: [],
    maxBoost: Float64Array.from({ length: n }, (_, b) => Math.max(0, ...part(b).map((d) => boosts[d] ?? 0))),
    decode: (b, out) => (out.docs.set(part(b)), part(b).length),
    decodePlaces: () => {},
  };
}

/** A list for selectCandidates, in blocks of `size`, each block's bound its largest weight (or `loose` above it). */
function listOf(docs: number[], weights?: number[], size = 2, boosts?: ArrayLike<number>, loose = 0) {
  const blocks = blocksOf(docs, size, boosts);
  if (!weights) return { blocks };
  const part = (b: number) => weights.slice(b * size, (b + 1) * size);
  return { blocks, weights: { bound: (b: number) => Math.max(...part(b)) + loose, of: part, withOwn: new Float64Array(blocks.blocks).fill(NaN) } };
}

/** The candidate stage's rule, the plain way: every posting counted and weighed, then sorted. */
function exhaustive(lists: { docs: number[]; weights?: number[] }[], limit: number, accept?: (id: number) => boolean, docWeight?: (id: number) => number, opts: { byWeight?: boolean; docScale?: (id: number) => number } = {}): number[] {
  const { byWeight, docScale } = opts;
  const count = new Map<number, number>();
  const sum = new Map<number, number>();
  for (const { docs, weights } of lists)
    docs.forEach((d, i) => {
      count.set(d, byWeight ? 0 : (count.get(d) ?? 0) + 1);
      sum.set(d, (sum.get(d) ?? 0) + (weights ? weights[i]! : 0));
    });
  const scaled = (d: number) => (docScale && sum.get(d)! > 0 ? docScale(d) * sum.get(d)! : sum.get(d)!);
  const key = (d: number) => scaled(d) + (docWeight ? docWeight(d) : 0);
  return [...count.keys()]
    .filter((d) => !accept || accept(d))
    .sort((a, b) => count.get(b)! - count.get(a)! || key(b) - key(a) || a - b)
    .slice(0, limit);
}

test('candidates: the most terms first, then the highest weights, then the lowest ids; only what accept takes', () => {
  const cases: [string, { docs: number[]; weights?: number[] }[], number, ((id: number) => boolean) | undefined, number[]][] = [
    ['one list under the limit: all', [{ docs: [3, 5, 9] }], 10, undefined, [3, 5, 9]],
    ['one list over the limit, no weights: lowest ids', [{ docs: [3, 5, 9] }], 2, undefined, [3, 5]],
    ['one list over the limit: highest weights', [{ docs: [3, 5, 9], weights: [1, 3, 2] }], 2, undefined, [5, 9]],
    ['both terms before either', [{ docs: [1, 2, 7] }, { docs: [2, 4, 7] }], 2, undefined, [2, 7]],
    ['then the partial matches of the highest weights', [{ docs: [1, 2, 7], weights: [5, 0, 0] }, { docs: [2, 4, 7], weights: [0, 9, 0] }], 3, undefined, [2, 7, 4]],
    ['accept filters', [{ docs: [1, 2, 7] }, { docs: [2, 4, 7] }], 10, (id) => id !== 2, [7, 1, 4]],
    ['no lists: none', [], 10, undefined, []],
  ];
  for (const [name, lists, limit, accept, want] of cases) {
    const got = selectCandidates(lists.map((l) => listOf(l.docs, l.weights)), limit, { accept });
    assert.equal(got.slice().sort((a, b) => a - b), want.slice().sort((a, b) => a - b), name);
  }
  const weighed = selectCandidates([listOf([3, 5, 9], [1, 3, 2])], 2, { docWeight: (id) => (id === 3 ? 5 : 0), docWeightBound: () => 5 });
  assert.equal(weighed.sort(), [3, 5], "a document's own weight counts too");
});

test('candidates: block-max skipping takes exactly what an exhaustive pass takes, and passes over blocks that cannot rank', () => {
  const rnd = rng(11);
  let skipped = 0;
  let decoded = 0;
  for (let round = 0; round < 300; round++) {
    const docCount = 20 + Math.floor(rnd() * 400);
    const boosts = Float64Array.from({ length: docCount }, () => (rnd() < 0.3 ? rnd() * 4 : 0));
    const terms = 1 + Math.floor(rnd() * 3);
    const lists = Array.from({ length: terms }, () => {
      const density = rnd();
      const docs = Array.from({ length: docCount }, (_, d) => d).filter(() => rnd() < density);
      // Ties are common: weights from a few values.
      return { docs, weights: docs.map(() => Math.floor(rnd() * 5) / 4) };
    });
    const limit = 1 + Math.floor(rnd() * 40);
    const accept = round % 3 ? undefined : (id: number) => id % 7 !== 0;
    const prior = round % 2 ? (id: number) => boosts[id]! / 2 : undefined;
    const stats = { decoded: 0, skipped: 0 };
    const size = 1 + Math.floor(rnd() * 8);
    const blockLists = lists.map((l) => listOf(l.docs, l.weights, size, boosts, round % 5 ? 0 : 0.25));
    // By weight alone (MaxScore's essential lists), and with a factor of each document's own on its postings' sum.
    const byWeight = round % 4 === 1;
    const docScale = round % 3 === 2 ? (id: number) => ((id * 37) % 10) / 10 : undefined;
    const want = exhaustive(lists, limit, accept, prior, { byWeight, docScale });
    // Twice: the second time with the largest weight plus prior of each block the first decoded (withOwn).
    for (const pass of [1, 2]) assert.equal(selectCandidates(blockLists, limit, { accept, docWeight: prior, docWeightBound: (b) => b / 2, stats, byWeight, docScale }), want, `round ${round}, pass ${pass}`);
    skipped += stats.skipped;
    decoded += stats.decoded;
  }
  assert.ok(skipped > decoded / 10, `${skipped} blocks passed over, ${decoded} decoded`);
});

test('candidates: once the pool is full, a window walks only the lists a document must be in to rank, and takes what an exhaustive pass takes', () => {
  // Every document in a common term's list, every tenth in a rare one's: with the pool full of documents holding both, the rare list leads.
  const common = Array.from({ length: 1000 }, (_, d) => d);
  const rare = common.filter((d) => d % 10 === 3);
  let asked = 0;
  const accept = () => (asked++, true);
  const lists = [{ docs: common, weights: common.map((d) => (d * 7) % 5) }, { docs: rare, weights: rare.map((d) => (d * 3) % 4) }];
  assert.equal(selectCandidates(lists.map((l) => listOf(l.docs, l.weights, 8)), 5, { accept }), exhaustive(lists, 5));
  assert.ok(asked < 250, `${asked} documents offered of ${common.length}`);
  // Up to five lists, the worst kept holding any number of them.
  const rnd = rng(23);
  for (let round = 0; round < 300; round++) {
    const docCount = 50 + Math.floor(rnd() * 400);
    const terms = 2 + Math.floor(rnd() * 4);
    const ls = Array.from({ length: terms }, () => {
      const density = rnd() < 0.5 ? rnd() * 0.2 : rnd();
      const docs = Array.from({ length: docCount }, (_, d) => d).filter(() => rnd() < density);
      return { docs, weights: docs.map(() => Math.floor(rnd() * 5) / 4) };
    });
    const limit = 1 + Math.floor(rnd() * 60);
    const accept = round % 3 ? undefined : (id: number) => id % 7 !== 0;
    const byWeight = round % 5 === 4;
    const size = 1 + Math.floor(rnd() * 16);
    assert.equal(selectCandidates(ls.map((l) => listOf(l.docs, l.weights, size)), limit, { accept, byWeight }), exhaustive(ls, limit, accept, undefined, { byWeight }), `round ${round}`);
  }
});

test('candidates: a block whose weights need its frequencies is decoded once, with them', () => {
  const docs = Array.from({ length: 40 }, (_, d) => d * 3);
  const tfOf = (d: number) => 1 + (d % 4);
  const blocks = blocksOf(docs, 8);
  const asked: string[] = [];
  const counted: TermBlocks = {
    ...blocks,
    decode: (b, out, withTf) => {
      asked.push(`${b}${withTf ? ' with frequencies' : ''}`);
      const n = blocks.decode(b, out, withTf);
      for (let i = 0; i < n; i++) out.tf[0]![i] = withTf ? tfOf(out.docs[i]!) : 0;
      return (out.n = n);
    },
  };
  const weights = {
    bound: () => 4,
    needsTf: () => true,
    // Worked out from the frequencies: decoded again here when the caller did not give them.
    of: (b: number, decoded?: DecodedBlock) => {
      const block = decoded ?? blockBuffers();
      const n = decoded ? decoded.n : counted.decode(b, block, true);
      return Array.from(block.tf[0]!.subarray(0, n));
    },
  };
  const got = selectCandidates([{ blocks: counted, weights }], 5);
  assert.equal(got, exhaustive([{ docs, weights: docs.map(tfOf) }], 5));
  assert.ok(asked.length > 0);
  assert.equal(asked, [...new Set(asked.map((a) => `${parseInt(a)} with frequencies`))], 'each block decoded once, with its frequencies');
});

test.run();
