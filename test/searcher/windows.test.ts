/**
 * Long pages kept honest: past the body window a body's length counts in
 * full (its words at the window's share), the average body length is taken
 * over bodies cut at the window, and a long page also scores as its opening
 * window and half way to its best window. Tables of cases for each rule,
 * then a real index in a temp dir with a small window: the page that holds
 * the query's words together passes the one that scatters them, and
 * /explain's factors add up.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';
import { openIndex, type LoadedIndex } from '../../shared/index/reader.js';
import type { IndexInputDoc } from '../../shared/index/types.js';
import { IndexWriter } from '../../shared/index/writer.js';
import { lengthNorm } from '../../searcher/rank/bm25f.js';
import type { RankParams } from '../../searcher/rank/params.js';
import { bodyPivot } from '../../searcher/rank/pivot.js';
import { makeScorer, readerStats } from '../../searcher/rank/score.js';
import { bestRun, mergeOccurrences, WINDOW_SHARE, windowText } from '../../searcher/rank/windows.js';
import { explainPage } from '../../searcher/http/docpages.js';
import { searchSettings } from '../../searcher/settings.js';

test('lengthNorm: as BM25 up to the window, then in proportion to the length', () => {
  const cases: [length: number, avg: number, b: number, window: number, want: number][] = [
    [100, 100, 0.75, Infinity, 1],
    [400, 100, 0.75, Infinity, 3.25],
    [400, 100, 0.75, 400, 3.25], // at the window: unchanged
    [800, 100, 0.75, 400, 6.5], // twice the window: twice the norm at the window
    [4000, 100, 0.75, 400, 32.5],
    [4000, 100, 0, 400, 10], // b = 0 inside the window, yet ten windows' worth of text
    [50, 100, 0.75, 400, 0.625],
  ];
  for (const [length, avg, b, window, want] of cases) assert.ok(Math.abs(lengthNorm(length, avg, b, window) - want) < 1e-12, `${length}/${avg} b ${b} window ${window}: ${lengthNorm(length, avg, b, window)}, want ${want}`);
});

test('mergeOccurrences: the terms\' positions in body order, the title\'s left out', () => {
  const cases: [lists: number[][], title: number, at: number[], term: number[]][] = [
    [[[0, 5, 9], [3, 9]], 2, [1, 3, 7, 7], [1, 0, 0, 1]],
    [[[], [4]], 0, [4], [1]],
    [[[0, 1]], 2, [], []],
  ];
  for (const [lists, title, at, term] of cases) {
    const m = mergeOccurrences(lists, title);
    assert.equal([...m.at], at, JSON.stringify(lists));
    assert.equal([...m.term], term, JSON.stringify(lists));
  }
});

test('bestRun: the opening window and the window holding the most, by the score given', () => {
  // Scored by how many distinct terms a window holds, then by occurrences: "every word together" wins.
  const distinct = (c: Float64Array) => c.filter((n) => n > 0).length * 1000 + c.reduce((s, n) => s + n, 0);
  const cases: [name: string, at: number[], term: number[], window: number, opening: number, start: number, counts: number[]][] = [
    ['together late', [5, 50, 51, 52], [0, 0, 1, 2], 10, 1001, 50, [1, 1, 1]],
    ['scattered', [0, 40, 80], [0, 1, 2], 10, 1001, 0, [1, 0, 0]],
    ['all in the opening: the opening is the best', [1, 2, 3, 90], [0, 1, 2, 0], 10, 3003, 0, [1, 1, 1]],
    ['equal positions counted once each', [7, 7, 7], [0, 1, 1], 5, 0, 7, [1, 2]],
  ];
  for (const [name, at, term, window, opening, start, counts] of cases) {
    const r = bestRun({ at, term }, counts.length, window, distinct)!;
    assert.is(r.opening, opening, `${name}: opening`);
    assert.is(r.start, start, `${name}: start`);
    assert.equal([...r.counts], counts, `${name}: counts`);
  }
  assert.is(bestRun({ at: [], term: [] }, 2, 10, distinct), undefined, 'no occurrence, no window');
});

test('windowText: the best of the page, its opening and half way to its best window', () => {
  const cases: [page: number, opening: number, best: number, want: number][] = [
    [10, 4, 6, 10], // the page as a whole is best
    [10, 12, 13, 12], // the opening in full beats half of the best window's gain
    [10, 12, 16, 13],
    [10, 8, 30, 10 + WINDOW_SHARE * 20],
  ];
  for (const [page, opening, best, want] of cases) assert.is(windowText(page, { opening, best: { score: best } }), want, `${page} ${opening} ${best}`);
});

// A real index with a window of 100 terms: pages of 600 terms hold the query's words together past their
// opening, or scattered far apart; a short page holds them once each; filler pages give document frequencies.
const WINDOW = 100;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-windows-'));
let reader: LoadedIndex;
const shipped = searchSettings(Conf.load()).rank;
const params: RankParams = { ...shipped, bm25f: { ...shipped.bm25f, fields: { ...shipped.bm25f.fields, content: { ...shipped.bm25f.fields.content, window: WINDOW } } } };
const TERMS = ['exit', 'signal', 'code'];

const filler = (seed: number, n: number) => Array.from({ length: n }, (_, i) => `w${(seed * 31 + i * 7) % 97}`);
function page(url: string, words: string[]): IndexInputDoc {
  const text = words.join(' ');
  return { url, title: url.slice(-5), content: text, host: 's.test', site: 's.test', domain: 's.test', type: 'text/html', lang: 'en', date: '20240101', tstamp: 0, digest: url, boost: 0, segment: '20240101000000', contentLength: text.length, anchors: [], headings: [], sections: [] };
}
const put = (words: string[], at: number, w: string) => (words[at] = w, words);
const together = put(put(put(filler(1, 600), 400, 'exit'), 402, 'signal'), 404, 'code');
const scattered = put(put(put(filler(2, 600), 100, 'exit'), 300, 'signal'), 500, 'code');
const DOCS = [
  page('http://s.test/dense', together),
  page('http://s.test/sparse', scattered),
  page('http://s.test/short', put(put(put(filler(3, 60), 10, 'exit'), 30, 'signal'), 50, 'code')),
  ...Array.from({ length: 6 }, (_, k) => page(`http://s.test/fill${k}`, filler(10 + k, 40 + 30 * k))),
];

test.before(async () => {
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], maxTokens: 1_000_000 });
  for (const d of DOCS) w.add(d);
  await w.write(tmp);
  reader = await openIndex(tmp);
});
test.after(() => {
  reader?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('bodyPivot: the mean body length with each body cut at the window; the index\'s own mean without one', () => {
  const lengths = DOCS.map((d) => d.content.split(' ').length);
  const mean = (w: number) => lengths.reduce((s, n) => s + Math.min(n, w), 0) / lengths.length;
  assert.ok(Math.abs(bodyPivot(reader, WINDOW) - mean(WINDOW)) < 1e-9);
  assert.ok(Math.abs(bodyPivot(reader, 400) - mean(400)) < 1e-9);
  assert.is(bodyPivot(reader, Infinity), reader.meta.avgFieldLength.content);
  assert.is(readerStats(reader, params).avgFieldLength('content'), bodyPivot(reader, WINDOW), 'what the scorer normalises against');
  assert.is(readerStats(reader).avgFieldLength('content'), reader.meta.avgFieldLength.content);
});

test('a long page holding the words together passes one scattering them; their whole-page scores are alike', () => {
  const scorer = makeScorer(reader, TERMS, params);
  const dense = reader.idOf('http://s.test/dense')!;
  const sparse = reader.idOf('http://s.test/sparse')!;
  assert.ok(Math.abs(scorer.base(dense) - scorer.base(sparse)) < 1e-9, 'the same counts in bodies of the same length');
  assert.ok(scorer.sectionLift(dense) > 0);
  assert.ok(scorer.base(dense) + scorer.sectionLift(dense) > scorer.base(sparse) + scorer.sectionLift(sparse));
  const e = scorer.explain(dense);
  assert.equal(e.windows?.best.tf, { exit: 1, signal: 1, code: 1 });
  assert.ok(e.windows!.best.start <= 400 && e.windows!.best.start + WINDOW > 404, `window from ${e.windows!.best.start}`);
  assert.ok(Math.abs(e.sectionLift - (windowText(e.bm25f, { opening: e.windows!.opening, best: { score: e.windows!.best.bm25f } }) - e.bm25f)) < 1e-9);
  assert.equal(Object.values(scorer.explain(sparse).windows!.best.tf).reduce((s, n) => s + n, 0), 1, 'no window of the scattered page holds two of the words');
});

test('a page no longer than the window has no windows; explain\'s factors add up and the page shows the windows', () => {
  const scorer = makeScorer(reader, TERMS, params);
  const short = reader.idOf('http://s.test/short')!;
  assert.is(scorer.explain(short).windows, undefined);
  assert.is(scorer.sectionLift(short), 0);
  for (let id = 0; id < reader.meta.docCount; id++) {
    const e = scorer.explain(id);
    assert.ok(Math.abs(e.score - (e.bm25f + e.sectionLift + e.proximity + e.linkPrior)) < 1e-12);
    assert.ok(Math.abs(e.sectionLift - scorer.sectionLift(id)) < 1e-12);
  }
  const dense = reader.idOf('http://s.test/dense')!;
  const html = explainPage(reader.doc(dense), TERMS.join(' '), scorer.explain(dense), 'all');
  assert.match(html, /longer than the body window \(100 terms\)/);
  assert.match(html, /its best window \(from body term \d+: exit 1, signal 1, code 1\)/);
});

test.run();
