/**
 * Section runs taken from positions: which pages they follow for (indexed
 * whole, two sections or more), and the runs of positions as a table; then
 * an index of pages with sections, one of them cut by indexer.max.tokens,
 * whose entries' runs read back as the indexer counts them, the cut page's
 * past its cap too, and merge keeping them; and the entries of an older
 * index, which stored every page's runs, written without them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { IndexFileColumns } from '../../../shared/index/format.js';
import { storedOf } from '../../../shared/index/document.js';
import { openIndex } from '../../../shared/index/reader.js';
import { runsFromPositions, runsOfPositions } from '../../../shared/index/section-runs.js';
import { FIELDS } from '../../../shared/index/types.js';
import { IndexWriter } from '../../../shared/index/writer.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-secruns-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('section-runs: runs follow from positions for a page of two sections or more indexed whole', () => {
  const cases: [string, number[], number, boolean][] = [
    ['no sections', [], 0, false],
    ['one section', [40], 40, false],
    ['two sections, whole', [10, 30], 40, true],
    ['content cut at 25', [10, 30], 25, false],
    ['many sections, whole', [1, 1, 1, 5], 8, true],
  ];
  for (const [name, sections, content, want] of cases) assert.is(runsFromPositions(sections, content), want, name);
});

test('section-runs: an entry counted in each section its positions fall in, title positions in none', () => {
  // Positions in the title+content stream; title of 3 terms; sections of 4, 2 and 5 content terms (content 3..13).
  const cases: [string, number[], number[]][] = [
    ['no positions', [], []],
    ['title only', [0, 2], []],
    ['first term of the content', [3], [0, 1]],
    ['last term of the first section, first of the second', [6, 7], [0, 1, 1, 1]],
    ['twice in the last section', [9, 13], [2, 2]],
    ['title, then sections 0 and 2', [1, 3, 4, 5, 12], [0, 3, 2, 1]],
  ];
  for (const [name, positions, want] of cases) assert.equal(runsOfPositions(positions, 3, [4, 2, 5], [9, 9, 9, 9, 9, 9, 9]), want, name);
});

const page = (i: number, content: string, sections: number[]) => ({
  url: `http://h.test/${i}`, title: `page ${i} alpha`, content, host: 'h.test', site: 'h.test', domain: 'h.test', type: 'text/html', lang: 'en',
  date: '20240101', tstamp: 1, digest: `d${i}`, boost: 1, segment: '20240101000000', contentLength: content.length, anchors: [], sections,
});

// Three sections each; page 2 is cut by the cap of 12 terms inside its second section.
const PAGES = [
  page(0, 'alpha beta gamma delta alpha epsilon zeta alpha eta theta', [0, 17, 42]),
  page(1, 'beta beta beta gamma gamma alpha', [0, 15, 21]),
  page(2, 'alpha beta gamma delta epsilon zeta eta theta iota kappa alpha lambda mu nu xi alpha omicron pi alpha', [0, 36, 93]),
];
const WANT: Record<string, number[][]> = {
  alpha: [[0, 1, 1, 1, 2, 1], [2, 1], [0, 1, 1, 2, 2, 1]],
  beta: [[0, 1], [0, 3], [0, 1]],
  gamma: [[0, 1], [1, 1, 2, 1], [0, 1]],
  theta: [[2, 1], [], [1, 1]],
};

async function runsOf(dir: string): Promise<Record<string, number[][]>> {
  const r = await openIndex(dir);
  try {
    return Object.fromEntries(Object.keys(WANT).map((t) => [t, PAGES.map((_, id) => (r.entry(id, r.termId(t)) < 0 ? [] : r.entrySections(r.entry(id, r.termId(t)))))]));
  } finally {
    r.close();
  }
}

test('section-runs: an index keeps runs only for the page cut by the cap; every entry reads the runs the indexer counts, and merge keeps them', async () => {
  const seg = path.join(tmp, 'segment');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], maxTokens: 12 });
  for (const p of PAGES) w.add(p);
  await w.write(seg);
  const cols = new IndexFileColumns(seg, 'sections');
  try {
    const entry = cols.read('entry', Uint32Array, 0, 4);
    assert.equal([...entry.subarray(0, 3)].map((e, id) => entry[id + 1]! - e > 0), [false, false, true], 'runs stored for the cut page only');
  } finally {
    cols.close();
  }
  assert.equal(await runsOf(seg), WANT);
  const merged = path.join(tmp, 'merged');
  const src = await openIndex(seg);
  const m = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  try {
    const ids = src.terms();
    for (const [, stored, e] of src.docEntries()) m.addEntries(stored, { ...e, terms: e.terms.map((t) => m.termId(ids[t]!)) });
  } finally {
    src.close();
  }
  await m.write(merged);
  assert.equal(await runsOf(merged), WANT);
});

test('section-runs: entries of an older index, with runs stored for a page indexed whole, are written without them and read the same', async () => {
  const dir = path.join(tmp, 'from-older');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  const F = FIELDS.length;
  const tf = new Uint16Array(F);
  tf[FIELDS.indexOf('content')] = 2;
  const lengths = new Uint32Array(F);
  lengths[FIELDS.indexOf('title')] = 2;
  lengths[FIELDS.indexOf('content')] = 6;
  // Positions 3 and 7 (gaps 3, 4): content terms 1 and 5, in sections 0 and 2 of lengths 2, 3, 1.
  const e = { terms: Uint32Array.of(w.termId('alpha')), tf, posEnd: Uint32Array.of(2), posData: Uint8Array.of(3, 4), lengths, sections: Uint32Array.of(2, 3, 1), secEnd: Uint32Array.of(4), secData: Uint8Array.of(0, 1, 2, 1) };
  w.addEntries(storedOf(page(0, 'x', [])), e);
  await w.write(dir);
  const cols = new IndexFileColumns(dir, 'sections');
  try {
    assert.is(cols.length('data'), 0, 'no runs stored');
  } finally {
    cols.close();
  }
  const r = await openIndex(dir);
  try {
    assert.equal(r.entrySections(r.entry(0, r.termId('alpha'))), [0, 1, 2, 1]);
  } finally {
    r.close();
  }
});

test.run();
