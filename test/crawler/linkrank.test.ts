import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { linkScores, pageRank, withinSites } from '../../crawler/linkrank.js';
import { rng } from '../fixtures/rng.js';

const O = { damping: 0.85, tolerance: 1e-12, maxIterations: 1000 };
const close = (a: number, b: number, msg?: string) => assert.ok(Math.abs(a - b) < 1e-9, msg ?? `${a} ≉ ${b}`);
const sum = (r: Float64Array) => r.reduce((s, x) => s + x, 0);

test('a 3-cycle is uniform, and a self-link or a duplicate edge changes nothing', () => {
  const r = pageRank(3, [0, 1, 2, 0, 0], [1, 2, 0, 0, 1], O);
  for (const x of r.ranks) close(x, 1 / 3);
  assert.ok(r.iterations < 1000);
});

test('duplicate edges count once, wherever they fall in the list', () => {
  const once = pageRank(3, [0, 0, 1, 2], [1, 2, 0, 0], O);
  for (const [src, dst] of [
    [[0, 0, 0, 1, 2], [1, 1, 2, 0, 0]],
    [[1, 0, 2, 0, 1, 0], [0, 1, 0, 2, 0, 1]],
  ] as const) {
    const r = pageRank(3, src, dst, O);
    for (let i = 0; i < 3; i++) close(r.ranks[i]!, once.ranks[i]!);
  }
});

test('a star: k leaves pointing at a dangling centre', () => {
  // leaf l = (1-d)/n + d·c/n, centre c = l + d·k·l  ⇒  l = (1-d) / (n − d − d²k)
  const k = 3;
  const n = k + 1;
  const d = O.damping;
  const r = pageRank(n, [1, 2, 3], [0, 0, 0], O);
  const leaf = (1 - d) / (n - d - d * d * k);
  close(r.ranks[1]!, leaf);
  close(r.ranks[0]!, leaf * (1 + d * k));
  close(sum(r.ranks), 1);
});

test('a dangling node spreads its rank over all pages', () => {
  // a → b, b dangling: a = (1-d)/(2 − d − d²), b = a(1 + d)
  const d = O.damping;
  const r = pageRank(2, [0], [1], O);
  const a = (1 - d) / (2 - d - d * d);
  close(r.ranks[0]!, a);
  close(r.ranks[1]!, a * (1 + d));
});

test('no edges: uniform; no nodes: empty; max iterations bounds the work', () => {
  const r = pageRank(4, [], [], O);
  for (const x of r.ranks) close(x, 0.25);
  assert.is(pageRank(0, [], [], O).ranks.length, 0);
  const capped = pageRank(3, [0, 0], [1, 2], { ...O, maxIterations: 2 });
  assert.is(capped.iterations, 2);
  assert.ok(capped.delta > 0);
});

test('link scores over more links than the edge arrays start with: every link counted, scores as pageRank gives them', () => {
  const r = rng(11);
  const edges = Array.from({ length: 5000 }, () => [Math.floor(r() * 200), Math.floor(r() * 200)] as const);
  const got = linkScores(200, edges, O);
  assert.is(got.links, 5000);
  const want = pageRank(200, edges.map(([s]) => s), edges.map(([, t]) => t), O);
  for (let i = 0; i < 200; i++) assert.is(got.scores[i], want.ranks[i]! * 200, `page ${i}`);
  close(sum(got.scores) / 200, 1, 'mean 1');
});

test.run();

test('within sites: each score over the mean of its site as the index holds it, one copy of a content, the best scored', () => {
  const cases: { name: string; scores: number[]; sites: [string, string | null][]; want: number[] }[] = [
    { name: 'two sites, each to a mean of 1', scores: [2, 4, 1, 3], sites: [['a', 's1'], ['a', 's2'], ['b', 's3'], ['b', 's4']], want: [2 / 3, 4 / 3, 0.5, 1.5] },
    { name: 'a copy of a content counts once, at its best score', scores: [4, 1, 2], sites: [['a', 'x'], ['a', 'x'], ['a', 'y']], want: [4 / 3, 1 / 3, 2 / 3] },
    { name: 'pages not fetched set no mean but are scaled with their site', scores: [2, 6, 1], sites: [['a', 'x'], ['a', null], ['a', 'y']], want: [4 / 3, 4, 2 / 3] },
    { name: 'a site with no fetched page, or only pages of score 0, keeps its scores', scores: [3, 0, 5], sites: [['a', null], ['b', 'z'], ['c', null]], want: [3, 0, 5] },
  ];
  for (const c of cases) {
    const got = withinSites(new Float64Array(c.scores), c.sites);
    c.want.forEach((w, i) => close(got[i]!, w, `${c.name}: page ${i} ${got[i]} ≠ ${w}`));
  }
  assert.throws(() => withinSites(new Float64Array([1, 2]), [['a', 'x']]), /2 pages numbered but 1 sites read/);
});
