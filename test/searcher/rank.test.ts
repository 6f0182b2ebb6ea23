/** Ranking arithmetic: BM25F, proximity and the link prior, checked against hand-computed values. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Field } from '../../shared/index/types.js';
import { bm25f, bm25fTerm, idf, type Bm25fParams, type DocStats, type TermStats } from '../../searcher/rank/bm25f.js';
import { closeness, minDistance, pairedWords, proximity, queryWords, unionPositions } from '../../searcher/rank/proximity.js';
import { combiner, linkPrior } from '../../searcher/rank/score.js';
import { hasPhrase } from '../../searcher/query/match.js';

const P: Bm25fParams = {
  k1: 2,
  fields: { title: { weight: 3, b: 0.5 }, anchor: { weight: 2, b: 0.5 }, url: { weight: 2, b: 0.5 }, heading: { weight: 2, b: 0.5 }, content: { weight: 1, b: 0.75 } },
};
const stats: TermStats = { docCount: 100, avgFieldLength: () => 10, docFreq: (t) => (t === 'rare' ? 1 : 50) };
const doc = (tf: Partial<Record<Field, number>>, len: Partial<Record<Field, number>> = {}): DocStats => ({
  termFreq: (f) => tf[f] ?? 0,
  fieldLength: (f) => len[f] ?? 10,
});
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);

test('idf is positive and falls with document frequency', () => {
  close(idf(100, 1), Math.log(1 + 99.5 / 1.5));
  assert.ok(idf(100, 100) > 0);
  assert.ok(idf(100, 1) > idf(100, 50));
});

test('one field at average length: idf·tf·(k1+1)/(tf+k1)', () => {
  const s = bm25fTerm('rare', doc({ content: 2 }), stats, P);
  close(s.tf, 2);
  close(s.score, (idf(100, 1) * 2 * 3) / (2 + 2));
});

test('fields are weighted and summed before one saturation', () => {
  const s = bm25fTerm('rare', doc({ content: 1, title: 1 }), stats, P);
  close(s.tf, 1 + 3);
  close(s.score, (idf(100, 1) * 4 * 3) / (4 + 2));
  // Saturation: the same words in two fields score less than twice one field.
  assert.ok(s.score < 2 * bm25fTerm('rare', doc({ title: 1 }), stats, P).score);
});

test('longer fields normalise tf down', () => {
  const short = bm25fTerm('rare', doc({ content: 1 }, { content: 5 }), stats, P).score;
  const long = bm25fTerm('rare', doc({ content: 1 }, { content: 40 }), stats, P).score;
  assert.ok(short > long);
});

test('the fast sum equals the explained terms', () => {
  const d = doc({ content: 3, anchor: 1 });
  const terms = ['rare', 'common'];
  const idfs = terms.map((t) => idf(100, stats.docFreq(t)));
  close(bm25f(terms, idfs, d, stats, P), terms.reduce((s, t) => s + bm25fTerm(t, d, stats, P).score, 0));
});

const DIST: [a: number[], b: number[], d: number][] = [
  [[3], [4], 1],
  [[4], [3], 2],
  [[0, 10], [5, 11], 1],
  [[1], [9], 8],
  [[], [1], Infinity],
];
for (const [a, b, d] of DIST) test(`minDistance ${JSON.stringify(a)} ${JSON.stringify(b)} = ${d}`, () => assert.is(minDistance(a, b, 100), d));

test('the scan is bounded by maxPositions', () => {
  assert.is(minDistance([0, 1000], [1001], 1), 1001);
  assert.is(minDistance([0, 1000], [1001], 2), 1);
});

test('proximity: adjacent pairs earn weight × min idf, far ones nothing', () => {
  const p = { weight: 0.5, window: 8, maxPositions: 100 };
  assert.is(closeness(1, 8), 1);
  assert.is(closeness(9, 8), 0);
  const near = proximity(['a', 'b'], [[5], [6]], [2, 3], p);
  close(near.bonus, 0.5 * 2);
  assert.is(proximity(['a', 'b'], [[5], [60]], [2, 3], p).bonus, 0);
  assert.is(proximity(['a'], [[5]], [2], p).pairs.length, 0);
  assert.is(proximity(['a', 'b'], [[5], [6]], [2, 3], { ...p, weight: 0 }).bonus, 0);
});

test('proximity reads only the words beside a word that may have positions', () => {
  assert.equal(pairedWords([true]), [false], 'one word makes no pair');
  assert.equal(pairedWords([true, false]), [false, false], 'a partial match of one word of two');
  assert.equal(pairedWords([true, true, false]), [true, true, false]);
  assert.equal(pairedWords([true, false, true]), [false, false, false], 'pairs are of neighbours only');
  assert.equal(pairedWords([false, true, true, true]), [false, true, true, true]);
  // The bonus is the same with the lists of the words left out emptied, on any pattern of empty lists.
  const p = { weight: 0.5, window: 8, maxPositions: 100 };
  const lists = [[3, 40], [5], [9, 41], [1]];
  for (let mask = 0; mask < 16; mask++) {
    const positions = lists.map((l, w) => ((mask >> w) & 1 ? l : []));
    const read = pairedWords(positions.map((l) => l.length > 0));
    const full = proximity(['a', 'b', 'c', 'd'], positions, [1, 2, 3, 4], p);
    const kept = proximity(['a', 'b', 'c', 'd'], positions.map((l, w) => (read[w] ? l : [])), [1, 2, 3, 4], p);
    assert.equal(kept, full, `mask ${mask}`);
  }
});

// Terms 0 `how`, then a word with synonyms: 1 `vacat` | 2 `annual` 3 `leav` | 4 `holidai`, then 5 `dai`.
const VACATION = [[[1], [2, 3], [4]]];
const COMBINE: [name: string, scores: number[], groups: number[][][], total: number][] = [
  ['no synonyms: the sum', [1, 2, 3], [], 6],
  ['one alternative matches', [1, 0, 0, 0, 2, 3], VACATION, 6],
  ['every alternative matches: only the best counts', [1, 0, 1, 1, 1.5, 3], VACATION, 6],
  ['a phrase alternative adds its words', [0, 0, 1, 1.5, 2, 0], VACATION, 2.5],
  ['no alternative matches', [1, 0, 0, 0, 0, 3], VACATION, 4],
];
for (const [name, scores, groups, total] of COMBINE) test(`combine term scores: ${name}`, () => close(combiner(scores.length, groups)(scores), total));

test('proximity pairs query words: the alternatives of a word are one word', () => {
  assert.equal(queryWords(3, []), [[0], [1], [2]]);
  assert.equal(queryWords(6, VACATION), [[0], [1, 2, 3, 4], [5]]);
  assert.equal(unionPositions([[3, 9], [1, 9, 12]], 3), [1, 3, 9]);
  assert.equal(unionPositions([[3, 9]], 1), [3, 9], 'one list as it is (the scan bounds it)');
  assert.equal(unionPositions([[2, 4, 6, 8], [1, 4, 8], [], [4, 5]], 10), [1, 2, 4, 5, 6, 8], 'each position once');
  assert.equal(unionPositions([[2, 4, 6, 8], [1, 4, 8], [4, 5]], 4), [1, 2, 4, 5]);
  assert.equal(unionPositions([[], []], 4), []);
});

test('link prior is small and saturating', () => {
  assert.is(linkPrior(0, 0.5), 0);
  close(linkPrior(1, 0.5), 0.25);
  assert.ok(linkPrior(1000, 0.5) < 0.5);
  assert.is(linkPrior(Number.NaN, 0.5), 0);
  assert.is(linkPrior(-3, 0.5), 0);
});

const PHRASES: [name: string, positions: number[][], opts: Parameters<typeof hasPhrase>[1], ok: boolean][] = [
  ['adjacent in order', [[1, 7], [2]], {}, true],
  ['reversed', [[2], [1]], {}, false],
  ['gap', [[1], [3]], {}, false],
  ['three words', [[4], [5], [6]], {}, true],
  ['straddling the title end', [[1], [2]], { boundary: 2 }, false],
  ['inside the title', [[0], [1]], { limit: 2 }, true],
  ['past the title', [[3], [4]], { limit: 2 }, false],
];
for (const [name, positions, opts, ok] of PHRASES) test(`phrase: ${name}`, () => assert.is(hasPhrase(positions, opts), ok));

test.run();
