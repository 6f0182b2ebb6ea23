/**
 * The forward index's frequencies in a byte and a 16-bit code an entry:
 * the rule as a table (values that fit, the escapes at the edges), then
 * an index of pages whose frequencies overflow their place, read back
 * entry by entry and through docEntries (as merge reads it) with the
 * frequencies the postings hold.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { openIndex } from '../../../shared/index/reader.js';
import { BYTE_ESCAPE, decodeTfs, escapes, NIBBLE_ESCAPE, overKey, tfByte, tfCode, tfCounts, tfOf } from '../../../shared/index/tf-codes.js';
import { FIELDS, type IndexInputDoc } from '../../../shared/index/types.js';
import { IndexWriter } from '../../../shared/index/writer.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-tfcodes-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// title, anchor, url, heading, content
const CASES: [number[], number][] = [
  [[0, 0, 0, 0, 1], 0],
  [[0, 0, 0, 0, 0], 0],
  [[1, 2, 3, 4, 254], 0],
  [[14, 14, 14, 14, 200], 0],
  [[15, 0, 0, 0, 1], 1],
  [[0, 0, 0, 0, 255], 1],
  [[0, 300, 0, 16, 65535], 3],
  [[65535, 65535, 65535, 65535, 65535], 5],
];

test('tf-codes: each field read back from the byte and code, or left to the overflow list', () => {
  assert.equal([...FIELDS], ['title', 'anchor', 'url', 'heading', 'content']);
  for (const [tf, over] of CASES) {
    const tfs = tf.map((v) => [v]);
    const byte = tfByte(tf[4]!);
    const code = tfCode(tfs, 0);
    assert.ok(byte <= 0xff && code <= 0xffff, `${tf}`);
    assert.is(escapes(byte, code), over, `${tf}`);
    const limit = (f: number) => (f === 4 ? BYTE_ESCAPE : NIBBLE_ESCAPE);
    tf.forEach((v, f) => assert.is(tfOf(byte, code, f), v < limit(f) ? v : -1, `${tf} field ${f}`));
  }
});

test("tf-codes: a document's counts are its entries' escapes, coded entries and kept bytes, summed", () => {
  // The cases as one document's entries, field-major; an entry is coded when a field other than the content has it.
  const n = CASES.length;
  const tf = new Uint16Array(FIELDS.length * n);
  CASES.forEach(([v], k) => v.forEach((x, f) => (tf[f * n + k] = x)));
  const counts = { overflow: 0, coded: 0, bytesKept: 0 };
  tfCounts(tf, n, 1, counts);
  assert.equal(counts, { overflow: CASES.reduce((s, [, over]) => s + over, 0), coded: 5, bytesKept: 6 });
  // Added to what is there: a second document of the same entries doubles them, an empty one adds nothing.
  tfCounts(tf, n, 1, counts);
  tfCounts(tf.subarray(0, 0), 0, 1, counts);
  assert.equal(counts, { overflow: 20, coded: 10, bytesKept: 12 });
  const byZero = { overflow: 0, coded: 0, bytesKept: 0 };
  tfCounts(tf, n, 0, byZero);
  assert.is(byZero.bytesKept, 7);
});

test('tf-codes: a window decoded field-major, the overflowing values asked for by entry and field', () => {
  const bytes = Uint8Array.of(7, 1, BYTE_ESCAPE, 2);
  const codes = Uint16Array.of(0, tfCode([[15], [1], [0], [2], [0]], 0), tfCode([[0], [0], [0], [0], [0]], 0), 0);
  const asked: number[] = [];
  const tf = decodeTfs(bytes, codes, 1, 3, 100, (entry, f) => (asked.push(overKey(entry, f)), entry * 10 + f));
  // Entries 101 and 102 of the index: title of 101 and content of 102 overflow.
  assert.equal([...tf], [1010, 0, 1, 0, 0, 0, 2, 0, 1, 1024]);
  assert.equal(asked, [overKey(101, 0), overKey(102, 4)]);
});

/** Pages whose counts overflow: a word 300 times in the content, 20 times in headings, 40 anchors with the same word. */
function pages(): IndexInputDoc[] {
  return Array.from({ length: 30 }, (_, i) => {
    const content = `${'often '.repeat(i % 2 ? 300 : 3)} plain words here p${i}`;
    const host = 'h.test';
    return {
      url: `http://${host}/p${i}`, title: `title ${'twice '.repeat(i % 3 ? 20 : 1)}`, content, host, site: host, domain: host,
      type: 'text/html', lang: 'en', date: '20240101', tstamp: 1, digest: `d${i}`, boost: 1, segment: '20240101000000',
      contentLength: content.length, anchors: Array.from({ length: i % 5 ? 40 : 1 }, () => 'link text'), headings: Array.from({ length: i % 4 ? 20 : 1 }, () => 'head'),
    };
  });
}

test('tf-codes: frequencies past a byte or a nibble come back exact, entry by entry, in the postings and through docEntries', async () => {
  const dir = path.join(tmp, 'over');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  for (const d of pages()) w.add(d);
  await w.write(dir);
  const r = await openIndex(dir);
  try {
    const expect = (i: number): Record<string, number[]> => ({
      often: [0, 0, 0, 0, i % 2 ? 300 : 3],
      twice: [i % 3 ? 20 : 1, 0, 0, 0, 0],
      link: [0, i % 5 ? 40 : 1, 0, 0, 0],
      head: [0, 0, 0, i % 4 ? 20 : 1, 0],
    });
    const words = r.terms();
    let overflowing = 0;
    for (const [id, , e] of r.docEntries()) {
      const i = Number(/p(\d+)$/.exec(r.doc(id).url)![1]);
      const n = e.terms.length;
      for (const [word, want] of Object.entries(expect(i))) {
        const t = r.termId(word);
        const entry = r.entry(id, t);
        assert.ok(entry >= 0, word);
        assert.equal(FIELDS.map((_, f) => r.entryTf(entry, f)), want, `${word} in page ${i}`);
        const k = [...e.terms].findIndex((x) => words[x] === word);
        assert.equal(FIELDS.map((_, f) => e.tf[f * n + k]), want, `${word} in page ${i} through docEntries`);
        const p = [...r.postings(t).docs].indexOf(id);
        assert.equal(r.postingTfs(t).map((tf) => tf[p]), want, `${word} in page ${i} in the postings`);
        overflowing += want.filter((v, f) => v >= (f === 4 ? BYTE_ESCAPE : NIBBLE_ESCAPE)).length;
      }
    }
    assert.ok(overflowing > 30, `${overflowing} overflowing frequencies`);
  } finally {
    r.close();
  }
});

test.run();
