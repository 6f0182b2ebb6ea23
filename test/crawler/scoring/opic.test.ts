import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { opicScoring, scoringOpic } from '../../../crawler/scoring/opic.js';
import { Conf } from '../../../shared/conf.js';

const FROM = 'http://127.0.4.1/';
const base = { internal: 1, external: 1, countFiltered: false, spendCash: true };

test('cash is split evenly among the kept outlinks and spent by the source', () => {
  const m = opicScoring(base).distributeScoreToOutlinks(FROM, 1, ['http://127.0.4.1/a', 'http://127.0.4.1/b', 'http://127.0.4.2/c', 'http://127.0.4.2/d'], 10);
  assert.equal(Object.fromEntries(m), {
    'http://127.0.4.1/a': 0.25, 'http://127.0.4.1/b': 0.25, 'http://127.0.4.2/c': 0.25, 'http://127.0.4.2/d': 0.25, [FROM]: -1,
  });
});

test('db.score.count.filtered divides by every outlink found; internal and external factors apply', () => {
  const m = opicScoring({ ...base, countFiltered: true, internal: 0.5, external: 2 }).distributeScoreToOutlinks(FROM, 1, ['http://127.0.4.1/a', 'http://127.0.4.2/b'], 4);
  assert.is(m.get('http://127.0.4.1/a'), 0.125);
  assert.is(m.get('http://127.0.4.2/b'), 0.5);
});

test('equal internal and external factors apply to every outlink, whatever its host', () => {
  const m = opicScoring({ ...base, internal: 0.5, external: 0.5 }).distributeScoreToOutlinks(FROM, 1, ['http://127.0.4.1/a', 'http://127.0.4.2/b', 'mailto:x@y'], 3);
  assert.equal(Object.fromEntries(m), { 'http://127.0.4.1/a': 0.5 / 3, 'http://127.0.4.2/b': 0.5 / 3, 'mailto:x@y': 0.5 / 3, [FROM]: -1 });
});

test("Nutch's behaviour with spend.cash=false: the source keeps its cash", () => {
  const m = opicScoring({ ...base, spendCash: false }).distributeScoreToOutlinks(FROM, 2, ['http://127.0.4.1/a'], 1);
  assert.equal(Object.fromEntries(m), { 'http://127.0.4.1/a': 2 });
});

test('nothing to distribute without outlinks or without cash', () => {
  const o = opicScoring(base);
  assert.is(o.distributeScoreToOutlinks(FROM, 1, [], 3).size, 0);
  assert.is(o.distributeScoreToOutlinks(FROM, 0, ['http://127.0.4.1/a'], 1).size, 0);
});

test('updateDbScore adds the batch cash to the old score, never below 0; new pages start at 0', () => {
  const o = opicScoring(base);
  assert.is(o.updateDbScore('u', 1, [0.25, 0.5]), 1.75);
  assert.is(o.updateDbScore('u', undefined, [0.5]), 0.5);
  assert.is(o.updateDbScore('u', 1, [-1.5]), 0);
  assert.is(o.initialScore('u'), 0);
  assert.is(o.generatorSortValue('u', 3), 3);
});

test('cash is conserved along a chain of fetches', () => {
  // a → b, c ; then b → c. With spending, the total never grows.
  const o = opicScoring(base);
  const score = new Map([['a', 1], ['b', 0], ['c', 0]]);
  const fetch = (from: string, to: string[]) => {
    for (const [u, cash] of o.distributeScoreToOutlinks(from, score.get(from)!, to, to.length)) score.set(u, o.updateDbScore(u, score.get(u), [cash]));
  };
  fetch('a', ['b', 'c']);
  fetch('b', ['c']);
  assert.equal(Object.fromEntries(score), { a: 0, b: 0, c: 1 });
});

test('the index boost is the link score, 1 before link scores exist', () => {
  const o = opicScoring(base);
  assert.is(o.indexerScore('u', 5, 2.5), 2.5);
  assert.is(o.indexerScore('u', 5, 0), 1);
});

test('the descriptor reads its properties', () => {
  const o = scoringOpic.create(Conf.load().with({ 'scoring.opic.spend.cash': 'false' }))!;
  assert.is(o.distributeScoreToOutlinks(FROM, 1, ['http://127.0.4.1/a'], 1).has(FROM), false);
});

test.run();
