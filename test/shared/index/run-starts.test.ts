/**
 * Run starts in two bytes an entry: the bound that decides between 16-bit
 * offsets and 32-bit starts, as a table; starts written either way and read
 * back through the page cache and a walk of the file, across block
 * boundaries and past 2^32; and an index whose page repeats a word 70,000 times keeping
 * marks for its positions while its sections take offsets.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { IndexFileColumns, PackedColumnsWriter } from '../../../shared/index/format.js';
import { PageCache, PagedFile } from '../../../shared/index/paged.js';
import { openIndex } from '../../../shared/index/reader.js';
import { BlockBound, PagedStarts, readStarts, startColumns, StartsWriter } from '../../../shared/index/run-starts.js';
import { IndexWriter } from '../../../shared/index/writer.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-runstarts-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// Documents as [entries, bytes of their runs]; whether 16-bit offsets hold them.
const BOUNDS: [string, [number, number][], boolean][] = [
  ['nothing', [], true],
  ['small pages', Array.from({ length: 1000 }, () => [900, 2400] as [number, number]), true],
  ['one page of 65,535 bytes', [[10, 65_535]], true],
  ['one page of 65,536 bytes', [[10, 65_536]], false],
  ['two pages sharing a block, 40,000 bytes each', [[100, 40_000], [100, 40_000]], false],
  ['the same two pages in blocks of their own', [[256, 40_000], [256, 40_000]], true],
  ['a page over three blocks, then one sharing its last block', [[700, 40_000], [10, 30_000]], false],
  ['pages without entries count nothing', [[0, 99_999], [5, 10]], true],
];

test('run-starts: a block of runs is bounded by the pages it overlaps', () => {
  for (const [name, docs, fits] of BOUNDS) {
    const b = new BlockBound();
    for (const [n, bytes] of docs) b.add(n, bytes);
    assert.is(b.fits, fits, name);
  }
});

/** Writes the starts of runs of `sizes` from `from` (`offsets` or not) in pieces of `piece`, and reads them back both ways. */
function roundTrip(name: string, sizes: number[], offsets: boolean, piece: number, from = 0): void {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  const starts = new Float64Array(sizes.length + 1);
  starts[0] = from;
  sizes.forEach((s, i) => (starts[i + 1] = starts[i]! + s));
  const bytes = starts[sizes.length]!;
  const w = new PackedColumnsWriter(dir, 'positions', [...startColumns(sizes.length, offsets, bytes), { name: 'data', type: 'u8', length: 0 }]);
  const sw = new StartsWriter(w, 0, sizes.length, offsets, bytes);
  for (let at = 0; at < sizes.length; at += piece) sw.append(starts.subarray(at, Math.min(sizes.length, at + piece)));
  sw.close(bytes);
  w.close();
  const f = new PagedFile(dir, 'positions', new PageCache(4));
  try {
    assert.is(f.has('offset'), offsets, name);
    assert.is(f.has(offsets ? 'base64' : 'start64'), bytes >= 2 ** 32, `${name}: two words a start past 32 bits`);
    const paged = new PagedStarts(f);
    assert.is(paged.entries, sizes.length);
    for (let e = 0; e <= sizes.length; e++) assert.is(paged.at(e), starts[e], `${name}: entry ${e}`);
  } finally {
    f.close();
  }
  const cols = new IndexFileColumns(dir, 'positions');
  try {
    for (const [e0, e1] of [[0, sizes.length], [0, 0], [255, 257], [256, 512], [3, sizes.length - 1]] as const)
      if (e1 <= sizes.length && e0 <= e1) assert.equal([...readStarts(cols, e0, e1)], [...starts.subarray(e0, e1 + 1)], `${name}: ${e0}..${e1}`);
  } finally {
    cols.close();
  }
}

test('run-starts: starts read back as written, offsets or 32-bit, across block boundaries and in pieces of any size', () => {
  const sizes = Array.from({ length: 1300 }, (_, i) => (i * 7919) % 300);
  roundTrip('offsets', sizes, true, 900);
  roundTrip('offsets-one-at-a-time', sizes.slice(0, 600), true, 1);
  roundTrip('u32', [...sizes, 70_000, 3], false, 100);
  roundTrip('exactly-a-block', sizes.slice(0, 256), true, 256);
  roundTrip('empty', [], true, 1);
});

// The runs written before these (4 GiB of them) are not written: the starts are what is tested.
test('run-starts: starts past 4 GiB read back exact, offsets or whole, across 2^32 and within blocks that straddle it', () => {
  const sizes = Array.from({ length: 1300 }, (_, i) => (i * 7919) % 300);
  const cases: [string, number[], boolean, number, number][] = [
    ['offsets-across-2^32', sizes, true, 900, 2 ** 32 - 100_000],
    ['offsets-past-2^32', sizes, true, 7, 2 ** 32 + 17],
    ['offsets-past-2^40', sizes.slice(0, 300), true, 300, 2 ** 40 + 3],
    ['whole-across-2^32', [...sizes, 70_000, 3], false, 100, 2 ** 32 - 70_000],
    ['ending-at-2^32', [10, 20, 30], true, 1, 2 ** 32 - 60],
    ['ending-below-2^32', [10, 20, 30], true, 1, 2 ** 32 - 61],
  ];
  for (const [name, s, offsets, piece, from] of cases) roundTrip(name, s, offsets, piece, from);
});

test('run-starts: a page of 70,000 positions keeps marks for its positions (position-bits), offsets for its section runs; every run reads back', async () => {
  const dir = path.join(tmp, 'index');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], maxTokens: 100_000 });
  const page = (i: number, content: string, sections?: number[]) => ({
    url: `http://h.test/${i}`, title: `page ${i}`, content, host: 'h.test', site: 'h.test', domain: 'h.test', type: 'text/html', lang: 'en',
    date: '20240101', tstamp: 1, digest: `d${i}`, boost: 1, segment: '20240101000000', contentLength: content.length, anchors: [], ...(sections ? { sections } : {}),
  });
  const text = 'one two three four five six seven eight nine ten ';
  for (let i = 0; i < 300; i++) w.add(page(i, text.repeat(1 + (i % 4)), [0, text.length]));
  w.add(page(300, 'spam '.repeat(70_000)));
  await w.write(dir);
  const cols = (f: string, name: string) => {
    const c = new IndexFileColumns(dir, f);
    const has = c.length(name) > 0;
    c.close();
    return has;
  };
  assert.is(cols('positions', 'first.mark'), true, 'positions: marks');
  assert.is(cols('positions', 'offset'), false, 'positions: no offsets');
  assert.is(cols('sections', 'offset'), true, 'sections: offsets');
  const r = await openIndex(dir);
  try {
    assert.is(r.positions(300, 'spam').length, 70_000);
    for (let id = 0; id < 300; id++) {
      const reps = 1 + (id % 4);
      const pos = r.positions(id, 'five');
      assert.equal(pos.map((p) => p - pos[0]!), Array.from({ length: reps }, (_, k) => 10 * k), `page ${id}`);
      const e = r.entry(id, r.termId('five'));
      assert.equal(r.entrySections(e), reps > 1 ? [0, 1, 1, reps - 1] : [], `page ${id} sections`);
    }
  } finally {
    r.close();
  }
});

test.run();
