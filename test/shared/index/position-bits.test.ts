/**
 * Positions of index format 13: a first position takes as few bits as its
 * page's length needs (none for a page of one term), pages of the lengths at
 * each width's edge read back every position, by entry and by merge's walk,
 * and a position past its page's length is refused by the writer, naming
 * the file, rather than cut to its width. An entry whose count of
 * positions the caller gives (a searcher knows it from the postings) is read
 * without counting any entry's positions in the forward file when it has one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { INDEX_FILES, PackedColumnsWriter } from '../../../shared/index/format.js';
import { windowLayout } from '../../../shared/index/forward.js';
import { PageCache, PagedFile } from '../../../shared/index/paged.js';
import { PagedPositionBits, positionColumns, positionWidth, PositionsWriter } from '../../../shared/index/position-bits.js';
import { openIndex } from '../../../shared/index/reader.js';
import { IndexWriter } from '../../../shared/index/writer.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-position-bits-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('position-bits: the width of a page of n terms holds n − 1', () => {
  const cases: [number, number][] = [
    [0, 0],
    [1, 0],
    [2, 1],
    [3, 2],
    [4, 2],
    [5, 3],
    [128, 7],
    [129, 8],
    [70_003, 17],
    [2 ** 32 - 1, 32],
  ];
  for (const [length, width] of cases) assert.is(positionWidth(length), width, `${length} terms`);
});

test('position-bits: pages at every width\'s edge read back each term\'s positions, by entry and by merge\'s walk', async () => {
  const words = (n: number, k: number) => Array.from({ length: n }, (_, i) => `w${(i * k) % 7}`).join(' ');
  const lengths = [0, 1, 2, 3, 4, 5, 127, 128, 129, 255, 256, 257, 1000, 4097];
  const dir = path.join(tmp, 'edges');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  lengths.forEach((n, i) =>
    w.add({
      url: `http://e.test/${i}`, title: '', content: words(n, i + 1), host: 'e.test', site: 'e.test', domain: 'e.test', type: 'text/html', lang: 'en',
      date: '20240101', tstamp: 1, digest: `d${i}`, boost: 1, segment: '20240101000000', contentLength: n, anchors: i % 2 ? ['anchor only'] : [],
    }),
  );
  await w.write(dir);
  const r = await openIndex(dir);
  try {
    const walked = [...r.docEntries()];
    lengths.forEach((n, id) => {
      const { stream } = r.analyzed(id);
      assert.is(stream.length, n, `page ${id}`);
      const [first, end] = r.entryRange(id);
      const e = walked[id]![2];
      for (let k = first; k < end; k++) {
        const term = r.term(r.entryTerm(k));
        const want = stream.flatMap((t, p) => (t === term ? [p] : []));
        assert.equal(r.entryPositions(k), want, `page ${id}: ${term}`);
        assert.equal(r.entryPositions(k, 2), want.slice(0, 2), `page ${id}: ${term}, two`);
        // The walk carries them as varints of the gaps, as format 12 kept them.
        const gaps = want.map((p, i) => p - (want[i - 1] ?? 0));
        const bytes = e.posData.subarray(k - first ? e.posEnd[k - first - 1] : 0, e.posEnd[k - first]);
        assert.equal(Array.from(bytes), gaps.flatMap((g) => (g < 128 ? [g] : [(g & 0x7f) | 0x80, g >> 7])), `page ${id}: ${term}, walked`);
      }
    });
  } finally {
    r.close();
  }
});

test('position-bits: an entry read with its count given counts no entry\'s positions when it has one, and reads the same positions', async () => {
  const dir = path.join(tmp, 'counted');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  // Forty terms a page: entries past the first of their gaps' mark (every 16th entry).
  const text = (i: number) => Array.from({ length: 40 }, (_, k) => `t${k}x`).join(' ') + ` t3x t5x t${i}x`;
  for (let i = 0; i < 3; i++)
    w.add({
      url: `http://c.test/${i}`, title: '', content: text(i), host: 'c.test', site: 'c.test', domain: 'c.test', type: 'text/html', lang: 'en',
      date: '20240101', tstamp: 1, digest: `d${i}`, boost: 1, segment: '20240101000000', contentLength: 1, anchors: [],
    });
  await w.write(dir);
  const r = await openIndex(dir);
  const cache = new PageCache(8);
  const fwd = new PagedFile(dir, INDEX_FILES.forward, cache);
  const pos = new PagedFile(dir, INDEX_FILES.positions, cache);
  try {
    let counted = 0;
    const bits = new PagedPositionBits(pos, (from, to, out) => ((counted += to - from), r.entryCounts(from, to, out)));
    const docs = windowLayout(fwd.all('start', Uint32Array), fwd.all('lengths', Uint32Array));
    let ones = 0;
    for (let id = 0; id < 3; id++) {
      const [first, end] = r.entryRange(id);
      for (let e = first; e < end; e++) {
        const want = r.entryPositions(e);
        counted = 0;
        assert.equal(bits.positions(e, Infinity, docs, want.length), want, `entry ${e}`);
        if (want.length === 1) (ones++, assert.is(counted, 0, `entry ${e}: one position, its count given`));
        counted = 0;
        assert.equal(bits.positions(e, Infinity, docs), want, `entry ${e}, its count read`);
        assert.ok(counted >= 1, `entry ${e}: its count is read when not given`);
      }
    }
    assert.ok(ones > 60, `${ones} entries of one position`);
  } finally {
    fwd.close();
    pos.close();
    r.close();
  }
});

test('position-bits: a position past its page\'s length is refused, naming the file', () => {
  const dir = path.join(tmp, 'past');
  fs.mkdirSync(dir);
  const w = new PackedColumnsWriter(dir, 'positions', positionColumns(1, 2, 0));
  const p = new PositionsWriter(w, 1, 2, 0, path.join(dir, 'positions'));
  assert.throws(
    () => p.add(1, 4, Uint8Array.of(5), Uint32Array.of(1), Uint32Array.of(0)),
    (e: Error) => e.message.includes(path.join(dir, 'positions')) && e.message.includes('position 5') && e.message.includes('4 terms'),
  );
  w.abandon();
});

test.run();
