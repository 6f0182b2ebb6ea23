/**
 * A document's entries in dictionary order (RankSort): the ranks ascending
 * and each one's entry, for documents of a few entries (an insertion sort)
 * and of many (radix passes of up to 11 bits: one, two or three of them, or
 * none when they come in order already), one
 * sorter used for documents of every size in turn, as the forward writer uses it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RankSort } from '../../../shared/index/rank-sort.js';
import { termBits } from '../../../shared/index/term-ids.js';
import { rng } from '../../fixtures/rng.js';

/** A permutation of `size` ranks: term t's rank. */
function ranks(size: number, rnd: () => number): Uint32Array {
  const rank = Uint32Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [rank[i], rank[j]] = [rank[j]!, rank[i]!];
  }
  return rank;
}

/** `n` distinct terms of a dictionary of `size`, in the order a page gives them. */
function terms(n: number, size: number, rnd: () => number): Uint32Array {
  const seen = new Set<number>();
  while (seen.size < n) seen.add(Math.floor(rnd() * size));
  return Uint32Array.from(seen);
}

test('rank sort: ranks ascending and each one\'s entry, at every size of document and dictionary', () => {
  const rnd = rng(5);
  // [the dictionary's size, the documents' entries in turn]
  const cases: [number, number[]][] = [
    [1, [0, 1, 0]],
    [2, [2, 1]],
    [100, [63, 64, 5, 100, 65]],
    [512, [512, 400, 1]],
    [513, [513, 300]],
    [141_540, [1500, 10, 64, 3000, 63, 700]],
    [2049, [2049, 100]],
    [524_289, [2000, 40, 128]],
    [(1 << 22) + 1, [1500, 70]],
  ];
  for (const [size, docs] of cases) {
    const rankOf = ranks(size, rnd);
    const sorter = new RankSort(termBits(size));
    for (const n of docs) {
      const doc = terms(n, size, rnd);
      const { sorted, order } = sorter.sort(doc, rankOf);
      const label = `${n} entries of ${size} terms`;
      assert.equal([...sorted], [...doc].map((t) => rankOf[t]!).sort((a, b) => a - b), label);
      assert.equal(Array.from({ length: n }, (_, j) => rankOf[doc[order[j]!]!]!), [...sorted], label);
      // The same entries with their ranks ascending already (as merge adds them): as they are.
      const inOrder = Uint32Array.from([...doc].sort((a, b) => rankOf[a]! - rankOf[b]!));
      const again = sorter.sort(inOrder, rankOf);
      assert.equal([...again.sorted], [...sorted], `${label}, in order`);
      assert.equal([...again.order.subarray(0, n)], Array.from({ length: n }, (_, j) => j), `${label}, in order`);
    }
  }
});

test.run();
