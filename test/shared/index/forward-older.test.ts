/**
 * An index of format 11, whose forward file keeps every term id at the
 * dictionary's width (term-ids), still reads, and reads as the index of
 * format 12 of the same documents does: by entry, by term, by analyzed()
 * and by merge's walk. The older forward file is made here as that release
 * wrote it, and checked against the hash of the one it wrote.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { INDEX_FILES, packColumns, readIndexFile, unpackColumns, writeIndexFile } from '../../../shared/index/format.js';
import { openIndex } from '../../../shared/index/reader.js';
import { TermPacker } from '../../../shared/index/term-ids.js';
import { FIELDS } from '../../../shared/index/types.js';
import { IndexWriter } from '../../../shared/index/writer.js';
import { forwardDocs } from '../../fixtures/forward-docs.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-forward-older-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The payload hash (SHA-256, first 16 hex digits) of the forward file hazelnut wrote for forwardDocs() at index format 11. */
const FORMAT_11_FORWARD = 'd6fd8c16e0900eb0';

/** The forward file of format 11 with the ids of `ids`: the other columns as they are, in that release's order. */
function olderForward(dir: string, ids: (e: number) => number): Buffer {
  const cols = unpackColumns(readIndexFile(dir, INDEX_FILES.forward), INDEX_FILES.forward);
  const entries = cols.start![cols.start!.length - 1]!;
  const bits = cols['term.bits']!;
  const words: number[] = [];
  const packer = new TermPacker(bits[0]!, (w) => words.push(...w));
  packer.append(Uint32Array.from({ length: entries }, (_, e) => ids(e)));
  packer.close();
  const named = ['start', 'term.bits', 'term.packed', 'tfb.has', 'tfb.rank', 'tfb.sparse', 'tf.has', 'tf.rank', 'tf.sparse', 'over.key', 'over.tf', 'lengths'];
  return packColumns(Object.fromEntries(named.map((n) => [n, n === 'term.packed' ? Uint32Array.from(words) : cols[n]!])));
}

test('format 11: a forward file of ids at a fixed width reads as the grouped one of format 12, which is smaller', async () => {
  const now = path.join(tmp, 'now');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  for (const d of forwardDocs()) w.add(d);
  await w.write(now);
  const a = await openIndex(now);
  assert.is(a.meta.version, 13);
  const older = olderForward(now, (e) => a.entryTerm(e));
  assert.is(crypto.createHash('sha256').update(older).digest('hex').slice(0, 16), FORMAT_11_FORWARD, 'the bytes format 11 wrote');
  assert.ok(fs.statSync(path.join(now, INDEX_FILES.forward)).size < 0.8 * older.length, 'the grouped ids are smaller');

  const dir = path.join(tmp, 'older');
  fs.cpSync(now, dir, { recursive: true });
  writeIndexFile(dir, INDEX_FILES.forward, older);
  writeIndexFile(dir, INDEX_FILES.meta, Buffer.from(JSON.stringify({ ...a.meta, version: 11 })));
  const b = await openIndex(dir);
  assert.is(b.meta.version, 11);
  const terms = a.terms();
  for (let id = 0; id < a.meta.docCount; id++) {
    assert.equal(b.analyzed(id), a.analyzed(id), `document ${id}`);
    const [first, end] = a.entryRange(id);
    assert.equal(b.entryRange(id), [first, end]);
    for (let e = first; e < end; e++) assert.is(b.entryTerm(e), a.entryTerm(e), `entry ${e}`);
    // Every term of the dictionary, held or not, found at the same entry.
    for (let t = id % 7; t < terms.length; t += 7) {
      const e = a.entry(id, t);
      assert.is(b.entry(id, t), e, `term ${terms[t]} in ${id}`);
      if (e >= 0) for (let f = 0; f < FIELDS.length; f++) assert.is(b.entryTf(e, f), a.entryTf(e, f));
    }
  }
  const walked = (r: typeof a) => [...r.docEntries()].map(([id, , e]) => [id, Array.from(e.terms), Array.from(e.tf), Array.from(e.posData)]);
  assert.equal(walked(b), walked(a));
  a.close();
  b.close();
});

test.run();
