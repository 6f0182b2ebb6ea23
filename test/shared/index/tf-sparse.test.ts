/**
 * Frequency codes kept only where not zero: codes of every density (none,
 * all, one in ten, runs across the rank's 256 entries and the bitmap's 32)
 * written in pieces and read back entry by entry through the page cache and
 * in windows of a walk of the file, each equal to the code written; and the
 * content frequency bytes kept the same way where not 1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IndexFileColumns, PackedColumnsWriter } from '../../../shared/index/format.js';
import { PageCache, PagedFile } from '../../../shared/index/paged.js';
import { BYTES, CODES, codeColumns, CodesWriter, PagedCodes, readCodes, readTfs, type SparseValues } from '../../../shared/index/tf-sparse.js';
import { rng } from '../../fixtures/rng.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-tfsparse-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const rand = rng(3);
const CASES: [string, number[], number][] = [
  ['none', [], 1],
  ['all zero', Array.from({ length: 700 }, () => 0), 50],
  ['none zero', Array.from({ length: 700 }, (_, i) => 1 + (i % 65_535)), 33],
  ['one in ten', Array.from({ length: 3000 }, () => (rand() < 0.1 ? 1 + Math.floor(rand() * 65_535) : 0)), 900],
  ['runs', Array.from({ length: 2000 }, (_, i) => ((i >> 6) % 3 === 0 ? 0x1234 : 0)), 1],
  ['the last entry only', [...Array.from({ length: 511 }, () => 0), 0xffff], 512],
];

/** Ranges of entries of `n`: whole, empty, within and across a bitmap word and a rank. */
const windows = (n: number) => [[0, n], [0, 0], [n, n], [5, 40], [255, 257], [31, 33], [300, n - 7], [1000, 1700], [20, 36]].filter(([a, b]) => a! <= b! && b! <= n) as [number, number][];

/** Checks the values written to `dir`'s forward file, entry by entry through the page cache and in windows of a walk (`walk`). */
function readBack(dir: string, name: string, values: number[], v: SparseValues, walk: (cols: IndexFileColumns, a: number, b: number) => Uint8Array | Uint16Array): void {
  const f = new PagedFile(dir, 'forward', new PageCache(2));
  try {
    const paged = new PagedCodes(f, v);
    assert.ok(paged.fits(values.length), `${name}: fits`);
    assert.not.ok(paged.fits(values.length + 300), `${name}: not more`);
    for (let e = 0; e < values.length; e++) assert.is(paged.code(e), values[e], `${name}: entry ${e}`);
    for (const [a, b] of windows(values.length)) {
      const out = v.type === 'u8' ? new Uint8Array(b - a) : new Uint16Array(b - a);
      paged.values(a, b, out);
      assert.equal([...out], values.slice(a, b), `${name}: ${a}..${b} through the page cache`);
    }
  } finally {
    f.close();
  }
  const cols = new IndexFileColumns(dir, 'forward');
  try {
    for (const [a, b] of windows(values.length)) assert.equal([...walk(cols, a, b)], values.slice(a, b), `${name}: ${a}..${b}`);
  } finally {
    cols.close();
  }
}

test('tf-sparse: every code read back, through the page cache and in windows of a walk', () => {
  for (const [name, codes, piece] of CASES) {
    const dir = path.join(tmp, name.replace(/ /g, '-'));
    fs.mkdirSync(dir);
    const w = new PackedColumnsWriter(dir, 'forward', codeColumns(codes.length, codes.filter((c) => c).length));
    const cw = new CodesWriter(w, 0, codes.length);
    for (let at = 0; at < codes.length; at += piece) cw.append(Uint16Array.from(codes.slice(at, at + piece)));
    cw.close();
    w.close();
    readBack(dir, name, codes, CODES, (cols, a, b) => readCodes(cols, a, b));
  }
});

test('tf-sparse: every content frequency byte, kept where not 1, read back through the page cache and in windows of a walk', () => {
  for (const [name, codes, piece] of CASES) {
    const dir = path.join(tmp, `bytes-${name.replace(/ /g, '-')}`);
    fs.mkdirSync(dir);
    // A code of zero as the usual byte 1, any other as a byte of its own.
    const bytes = codes.map((c) => (c ? (c % 255 === 1 ? 0 : c % 255) : 1));
    const w = new PackedColumnsWriter(dir, 'forward', [...codeColumns(bytes.length, bytes.filter((b) => b !== 1).length, BYTES), ...codeColumns(bytes.length, 0)]);
    const bw = new CodesWriter(w, 0, bytes.length, BYTES);
    const cw = new CodesWriter(w, 3, bytes.length);
    for (let at = 0; at < bytes.length; at += piece) bw.append(Uint8Array.from(bytes.slice(at, at + piece))), cw.append(new Uint16Array(Math.min(piece, bytes.length - at)));
    bw.close();
    cw.close();
    w.close();
    assert.ok(fs.statSync(path.join(dir, 'forward')).size < 600 + bytes.length / 4 + bytes.filter((b) => b !== 1).length, `${name}: a bit a usual byte`);
    readBack(dir, name, bytes, BYTES, (cols, a, b) => readTfs(cols, a, b)[0]);
  }
});

test.run();
