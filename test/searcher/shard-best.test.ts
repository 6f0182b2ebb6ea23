/**
 * Which of a shard's matches get their bonuses in the one call of a query:
 * every hit among the best `depth` over all shards must be among them, at
 * its rank over all shards or better, whether partial matches join the
 * ranking over all shards or not, for tables of shards' matches and for
 * seeded random ones.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rankByBase } from '../../searcher/search.js';
import { bestOfShard } from '../../searcher/shard/query.js';

type H = { id: number; score: number; site: string; full: boolean; shard: number };

/** Shards' matches as [score, full] lists; ids in shard order, as the broker numbers them. */
function hits(shards: [number, boolean][][]): H[][] {
  let id = 0;
  return shards.map((list, shard) => list.map(([score, full]) => ({ id: id++, score, site: 's', full, shard })));
}

/** Each hit of the best `depth` over all shards is among its shard's best, at its rank or better. */
function check(shards: H[][], partialBelow: number, depth: number, what: string) {
  const all = shards.flat();
  const global = rankByBase(
    all.filter((h) => h.full),
    all.filter((h) => !h.full),
    partialBelow,
  ).ranked.slice(0, depth);
  const best = shards.map((list) => bestOfShard(list.filter((h) => h.full), list.filter((h) => !h.full), partialBelow, depth).best);
  global.forEach((h, rank) => {
    const mine = best[h.shard]!.get(h);
    assert.ok(mine !== undefined && mine <= rank, `${what}: hit ${h.id} of shard ${h.shard} at rank ${rank} over all, ${mine} in its shard`);
  });
}

const CASES: { what: string; shards: [number, boolean][][]; partialBelow: number; depth: number }[] = [
  { what: 'full matches only', shards: [[[9, true], [5, true], [1, true]], [[8, true], [7, true], [6, true]]], partialBelow: 0, depth: 3 },
  { what: 'partials join over all shards and here', shards: [[[9, false], [5, true]], [[8, false], [7, true]]], partialBelow: 10, depth: 2 },
  {
    what: 'partials join here but not over all shards: the lone full match of shard 0 is second over all',
    shards: [[[9, false], [8, false], [7, false], [5, true]], [[2, true], [1.5, true], [1, true]]],
    partialBelow: 3,
    depth: 2,
  },
  { what: 'ties broken by the order the broker numbers hits in', shards: [[[3, true], [3, true], [3, true]], [[3, true], [3, true]]], partialBelow: 0, depth: 2 },
];

test('the hits among the best over all shards are among their shard\'s best: cases', () => {
  for (const c of CASES) check(hits(c.shards), c.partialBelow, c.depth, c.what);
});

test('the same over seeded random shards, with and without partial matches joining', () => {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let round = 0; round < 300; round++) {
    const shards = Array.from({ length: 1 + Math.floor(rand() * 4) }, () =>
      Array.from({ length: Math.floor(rand() * 30) }, (): [number, boolean] => [Math.round(rand() * 20) / 2, rand() < 0.5]),
    );
    check(hits(shards), Math.floor(rand() * 25), 1 + Math.floor(rand() * 12), `round ${round}`);
  }
});

test.run();
