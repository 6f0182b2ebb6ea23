/**
 * Postings of formats 8–10, whose blocks hold each posting's forward-index
 * entry and whose file keeps every block's bound, still read: a block of that
 * layout decodes to the documents and frequencies a format 11 block of the
 * same postings does (whole, or at a few places), and an index whose postings file is laid out so
 * answers every term, and every block's bound, as the one written now. The
 * older blocks are made here as those releases wrote them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { INDEX_FILES, packColumns, readIndexFile, unpackColumns, writeIndexFile } from '../../../shared/index/format.js';
import { BLOCK, blockBuffers, decodeBlock, decodePlaces, encodeBlock, type DecodedBlock } from '../../../shared/index/postings-codec.js';
import { openIndex } from '../../../shared/index/reader.js';
import { FIELDS } from '../../../shared/index/types.js';
import { IndexWriter } from '../../../shared/index/writer.js';
import { rng } from '../../fixtures/rng.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-postings-older-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const bitsOf = (v: number) => 32 - Math.clz32(v);

/** A block of postings `b` with their `entries` as formats 8–10 wrote it: [n | doc bits << 8 | entry bits << 14, tf bits, first entry, doc gaps, entry gaps, tfs]. */
function olderBlock(b: DecodedBlock, entries: ArrayLike<number>, prevDoc: number): Uint32Array {
  const { n } = b;
  const docGaps = Array.from({ length: n }, (_, i) => b.docs[i]! - (i ? b.docs[i - 1]! : prevDoc) - 1);
  const entryGaps = Array.from({ length: n - 1 }, (_, i) => entries[i + 1]! - entries[i]! - 1);
  const tfs = b.tf.map((col) => Array.from(col.subarray(0, n)));
  const widths = [docGaps, entryGaps, ...tfs].map((vs) => bitsOf(vs.reduce((m, v) => m | v, 0)));
  const values = [docGaps, entryGaps, ...tfs].flatMap((vs, c) => vs.map((v) => [v, widths[c]!] as const));
  const words = new Uint32Array(3 + Math.ceil(values.reduce((s, [, w]) => s + w, 0) / 32));
  words[0] = n | (widths[0]! << 8) | (widths[1]! << 14);
  words[1] = widths.slice(2).reduce((s, w, f) => s | (w << (5 * f)), 0);
  words[2] = entries[0]!;
  let bit = 96;
  for (const [v, w] of values) for (let k = 0; k < w; k++, bit++) if ((v >>> k) & 1) words[bit >>> 5]! |= 1 << (bit & 31);
  return words;
}

test('postings codec: a block with entries (formats 8–10) decodes to the documents and frequencies of the block written now, which is smaller', () => {
  const rnd = rng(3);
  const b = blockBuffers();
  const cases: [string, number[], number][] = [
    ['one posting, the largest id', [0xffffffff], -1],
    ['after a previous block', Array.from({ length: BLOCK }, (_, i) => 1000 + 3 * i), 999],
    ['random', [...new Set(Array.from({ length: 200 }, () => Math.floor(rnd() * 2 ** 31)))].sort((x, y) => x - y).slice(0, 127), -1],
  ];
  for (const [name, docs, prev] of cases) {
    b.n = docs.length;
    b.docs.set(docs);
    b.tf.forEach((col, f) => col.set(docs.map((_, i) => (f === 1 ? 0 : (i * 7919 * (f + 1)) % 65536))));
    const entries = docs.map((_, i) => (i === docs.length - 1 ? 0xffffffff : i * 33_000_000));
    const older = olderBlock(b, entries, prev);
    const now = encodeBlock(b, prev);
    assert.ok(now.length < older.length, `${name}: ${now.length} words, not fewer than ${older.length}`);
    for (const [layout, words] of [['older', older], ['now', now]] as const) {
      const out = blockBuffers();
      const framed = Uint32Array.of(7, ...words, 9);
      assert.is(decodeBlock(framed, 1, prev, out), docs.length, `${name}, ${layout}`);
      assert.equal([...out.docs.subarray(0, docs.length)], docs, `${name}, ${layout}`);
      for (let f = 0; f < FIELDS.length; f++) assert.equal(out.tf[f]!.subarray(0, docs.length), b.tf[f]!.subarray(0, docs.length), `${name}, ${layout}: ${FIELDS[f]}`);
      // Looked up at every other place, past the entries of an older block.
      const places = docs.map((_, i) => i).filter((i) => i % 2 === 0);
      const at = blockBuffers();
      decodePlaces(framed, 1, places, places.length, at);
      for (let f = 0; f < FIELDS.length; f++) assert.equal([...at.tf[f]!.subarray(0, places.length)], places.map((p) => b.tf[f]![p]!), `${name}, ${layout}: ${FIELDS[f]} at places`);
    }
  }
});

