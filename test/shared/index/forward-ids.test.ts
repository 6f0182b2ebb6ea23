/**
 * The forward index's term ids in groups (format 12): every page's ids read
 * back by entry and found by term, at every width, with groups across pages
 * (gaps modulo 2^bits), pages of one entry holding the same id (groups of
 * width 0) and read in windows starting anywhere (merge's walk).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IndexFileColumns, PackedColumnsWriter } from '../../../shared/index/format.js';
import { GROUP, IdGroupsWriter, idColumns, PagedIds, readIds } from '../../../shared/index/forward-ids.js';
import { PageCache, PagedFile } from '../../../shared/index/paged.js';
import { rng } from '../../fixtures/rng.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-forward-ids-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Pages of sorted distinct ids below 2^bits: random sizes (many of one entry), some pages of the largest id alone. */
function pagesOf(bits: number, count: number, seed: number): Uint32Array[] {
  const rnd = rng(seed);
  const max = 2 ** bits;
  return Array.from({ length: count }, (_, p) => {
    if (p % 9 === 4) return Uint32Array.of(max - 1);
    const n = rnd() < 0.3 ? Math.floor(rnd() * 3) : Math.floor(rnd() * 200);
    const ids = new Set<number>();
    // Close ids (small gaps) and far ones (wide groups) both.
    const spread = rnd() < 0.5 ? Math.min(max, 4 * n + 1) : max;
    while (ids.size < Math.min(n, spread)) ids.add(Math.floor(rnd() * spread));
    return Uint32Array.from([...ids].sort((a, b) => a - b));
  });
}

function write(dir: string, pages: Uint32Array[], bits: number): number {
  fs.mkdirSync(dir, { recursive: true });
  const entries = pages.reduce((s, p) => s + p.length, 0);
  const w = new PackedColumnsWriter(dir, 'forward', idColumns(entries, bits));
  const ids = new IdGroupsWriter(w, 0, bits);
  for (const p of pages) ids.append(p);
  ids.close();
  w.close();
  return entries;
}

test('grouped ids: each read back by entry, in turn and at random, and each page\'s found by term, at every width', () => {
  for (const bits of [1, 5, 13, 18, 31, 32]) {
    const pages = pagesOf(bits, 300, bits);
    const dir = path.join(tmp, `w${bits}`);
    const entries = write(dir, pages, bits);
    const f = new PagedFile(dir, 'forward', new PageCache(64));
    const ids = new PagedIds(f, bits, entries);
    assert.ok(ids.holds() && !new PagedIds(f, bits, entries + GROUP).holds(), `${bits} bits: the columns hold ${entries} ids`);
    const all = pages.flatMap((p) => Array.from(p));
    assert.equal(Array.from(all, (_, e) => ids.id(e)), all, `${bits} bits: in turn`);
    const rnd = rng(bits);
    for (let k = 0; k < 2000; k++) {
      const e = Math.floor(rnd() * entries);
      assert.is(ids.id(e), all[e], `${bits} bits: entry ${e}`);
    }
    let first = 0;
    for (const p of pages) {
      const end = first + p.length;
      p.forEach((id, j) => assert.is(ids.find(first, end, id), first + j, `${bits} bits: id ${id} of a page at ${first}`));
      // Ids the page lacks: before its first, between two, past its last.
      for (const id of [0, 1, p[0]! - 1, p[0]! + 1, p[p.length - 1]! + 1, 2 ** bits - 1])
        if (id >= 0 && id < 2 ** bits && !p.includes(id)) assert.is(ids.find(first, end, id), -1, `${bits} bits: id ${id} not in the page at ${first}`);
      first = end;
    }
    f.close();
  }
});

test('grouped ids: pages of one entry holding the same id make groups without gap bits; each is found in its page', () => {
  const dir = path.join(tmp, 'same');
  const pages = Array.from({ length: 40 }, (_, p) => (p === 20 ? Uint32Array.of(3, 9) : Uint32Array.of(7)));
  const entries = write(dir, pages, 4);
  const f = new PagedFile(dir, 'forward', new PageCache(4));
  const ids = new PagedIds(f, 4, entries);
  let first = 0;
  for (const p of pages) {
    assert.is(ids.find(first, first + p.length, 7), p.length === 1 ? first : -1, `page at ${first}`);
    first += p.length;
  }
  assert.equal(Array.from({ length: entries }, (_, e) => ids.id(e)), pages.flatMap((p) => Array.from(p)));
  f.close();
});

test('grouped ids: read in windows starting and ending anywhere, as merge walks them', () => {
  const bits = 18;
  const pages = pagesOf(bits, 400, 7);
  const dir = path.join(tmp, 'windows');
  const entries = write(dir, pages, bits);
  const all = pages.flatMap((p) => Array.from(p));
  const cols = new IndexFileColumns(dir, 'forward');
  const rnd = rng(11);
  for (const [a, b] of [[0, entries], [0, 0], [entries, entries], [1, 2], [GROUP - 1, GROUP + 1], [GROUP * 16, GROUP * 16 + 1], [GROUP * 16 - 1, entries]])
    assert.equal(Array.from(readIds(cols, a!, b!)), all.slice(a, b), `[${a}, ${b})`);
  for (let k = 0; k < 200; k++) {
    const a = Math.floor(rnd() * entries);
    const b = a + Math.floor(rnd() * (entries - a));
    assert.equal(Array.from(readIds(cols, a, b)), all.slice(a, b), `[${a}, ${b})`);
  }
  cols.close();
});

test('grouped ids: sorted ids of close values take fewer bytes than a fixed width', () => {
  const bits = 18;
  const pages = Array.from({ length: 100 }, (_, p) => Uint32Array.from({ length: 160 }, (_, i) => p * 7 + i * 300 + (i % 7)));
  const dir = path.join(tmp, 'small');
  write(dir, pages, bits);
  const fixed = Math.ceil((160 * 100 * bits) / 8);
  const size = fs.statSync(path.join(dir, 'forward')).size;
  // Gaps of about 300 take 9 bits; a group's base 18 and its width 8.
  assert.ok(size < 0.6 * fixed, `${size} bytes, fixed width ${fixed}`);
});

test.run();
