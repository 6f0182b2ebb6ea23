/**
 * Positions found by marks: runs of varints of one to three bytes written
 * with a mark every 16th, found again through the page cache and by a walk
 * of the file in windows that start and end within a mark's block; a file
 * whose marks disagree with its entries refused; and marks past 2^32 kept
 * as two words.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IndexFileColumns, PackedColumnsWriter } from '../../../shared/index/format.js';
import { PageCache, PagedFile } from '../../../shared/index/paged.js';
import { markColumns, MarksWriter, PagedMarks, readPositionRuns, skipVarints } from '../../../shared/index/position-marks.js';
import { readWide } from '../../../shared/index/run-starts.js';
import { rng } from '../../fixtures/rng.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-marks-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const varint = (v: number): number[] => {
  const out: number[] = [];
  for (; v > 0x7f; v = Math.floor(v / 128)) out.push((v & 0x7f) | 0x80);
  return [...out, v];
};

test('position-marks: a run ends after its count of varints, not past the data', () => {
  const data = [...varint(5), ...varint(300), ...varint(70_000), ...varint(1)];
  const byte = (i: number) => data[i]!;
  const cases: [number, number, number][] = [
    // [from, count, end]
    [0, 0, 0],
    [0, 1, 1],
    [0, 2, 3],
    [1, 1, 3],
    [0, 3, 6],
    [0, 4, 7],
    [0, 9, 7],
  ];
  for (const [from, count, end] of cases) assert.is(skipVarints(byte, from, count, data.length), end, `${from} +${count}`);
});

/** Writes runs of `counts[e]` varints an entry, in pieces of `piece`, with their marks. */
function write(name: string, counts: number[], piece: number): { dir: string; starts: number[]; data: number[] } {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  const rand = rng(counts.length);
  const data: number[] = [];
  const starts: number[] = [];
  for (const c of counts) {
    starts.push(data.length);
    for (let k = 0; k < c; k++) data.push(...varint(Math.floor(rand() ** 3 * 100_000)));
  }
  starts.push(data.length);
  const w = new PackedColumnsWriter(dir, 'positions', [...markColumns(counts.length, data.length), { name: 'data', type: 'u8', length: data.length }]);
  const mw = new MarksWriter(w, 0, counts.length, data.length);
  for (let at = 0; at < counts.length; at += piece) mw.append(Float64Array.from(starts.slice(at, Math.min(counts.length, at + piece))));
  mw.close(data.length);
  w.append(1, Uint8Array.from(data));
  w.close();
  return { dir, starts, data };
}

test('position-marks: every run found through the page cache and by a walk of the file, within and across marks', () => {
  const rand = rng(9);
  for (const [name, n, piece] of [['empty', 0, 1], ['one', 1, 1], ['a mark', 16, 16], ['a mark and one', 17, 5], ['many', 1000, 333]] as const) {
    const counts = Array.from({ length: n }, () => (rand() < 0.2 ? 0 : 1 + Math.floor(rand() ** 4 * 40)));
    const { dir, starts, data } = write(name, counts, piece);
    const f = new PagedFile(dir, 'positions', new PageCache(4));
    try {
      const marks = new PagedMarks(f, f.column('data', 'u8'), (from, to, out) => out.set(counts.slice(from, to)));
      assert.ok(marks.fits(n), `${name}: fits its entries`);
      assert.not.ok(marks.fits(n + 16), `${name}: not more entries`);
      for (let e = 0; e < n; e++) assert.equal(marks.run(e), [starts[e], starts[e + 1]], `${name}: entry ${e}`);
    } finally {
      f.close();
    }
    const cols = new IndexFileColumns(dir, 'positions');
    try {
      for (const [e0, e1] of [[0, n], [0, 0], [n, n], [3, 5], [15, 17], [16, 32], [7, n - 9], [31, n]])
        if (e0 >= 0 && e1 <= n && e0 <= e1) {
          const runs = readPositionRuns(cols, e0, e1, (e) => counts[e]!);
          assert.equal([...runs.start], starts.slice(e0, e1 + 1), `${name}: starts ${e0}..${e1}`);
          assert.equal([...runs.data], data.slice(starts[e0], starts[e1]), `${name}: bytes ${e0}..${e1}`);
        }
    } finally {
      cols.close();
    }
  }
});

// The 4 GiB of positions before these are not written: the marks are what is tested.
test('position-marks: marks of a file of 4 GiB of positions or more take two words each and read back exact', () => {
  const dir = path.join(tmp, 'wide');
  fs.mkdirSync(dir);
  const from = 2 ** 32 - 1000;
  const starts = Float64Array.from({ length: 41 }, (_, e) => from + 100 * e);
  const end = from + 4000;
  const shape = markColumns(40, end);
  assert.is(shape[0]!.name, 'mark64');
  const w = new PackedColumnsWriter(dir, 'positions', [...shape, { name: 'data', type: 'u8', length: 0 }]);
  const mw = new MarksWriter(w, 0, 40, end);
  mw.append(starts.subarray(0, 40));
  mw.close(end);
  w.close();
  const cols = new IndexFileColumns(dir, 'positions');
  try {
    assert.equal([...readWide(cols, 'mark', 0, 4)], [starts[0], starts[16], starts[32], end]);
  } finally {
    cols.close();
  }
  // Runs of no varints start at their marks: the marks read through the page cache as two words.
  const f = new PagedFile(dir, 'positions', new PageCache(2));
  try {
    const marks = new PagedMarks(f, f.column('data', 'u8'), (from, to, out) => out.fill(0, 0, to - from));
    for (const e of [0, 16, 32]) assert.equal(marks.run(e), [starts[e], starts[e]], `entry ${e}`);
  } finally {
    f.close();
  }
});

test.run();