test('postings file: an index whose blocks hold entries and every block its bound (formats 8–10) reads every term\'s postings, frequencies, blocks and bounds as one written now', async () => {
  const rnd = rng(11);
  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa'.split(' ');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  for (let i = 0; i < 400; i++) {
    const content = Array.from({ length: 5 + Math.floor(rnd() * 60) }, () => words[Math.floor(words.length * rnd() ** 2)]!).join(' ');
    const host = `s${i % 3}.test`;
    w.add({
      url: `http://${host}/p${i}`, title: `page ${i % 7}`, content, host, site: host, domain: host, type: 'text/html', lang: 'en', date: '20240101',
      tstamp: 1, digest: `d${i}`, boost: rnd() * 3, segment: '20240101000000', contentLength: content.length, anchors: [], headings: [],
    });
  }
  const now = path.join(tmp, 'now');
  await w.write(now);
  const older = path.join(tmp, 'older');
  fs.cpSync(now, older, { recursive: true });
  // The postings file again, each block with its documents' entries as the forward index numbers them, and its bound.
  const r = await openIndex(now);
  const cols = unpackColumns(readIndexFile(now, INDEX_FILES.postings), INDEX_FILES.postings);
  const data: number[] = [];
  const at: number[] = [];
  const bounds: Record<string, number[]> = Object.fromEntries([...FIELDS.flatMap((f) => [`block.maxtf.${f}`, `block.minlen.${f}`]), 'block.boost'].map((c) => [c, []]));
  const buf = blockBuffers();
  for (let t = 0; t < r.meta.termCount; t++) {
    const tb = r.postingBlocks(t);
    for (let k = 0; k < tb.blocks; k++) {
      const n = tb.decode(k, buf);
      at.push(data.length);
      data.push(...olderBlock(buf, Array.from(buf.docs.subarray(0, n), (d) => r.entry(d, t)), k ? tb.last[k - 1]! : -1));
      FIELDS.forEach((f, i) => (bounds[`block.maxtf.${f}`]!.push(tb.maxTf[i]![k]!), bounds[`block.minlen.${f}`]!.push(tb.minLength[i]![k]!)));
      bounds['block.boost']!.push(tb.maxBoost[k]!);
    }
  }
  at.push(data.length);
  assert.ok(at.length - 1 > r.meta.termCount, `${at.length - 1} blocks of ${r.meta.termCount} terms: none of more than one`);
  assert.ok(cols['block.boost']!.length < at.length - 1, 'a file written now keeps fewer bounds than blocks');
  const everyBound = Object.fromEntries(Object.entries(bounds).map(([c, vs]) => [c, new (cols[c]!.constructor as new (v: number[]) => Uint16Array | Uint32Array | Float64Array)(vs)]));
  writeIndexFile(older, INDEX_FILES.postings, packColumns({ ...cols, ...everyBound, 'block.at': Uint32Array.from(at), data: Uint32Array.from(data) }));
  assert.ok(fs.statSync(path.join(older, INDEX_FILES.postings)).size > fs.statSync(path.join(now, INDEX_FILES.postings)).size, 'the older file is the larger');
  const o = await openIndex(older);
  const other = blockBuffers();
  for (let t = 0; t < r.meta.termCount; t++) {
    assert.equal([...o.postings(t).docs], [...r.postings(t).docs], words[t]);
    assert.equal(o.postingTfs(t), r.postingTfs(t), `term ${t}: frequencies`);
    const [a, b] = [r.postingBlocks(t), o.postingBlocks(t)];
    assert.equal([b.maxTf, b.minLength, b.maxBoost], [a.maxTf, a.minLength, a.maxBoost], `term ${t}: bounds`);
    for (let k = 0; k < a.blocks; k++) {
      const n = a.decode(k, buf, false);
      assert.is(b.decode(k, other, false), n);
      assert.equal(other.docs.subarray(0, n), buf.docs.subarray(0, n), `term ${t} block ${k}: documents alone`);
    }
  }
  r.close();
  o.close();
});

test.run();
