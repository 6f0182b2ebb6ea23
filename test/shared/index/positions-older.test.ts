/**
 * An index of format 12, whose positions file keeps every position as a
 * varint of its gap and every 16th entry's byte offset (position-marks),
 * still reads, and reads as the index of format 13 of the same documents
 * does (position-bits): by entry, by analyzed(), by section runs taken from
 * positions and by merge's walk, in windows that cut the marks' blocks. The
 * older file is made here as that release wrote it, and checked against the
 * hash of the one it wrote; the newer one is smaller.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { INDEX_FILES, packColumns, writeIndexFile } from '../../../shared/index/format.js';
import { openIndex } from '../../../shared/index/reader.js';
import type { IndexInputDoc } from '../../../shared/index/types.js';
import { IndexWriter } from '../../../shared/index/writer.js';
import { forwardDocs } from '../../fixtures/forward-docs.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-positions-older-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The payload hash (SHA-256, first 16 hex digits) of the positions file hazelnut wrote for docs() at index format 12. */
const FORMAT_12_POSITIONS = 'efddb86ae9fa7d23';

/**
 * forwardDocs() four times over, pages of one to 4,000 words, more than merge's walk reads at a time; and a page of one
 * word 70,000 times (positions of 17 bits, an uncapped count).
 */
function docs(): IndexInputDoc[] {
  const d = [0, 1, 2, 3].flatMap((k) => forwardDocs().map((p) => ({ ...p, url: `${p.url}/${k}` })));
  return [...d, { ...d[1]!, url: 'http://h1.test/spam', title: 'Spam spam', content: 'spam '.repeat(70_000) + 'eggs', digest: 'spam' }];
}

/** The positions file of format 12 of an index's documents, from merge's walk of it (varints of gaps): a mark every 16th entry. */
async function olderPositions(dir: string): Promise<Buffer> {
  const r = await openIndex(dir);
  const data: number[] = [];
  const marks: number[] = [];
  let entry = 0;
  for (const [, , e] of r.docEntries())
    for (let k = 0; k < e.terms.length; k++, entry++) {
      if (entry % 16 === 0) marks.push(data.length);
      for (let p = k ? e.posEnd[k - 1]! : 0; p < e.posEnd[k]!; p++) data.push(e.posData[p]!);
    }
  if (entry % 16 === 0) marks.push(data.length);
  marks.push(data.length);
  r.close();
  return packColumns({ mark: Uint32Array.from(marks), data: Uint8Array.from(data) });
}

test('format 12: a positions file of varints of gaps reads as the one of format 13, whose first positions take their page\'s width of bits', async () => {
  const now = path.join(tmp, 'now');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], maxTokens: 100_000 });
  for (const d of docs()) w.add(d);
  await w.write(now);
  const older = await olderPositions(now);
  assert.is(crypto.createHash('sha256').update(older).digest('hex').slice(0, 16), FORMAT_12_POSITIONS, 'the bytes format 12 wrote');
  assert.ok(fs.statSync(path.join(now, INDEX_FILES.positions)).size < 0.95 * older.length, 'the first positions in bits are smaller');

  const dir = path.join(tmp, 'older');
  fs.cpSync(now, dir, { recursive: true });
  writeIndexFile(dir, INDEX_FILES.positions, older);
  const a = await openIndex(now);
  writeIndexFile(dir, INDEX_FILES.meta, Buffer.from(JSON.stringify({ ...a.meta, version: 12 })));
  const b = await openIndex(dir);
  assert.is(b.meta.version, 12);
  let entries = 0;
  for (let id = 0; id < a.meta.docCount; id++) {
    assert.equal(b.analyzed(id), a.analyzed(id), `document ${id}`);
    const [first, end] = a.entryRange(id);
    for (let e = first; e < end; e++, entries++) {
      assert.equal(a.entryPositions(e), b.entryPositions(e), `entry ${e}`);
      assert.equal(a.entryPositions(e, 3), b.entryPositions(e, 3), `entry ${e}, three positions`);
      assert.equal(a.entrySections(e), b.entrySections(e), `entry ${e}, sections`);
    }
  }
  assert.ok(entries > 64 * 100, 'entries of many marks');
  assert.is(a.positions(a.meta.docCount - 1, 'spam').length, 70_002, 'two in the title, 70,000 in the content');
  const walked = (r: typeof a) => [...r.docEntries()].map(([id, , e]) => [id, Array.from(e.posEnd), Array.from(e.posData)]);
  assert.equal(walked(a), walked(b));
  a.close();
  b.close();
});

test.run();
