/**
 * Stored fields in deflated blocks: every document read back as added,
 * in any order, across block boundaries, with unicode, newlines and a field
 * far larger than a block; an index of no documents; a damaged block and a
 * count that disagrees with the index refused with the file named.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { INDEX_FILES, IndexFileColumns, readIndexFile, writeIndexFile } from '../../../shared/index/format.js';
import { openIndex } from '../../../shared/index/reader.js';
import { BLOCK_CHARS } from '../../../shared/index/stored-fields.js';
import type { IndexInputDoc } from '../../../shared/index/types.js';
import { IndexWriter } from '../../../shared/index/writer.js';
import { rng } from '../../fixtures/rng.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-stored-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function page(i: number, title: string, anchors: string[] = []): IndexInputDoc {
  const host = `h${i % 7}.test`;
  return {
    url: `http://${host}/p${i}`, title, content: `words of page ${i}`, host, site: host, domain: host, type: 'text/html', lang: 'en',
    date: '20240101', tstamp: 1, digest: `d${i}`, boost: i / 7, segment: '20240101000000', contentLength: 10 + i, anchors,
  };
}

/** 500 pages: unicode titles, a title with a newline and quotes, anchors of every length, one page with a 100,000-character anchor. */
function pages(): IndexInputDoc[] {
  const rnd = rng(11);
  return Array.from({ length: 500 }, (_, i) => {
    const title = i % 50 === 1 ? 'line one\nline "two"\t\\ end' : `Überschrift ${i} — 日本語のページ 🌰 ${'x'.repeat(Math.floor(rnd() * 200))}`;
    return page(i, title, i === 250 ? ['é'.repeat(100_000)] : Array.from({ length: i % 9 }, (_, k) => `anchor ${k} of ${i}`));
  });
}

async function build(dir: string, docs: IndexInputDoc[]) {
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  for (const d of docs) w.add(d);
  return w.write(dir);
}

const storedOf = ({ content, headings, sections, ...s }: IndexInputDoc) => s;

test('stored fields: every document read back as added, forwards, backwards and through docEntries, in more than one block', async () => {
  const dir = path.join(tmp, 'many');
  const docs = pages();
  await build(dir, docs);
  const cols = new IndexFileColumns(dir, INDEX_FILES.docs);
  const blocks = cols.length('first') - 1;
  cols.close();
  const raw = docs.reduce((n, d) => n + JSON.stringify(storedOf(d)).length, 0);
  assert.ok(blocks > raw / BLOCK_CHARS / 2 && blocks > 5, `${blocks} blocks`);
  assert.ok(fs.statSync(path.join(dir, INDEX_FILES.docs)).size < raw / 2, 'compressed');
  for (const order of ['forwards', 'backwards'] as const) {
    const r = await openIndex(dir);
    try {
      const ids = docs.map((_, i) => i);
      if (order === 'backwards') ids.reverse();
      for (const id of ids) assert.equal(r.doc(id), storedOf(docs[id]!), `${order}: document ${id}`);
    } finally {
      r.close();
    }
  }
  const r = await openIndex(dir);
  try {
    let n = 0;
    for (const [id, stored] of r.docEntries((id) => id % 3 !== 0)) {
      assert.equal(stored, storedOf(docs[id]!), `docEntries: document ${id}`);
      n++;
    }
    assert.is(n, 333);
  } finally {
    r.close();
  }
});

test('stored fields: an index of no documents, and of one', async () => {
  await build(path.join(tmp, 'none'), []);
  const r0 = await openIndex(path.join(tmp, 'none'));
  assert.is(r0.meta.docCount, 0);
  assert.throws(() => r0.doc(0), /no document 0/);
  r0.close();
  const one = page(0, 'only');
  await build(path.join(tmp, 'one'), [one]);
  const r1 = await openIndex(path.join(tmp, 'one'));
  assert.equal(r1.doc(0), storedOf(one));
  r1.close();
});

test('stored fields: a damaged block, or a count that disagrees with the index, is refused naming the file', async () => {
  const dir = path.join(tmp, 'damaged');
  fs.cpSync(path.join(tmp, 'many'), dir, { recursive: true });
  const file = path.join(dir, INDEX_FILES.docs);
  const payload = readIndexFile(dir, INDEX_FILES.docs);
  // The data column is last: damage its last bytes and write the file anew (a valid checksum), so the block itself is refused.
  const bad = Buffer.from(payload);
  bad.fill(0x55, bad.length - 64);
  writeIndexFile(dir, INDEX_FILES.docs, bad);
  const r = await openIndex(dir);
  try {
    assert.throws(() => r.doc(499), (e: Error) => e.message.includes(file) && /damaged block|records/.test(e.message));
  } finally {
    r.close();
  }
  // Another index's stored fields: whole and valid, but of one document.
  fs.copyFileSync(path.join(tmp, 'one', INDEX_FILES.docs), file);
  await openIndex(dir).then(
    (r) => (r.close(), assert.unreachable('opened an index whose files disagree')),
    (e: Error) => assert.ok(e.message.includes(file) && e.message.includes('number of documents'), e.message),
  );
});

test.run();
