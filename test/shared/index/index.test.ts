import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { analyzeDoc } from '../../../shared/index/document.js';
import { EntryBuilder, type DocEntries } from '../../../shared/index/entries.js';
import { columnSource, DELETED_FILE, INDEX_FILES, INDEX_FORMAT_VERSION, OLDEST_SUPPORTED, packColumns, PackedColumnsWriter, readIndexFile, unpackColumns, writeIndexFile, writeIndexFileWith, writePackedColumns } from '../../../shared/index/format.js';
import { currentIndex, publishIndex, removeSuperseded } from '../../../shared/index/publish.js';
import { openIndex } from '../../../shared/index/reader.js';
import { FIELDS, type IndexInputDoc } from '../../../shared/index/types.js';
import { IndexWriter } from '../../../shared/index/writer.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-index-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function doc(url: string, title: string, content: string, extra: Partial<IndexInputDoc> = {}): IndexInputDoc {
  const host = new URL(url).host;
  return {
    url, title, content, host, site: host, domain: host, type: 'text/html', lang: 'en', date: '20240101',
    tstamp: 1_700_000_000_000, digest: 'd-' + url, boost: 1, segment: '20240101000000', contentLength: content.length,
    anchors: [], ...extra,
  };
}

const DOCS = [
  doc('http://a.test/crawler', 'Web crawler basics', 'A web crawler fetches pages. The crawler follows links and the crawler obeys robots.', { anchors: ['crawler guide', 'basics'], headings: ['Crawler politeness', 'Robots'] }),
  doc('http://a.test/index', 'Building an index', 'The indexer writes an inverted index of every fetched page.', { lang: 'de' }),
  doc('http://b.test/search', 'Search ranking', 'Ranking uses term statistics; a crawler is not involved.', { type: 'text/plain' }),
  doc('http://b.test/munich', 'München travel', 'Visit München and eat Äpfel. 東京都に住んでいます.'),
];

async function build(dir: string, docs = DOCS, analyzer = new Analyzer()) {
  const w = new IndexWriter({ analyzer, segments: ['20240101000000'] });
  for (const d of docs) w.add(d);
  return w.write(dir);
}

test('reader: positions far apart (gaps of one to four varint bytes) read back as written, whole or the first n', async () => {
  const dir = path.join(tmp, 'far');
  // "needle" at title position 0 and after gaps of 1, 127, 128, 16,383, 16,384 and 2,097,152 filler words.
  const gaps = [1, 127, 128, 16_383, 16_384, 2_097_152];
  const words: string[] = [];
  // Pushed one by one: spreading two million words overflows the call stack.
  for (const g of gaps) {
    for (let i = 1; i < g; i++) words.push('hay');
    words.push('needle');
  }
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], maxTokens: 3_000_000 });
  w.add(doc('http://far.test/', 'needle', words.join(' ')));
  await w.write(dir);
  const r = await openIndex(dir);
  const expected = gaps.reduce((at, g) => [...at, at[at.length - 1]! + g], [0]);
  assert.equal(r.positions(0, 'needle'), expected);
  const e = r.entry(0, r.termId('needle'));
  assert.equal(r.entryPositions(e, 4), expected.slice(0, 4));
});

test('writer/reader: statistics round trip', async () => {
  const dir = path.join(tmp, 'rt');
  const meta = await build(dir);
  assert.is(meta.docCount, 4);
  const r = await openIndex(dir);
  assert.is(r.meta.docCount, 4);
  assert.is(r.meta.version, INDEX_FORMAT_VERSION);
  assert.equal(r.meta.analyzer, { stemEnglish: false, englishStemmer: 'porter2', decompound: false });
  assert.is(r.doc(0).url, 'http://a.test/crawler');
  assert.equal(r.doc(0).anchors, ['crawler guide', 'basics']);
  assert.is(r.idOf('http://b.test/search'), 2);
  assert.is(r.idOf('http://nowhere.test/'), undefined);
  assert.is(r.termFreq(0, 'content', 'crawler'), 3);
  assert.is(r.termFreq(0, 'title', 'crawler'), 1);
  assert.is(r.termFreq(0, 'anchor', 'crawler'), 1);
  assert.is(r.termFreq(0, 'url', 'crawler'), 1);
  assert.is(r.termFreq(0, 'heading', 'crawler'), 1);
  assert.is(r.termFreq(0, 'heading', 'politeness'), 1);
  assert.is(r.termFreq(0, 'content', 'politeness'), 0, 'headings are a field of their own, the body is the parse text');
  assert.is(r.fieldLength(0, 'heading'), 3);
  assert.is(r.fieldLength(1, 'heading'), 0);
  assert.is(r.docFreq('heading', 'robots'), 1);
  assert.is(r.termFreq(1, 'content', 'crawler'), 0);
  assert.is(r.docFreq('content', 'crawler'), 2);
  assert.is(r.docFreq('title', 'crawler'), 1);
  assert.is(r.docFreq('content', 'nonexistent'), 0);
  assert.is(r.fieldLength(0, 'title'), 3);
  assert.is(r.fieldLength(0, 'anchor'), 3);
  assert.is(r.fieldLength(0, 'url'), 4); // a.test, a, test, crawler
  // title is "web crawler basics" (0..2); content starts at 3: "a web crawler fetches pages ..."
  assert.equal(r.positions(0, 'crawler'), [1, 5, 9, 14]);
  assert.equal(r.positions(0, 'guide'), []);
  assert.is(r.termFreq(3, 'content', '東京'), 1);
  assert.is(r.termFreq(3, 'title', 'munchen'), 1);
  const expected = r.meta.avgFieldLength.title;
  assert.ok(Math.abs(expected - (3 + 3 + 2 + 2) / 4) < 1e-9);
});

test('reader: candidates AND first, then partial matches, tag filters', async () => {
  const r = await openIndex(path.join(tmp, 'rt'));
  const c = (terms: string[], tags = {}) => r.candidates(terms, { limit: 10, tags });
  assert.equal(c(['crawler']).sort(), [0, 2]);
  const both = c(['crawler', 'ranking']);
  assert.is(both[0], 2, 'the document with both terms comes first');
  assert.ok(both.includes(0), 'then partial matches');
  assert.equal(c(['crawler', 'ranking']).slice(0, 1), [2]);
  assert.equal(r.candidates(['crawler', 'ranking'], { limit: 1 }), [2]);
  assert.equal(c(['crawler'], { site: 'b.test' }), [2]);
  assert.equal(c(['crawler'], { type: 'text/html' }), [0]);
  assert.equal(c([], { lang: 'de' }), [1]);
  assert.equal(c([], { site: 'a.test', lang: 'en' }), [0]);
  assert.equal(c([]), []);
  assert.equal(c(['guide']), [0], 'anchor text is retrievable');
  assert.equal(c([r.analyzer.term('MÜNCHEN')!]), [3]);
});

test('reader: analyzed() gives back what the writer took', async () => {
  const r = await openIndex(path.join(tmp, 'rt'));
  const a = new Analyzer();
  for (let id = 0; id < DOCS.length; id++) {
    const want = analyzeDoc(a, DOCS[id]!, 10_000);
    const got = r.analyzed(id);
    assert.equal(got.stream, want.stream);
    assert.is(got.titleLength, want.titleLength);
    assert.equal([...got.anchor].sort(), [...want.anchor].sort());
    assert.equal([...got.url].sort(), [...want.url].sort());
    assert.equal([...got.heading].sort(), [...want.heading].sort());
    assert.equal(got.stored, r.doc(id));
  }
});

/** The index's entries of a document as a map from term to frequencies and positions, whatever their order. */
function entryMap(words: readonly string[], e: DocEntries): Map<string, { tf: number[]; positions: number[] }> {
  const n = e.terms.length;
  const out = new Map<string, { tf: number[]; positions: number[] }>();
  for (let k = 0; k < n; k++) {
    const positions: number[] = [];
    for (let p = k ? e.posEnd[k - 1]! : 0, prev = 0; p < e.posEnd[k]!; ) {
      let v = 0;
      for (let shift = 0; ; shift += 7) {
        const b = e.posData[p++]!;
        v += (b & 0x7f) * 2 ** shift;
        if (!(b & 0x80)) break;
      }
      positions.push((prev += v));
    }
    out.set(words[e.terms[k]!]!, { tf: FIELDS.map((_, f) => e.tf[f * n + k]!), positions });
  }
  return out;
}

test('reader: docEntries() reads every document in order, a window at a time, as the writer stores what analyzed() gives back', async () => {
  const dir = path.join(tmp, 'windows');
  const many = Array.from({ length: 1100 }, (_, i) => DOCS[i % DOCS.length]!).map((d, i) => ({ ...d, url: `${d.url}/${i}`, content: `${d.content} page${i}`.repeat(1 + (i % 3)) }));
  await build(dir, many);
  const r = await openIndex(dir);
  let n = 0;
  const words = r.terms();
  const ids = new Map(words.map((w, i) => [w, i]));
  const builder = new EntryBuilder();
  for (const [id, stored, e] of r.docEntries()) {
    assert.is(id, n++);
    const a = r.analyzed(id);
    const want = builder.build({
      title: a.stream.slice(0, a.titleLength).map((w) => ids.get(w)!),
      anchor: a.anchor.map((w) => ids.get(w)!),
      content: a.stream.slice(a.titleLength).map((w) => ids.get(w)!),
      url: a.url.map((w) => ids.get(w)!),
      heading: a.heading.map((w) => ids.get(w)!),
    });
    assert.equal(stored, a.stored);
    assert.equal([...e.lengths], [...want.lengths]);
    assert.equal(entryMap(words, e), entryMap(words, want));
  }
  assert.is(n, many.length);
  const kept = [...r.docEntries((id) => id % 7 === 3)];
  assert.equal(
    kept.map(([id]) => id),
    Array.from({ length: Math.ceil((many.length - 3) / 7) }, (_, i) => 7 * i + 3),
    'only the documents kept are read out',
  );
  const [id, stored, e] = kept[kept.length - 1]!;
  assert.equal(stored, r.analyzed(id).stored);
  assert.equal(entryMap(words, e), entryMap(words, [...r.docEntries()][id]![2]));
});

/** Documents of every kind the writer meets: repeats, anchors and headings, CJK, a term more frequent than 16 bits count. */
function varied(): IndexInputDoc[] {
  const many = Array.from({ length: 300 }, (_, i) => DOCS[i % DOCS.length]!).map((d, i) => ({
    ...d,
    url: `${d.url}/${i}`,
    content: `${d.content} page${i % 17} ${d.title}`.repeat(1 + (i % 5)),
    anchors: i % 3 ? [`anchor ${i % 7}`, 'crawler guide', `page${i % 17}`] : [],
    headings: i % 2 ? [`Part ${i % 4}`, d.title] : [],
  }));
  return [...many, doc('http://c.test/spam', 'Spam spam', 'spam '.repeat(70_000) + 'eggs')];
}

/**
 * SHA-256 (first 16 hex digits) of the payload of each file `varied()` builds (the header, with its version and
 * checksum, is the format tests'), taken when the writer spilled token streams instead of entries (postings
 * and docinfo: when they were added; postings again when they went into compressed blocks, format 8; forward: when its
 * frequencies took three bytes an entry; sections: when its run starts took 16-bit offsets, which the positions,
 * holding a run of 70,000, do not, and again when pages indexed whole kept no section runs, format 9; docs: when stored
 * fields went into deflated blocks; docinfo again when it kept each page's text weight; positions when they kept
 * every 16th run's start only, and forward when its overflow list kept the spam's count of 70,000 uncapped and it kept
 * only the frequency codes that are not zero, format 10; postings when their blocks kept no entries and a term of one block no bound, and forward its content frequency bytes only where not 1, format 11; forward when its term ids went into groups of
 * a base, a width and gaps, format 12: forward-older.test.ts reads the layout of format 11; positions when each entry's first one took its
 * page's width of bits, format 13: positions-older.test.ts reads the layout of format 12).
 */
const GOLDEN = {
  docs: 'a519ca128521c0ab',
  forward: 'b3437fcf370825c7',
  positions: '9db7712900700a9a',
  terms: '3f9a574fc43594ca',
  sections: '3408dd3a38732e6a',
  postings: '8b0287653e530334',
  docinfo: 'febbfebad67d75dd',
};

test('writer: the index files of a fixed set of documents keep their bytes', async () => {
  const dir = path.join(tmp, 'golden');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], maxTokens: 100_000, postingsBatch: 1000 });
  for (const d of varied()) w.add(d);
  await w.write(dir);
  // The payloads: a file's header (its version and checksum) is checked by the format's tests.
  const sha = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, f)).subarray(40)).digest('hex').slice(0, 16);
  assert.equal(Object.fromEntries(Object.keys(GOLDEN).map((f) => [f, sha(f)])), GOLDEN);
  const r = await openIndex(dir);
  assert.is(r.termFreq(300, 'content', 'spam'), 0xffff, 'a frequency past 16 bits is stored as the largest');
  assert.is(r.positions(300, 'spam').length, 70_002, 'every position is kept');
});

test('docinfo: each page\'s text weight, 1 for a page without one, and 1 for every page of an index written before pages had one', async () => {
  const dir = path.join(tmp, 'prose');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  w.add(doc('http://p.test/index', 'Index', 'alpha beta gamma', { prose: 0.25 }));
  w.add(doc('http://p.test/page', 'Page', 'alpha in prose'));
  await w.write(dir);
  let r = await openIndex(dir);
  assert.equal([r.prose(0), r.prose(1)], [0.25, 1]);
  assert.is(r.doc(0).prose, 0.25);
  r.close();
  // The same docinfo without the column, as an index written before it was kept.
  const cols = unpackColumns(readIndexFile(dir, INDEX_FILES.docinfo), 'docinfo');
  assert.ok('prose' in cols);
  delete cols.prose;
  writeIndexFileWith(dir, INDEX_FILES.docinfo, (out) => writePackedColumns(out, Object.entries(cols).map(([name, c]) => columnSource(name, c))));
  r = await openIndex(dir);
  assert.equal([r.prose(0), r.prose(1)], [1, 1]);
  assert.equal([r.boost(0), r.idOf('http://p.test/page')], [1, 1], 'the other columns read as before');
  r.close();
});

test('writer: spill files go when the index is written, and a killed build\'s with the next build', async () => {
  const spillDir = path.join(tmp, 'spill');
  const dead = path.join(spillDir, `hz-spill-0a0a0a0a-${spawnSync(process.execPath, ['-e', '']).pid}`);
  const live = path.join(spillDir, `hz-spill-0b0b0b0b-${process.pid}`);
  for (const d of [dead, live]) fs.mkdirSync(d, { recursive: true });
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], spillDir });
  assert.not.ok(fs.existsSync(dead), 'the dead build\'s spill directory is removed');
  assert.ok(fs.existsSync(live), 'a running build\'s is kept');
  fs.rmSync(live, { recursive: true });
  for (const d of DOCS) w.add(d);
  await w.write(path.join(tmp, 'spilled'));
  assert.equal(fs.readdirSync(spillDir), []);
  assert.is((await openIndex(path.join(tmp, 'spilled'))).meta.docCount, DOCS.length);
});

test('writer: content past maxTokens terms is left out (indexer.max.tokens)', async () => {
  const dir = path.join(tmp, 'capped');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], maxTokens: 3 });
  w.add(doc('http://c.test/long', 'Long', 'one two three four five six'));
  await w.write(dir);
  const r = await openIndex(dir);
  assert.is(r.fieldLength(0, 'content'), 3);
  assert.is(r.termFreq(0, 'content', 'three'), 1);
  assert.is(r.termFreq(0, 'content', 'four'), 0);
});

test('sections: each term\'s sections and its count in each, over the whole content (past maxTokens too), kept by a merge', async () => {
  const text = 'intro words here\nFirst alpha beta alpha\nSecond gamma alpha delta';
  const at = (w: string) => text.indexOf(w);
  const docs = [
    doc('http://s.test/sections', 'Sections', text, { sections: [at('First'), at('Second')] }),
    doc('http://s.test/plain', 'Plain', text),
    // A cut inside a word (no white space before it) is no section start: one section is none.
    doc('http://s.test/inside', 'Inside', text, { sections: [at('irst')] }),
    // An empty lead (a heading at 0) is no section of its own.
    doc('http://s.test/lead', 'Lead', 'First alpha\nSecond alpha', { sections: [0, 'First alpha\n'.length] }),
  ];
  const dir = path.join(tmp, 'sections');
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], maxTokens: 6 });
  for (const d of docs) w.add(d);
  await w.write(dir);
  const r = await openIndex(dir);
  const runs = (id: number, term: string) => {
    const e = r.entry(id, r.termId(term));
    return e < 0 ? undefined : r.entrySections(e);
  };
  const table: [number, number[], Record<string, number[] | undefined>][] = [
    // Capped at 6 terms: intro words here first alpha beta | alpha second gamma alpha delta counted in sections only.
    [0, [3, 4, 4], { intro: [0, 1], alpha: [1, 2, 2, 1], beta: [1, 1], gamma: undefined }],
    [1, [], { alpha: [] }],
    [2, [], { alpha: [] }],
    [3, [2, 2], { alpha: [0, 1, 1, 1], first: [0, 1], second: [1, 1] }],
  ];
  for (const [id, lengths, terms] of table) {
    assert.equal(Array.from(r.sectionLengths(id)), lengths, `${docs[id]!.url} section lengths`);
    for (const [t, want] of Object.entries(terms)) assert.equal(runs(id, t), want, `${docs[id]!.url} ${t}`);
  }
  assert.is(r.termFreq(0, 'content', 'alpha'), 1, 'the page\'s own statistics stay capped');
  assert.ok(!r.terms().includes('gamma') && !r.terms().includes('delta'), 'a word only past the cap adds nothing to the dictionary');
  assert.is(r.meta.avgSectionLength, (3 + 4 + 4 + 2 + 2) / 5);
  assert.is(r.meta.sectionCount, 5);

  // A merge (docEntries into a new writer, as merge does) keeps them.
  const merged = path.join(tmp, 'sections-merged');
  const m = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] });
  const words = r.terms();
  for (const [, stored, e] of r.docEntries()) m.addEntries(stored, { ...e, terms: Uint32Array.from(e.terms, (t) => m.termId(words[t]!)) });
  await m.write(merged);
  const r2 = await openIndex(merged);
  for (const [id, lengths, terms] of table) {
    assert.equal(Array.from(r2.sectionLengths(id)), lengths);
    for (const [t, want] of Object.entries(terms)) {
      const e = r2.entry(id, r2.termId(t));
      assert.equal(e < 0 ? undefined : r2.entrySections(e), want, `merged ${docs[id]!.url} ${t}`);
    }
  }
  assert.is(r2.meta.avgSectionLength, r.meta.avgSectionLength);
});

test('reader: deletions beside the index are honoured', async () => {
  const dir = path.join(tmp, 'del');
  await build(dir);
  writeIndexFile(dir, DELETED_FILE, packColumns({ ids: Uint32Array.of(0) }));
  const r = await openIndex(dir);
  assert.is(r.meta.deletedCount, 1);
  assert.ok(r.isDeleted(0));
  assert.ok(!r.isDeleted(2));
  assert.equal(r.candidates(['crawler'], { limit: 10 }), [2]);
});

test('format: a corrupt file is refused, naming it', async () => {
  const dir = path.join(tmp, 'corrupt');
  await build(dir);
  const f = path.join(dir, INDEX_FILES.forward);
  const b = fs.readFileSync(f);
  b[b.length - 3] ^= 0xff;
  fs.writeFileSync(f, b);
  await openIndex(dir).then(
    () => assert.unreachable('opened a corrupt index'),
    (e: Error) => assert.match(e.message, new RegExp(`${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} fails its checksum`)),
  );
  fs.writeFileSync(f, b.subarray(0, b.length - 10));
  await openIndex(dir).then(
    () => assert.unreachable('opened a truncated index'),
    (e: Error) => assert.match(e.message, /is truncated/),
  );
});

test('format: a file verified before is verified again once it changes, rewritten in place or replaced', async () => {
  const dir = path.join(tmp, 'changed');
  await build(dir);
  const f = path.join(dir, INDEX_FILES.forward);
  // Written long ago, so its verification is remembered.
  const past = new Date(Date.now() - 3_600_000);
  for (const name of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, name), past, past);
  (await openIndex(dir)).docEntries(() => true).next();
  const good = fs.readFileSync(f);
  const bad = Buffer.from(good);
  bad[bad.length - 3] ^= 0xff;
  const refused = async (what: string) =>
    openIndex(dir).then(
      () => assert.unreachable(`opened ${what}`),
      (e: Error) => assert.match(e.message, /forward fails its checksum/),
    );
  const fd = fs.openSync(f, 'r+');
  fs.writeSync(fd, bad, bad.length - 3, 1, bad.length - 3);
  fs.closeSync(fd);
  await refused('a file changed in place');
  fs.writeFileSync(`${f}.new`, bad);
  fs.utimesSync(`${f}.new`, past, past);
  fs.renameSync(`${f}.new`, f);
  await refused('a file replaced by a corrupt one');
  assert.throws(() => readIndexFile(dir, INDEX_FILES.forward), /fails its checksum/);
});

test('format: a file whose writing failed is left without a header, so it is never read as whole', () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'failed-'));
  writeIndexFileWith(dir, 'ok', (w) => (w.write(Buffer.from('ab')), w.write(Buffer.from('cd'))));
  assert.is(readIndexFile(dir, 'ok').toString(), 'abcd');
  assert.throws(() => writeIndexFileWith(dir, 'failed', (w) => (w.write(Buffer.from('ab')), fail())), /disk full/);
  assert.throws(() => readIndexFile(dir, 'failed'), /is not a hazelnut index file/);
});

test('format: columns written in place side by side, in pieces of any size, are the bytes packColumns makes', () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'packed-'));
  // Odd lengths (padding between columns) and a column past one buffer (1 MB) written in small and large pieces.
  const cols = {
    a: Uint32Array.from({ length: 300_001 }, (_, i) => i * 2654435761),
    b: Uint16Array.from({ length: 1001 }, (_, i) => i * 7),
    c: Uint8Array.from({ length: 3 }, (_, i) => i + 1),
    d: new Uint32Array(0),
  };
  const w = new PackedColumnsWriter(dir, 'forward', Object.entries(cols).map(([name, c]) => ({ name, type: c instanceof Uint32Array ? 'u32' : c instanceof Uint16Array ? 'u16' : 'u8', length: c.length })));
  const bytes = (c: Uint8Array | Uint16Array | Uint32Array, from: number, to: number) => new Uint8Array(c.buffer, from * c.BYTES_PER_ELEMENT, (to - from) * c.BYTES_PER_ELEMENT);
  for (let i = 0; i < 1001; i++) {
    w.append(0, bytes(cols.a, i * 7, i * 7 + 7));
    w.append(1, bytes(cols.b, i, i + 1));
  }
  w.append(0, bytes(cols.a, 7007, 300_001));
  w.append(2, cols.c);
  w.close();
  assert.ok(readIndexFile(dir, 'forward').equals(packColumns(cols)));

  const short = new PackedColumnsWriter(dir, 'short', [{ name: 'a', type: 'u32', length: 2 }]);
  short.append(0, bytes(cols.a, 0, 1));
  assert.throws(() => short.close(), /column a: 4 bytes short/);
  assert.throws(() => readIndexFile(dir, 'short'), /is not a hazelnut index file/);
  const long = new PackedColumnsWriter(dir, 'long', [{ name: 'a', type: 'u32', length: 1 }]);
  assert.throws(() => long.append(0, bytes(cols.a, 0, 2)), /column a: more bytes than its length/);
  long.abandon();
  assert.throws(() => readIndexFile(dir, 'long'), /is not a hazelnut index file/);
  // A last column laid out at a bound of 300,001 elements and given 7 (a table of contents of fewer digits): the bytes of its length.
  const bound = new PackedColumnsWriter(dir, 'bound', [{ name: 'c', type: 'u8', length: 3 }, { name: 'a', type: 'u32', length: 300_001, bound: true }]);
  bound.append(0, cols.c);
  bound.append(1, bytes(cols.a, 0, 7));
  bound.close();
  const cut = readIndexFile(dir, 'bound');
  assert.equal(unpackColumns(cut, 'bound'), { c: cols.c, a: cols.a.subarray(0, 7) });
  assert.is(cut.length, Math.ceil((4 + cut.readUInt32LE(0)) / 8) * 8 + 8 + 32, 'the file ends where the column does');
  assert.throws(() => new PackedColumnsWriter(dir, 'first', [{ name: 'a', type: 'u32', length: 1, bound: true }, { name: 'c', type: 'u8', length: 1 }]), /only the last column/);
});

function fail(): never {
  throw new Error('disk full');
}

test('reader: an index root with only a killed build in it is reported as no index yet', async () => {
  const root = path.join(tmp, 'unpublished');
  fs.mkdirSync(path.join(root, '.build-123'), { recursive: true });
  await openIndex(root).then(
    () => assert.unreachable('opened an index that was never published'),
    (e: Error & { code?: string }) => {
      assert.is(e.code, 'HZ_ERR_NOT_FOUND');
      assert.match(e.message, /holds no index yet .*run 'hazelnut index' and 'hazelnut merge'/);
    },
  );
});

test('format: an unknown version is refused, naming the file and both versions', async () => {
  const dir = path.join(tmp, 'future');
  await build(dir);
  const f = path.join(dir, INDEX_FILES.meta);
  const b = fs.readFileSync(f);
  b.writeUInt32LE(INDEX_FORMAT_VERSION + 1, 4);
  fs.writeFileSync(f, b);
  await openIndex(dir).then(
    () => assert.unreachable('opened a future index'),
    (e: Error & { code?: string }) => {
      assert.is(e.code, 'HZ_ERR_INDEX_FORMAT');
      assert.ok(e.message.includes(f), e.message);
      assert.ok(e.message.includes(`version ${INDEX_FORMAT_VERSION + 1}`), e.message);
      assert.ok(e.message.includes(`..${INDEX_FORMAT_VERSION}`), e.message);
    },
  );
});

test('format: an index older than the oldest version read is refused with a re-index message', async () => {
  const dir = path.join(tmp, 'past');
  await build(dir);
  const f = path.join(dir, INDEX_FILES.meta);
  const b = fs.readFileSync(f);
  b.writeUInt32LE(OLDEST_SUPPORTED - 1, 4);
  fs.writeFileSync(f, b);
  await openIndex(dir).then(
    () => assert.unreachable('opened an index without the heading field'),
    (e: Error) => assert.match(e.message, /re-index the segments/),
  );
});

test('format: files checksummed with CRC-32; a version 5 index, whose files hold a SHA-256, still opens, and is refused when a byte changes', async () => {
  const dir = path.join(tmp, 'crc');
  await build(dir);
  const forward = fs.readFileSync(path.join(dir, INDEX_FILES.forward));
  const crc = Buffer.alloc(16);
  crc.writeUInt32LE(zlib.crc32(forward.subarray(40)), 0);
  assert.equal(forward.subarray(24, 40), crc, 'the header holds the CRC-32 of the payload');
  const v5 = path.join(tmp, 'v5');
  fs.cpSync(dir, v5, { recursive: true });
  const files = fs.readdirSync(v5).filter((f) => fs.readFileSync(path.join(v5, f)).subarray(0, 4).toString('latin1') === 'HZIX');
  assert.ok(files.includes(INDEX_FILES.forward) && files.includes(INDEX_FILES.meta));
  for (const f of files) {
    const b = fs.readFileSync(path.join(v5, f));
    b.writeUInt32LE(5, 4);
    crypto.createHash('sha256').update(b.subarray(40)).digest().copy(b, 24, 0, 16);
    fs.writeFileSync(path.join(v5, f), b);
  }
  const r = await openIndex(v5);
  assert.is(r.meta.docCount, DOCS.length);
  assert.is(readIndexFile(v5, INDEX_FILES.forward).length, forward.length - 40);
  const torn = path.join(tmp, 'v5-torn');
  fs.cpSync(v5, torn, { recursive: true });
  const b = fs.readFileSync(path.join(torn, INDEX_FILES.forward));
  b[b.length - 1]! ^= 1;
  fs.writeFileSync(path.join(torn, INDEX_FILES.forward), b);
  assert.throws(() => readIndexFile(torn, INDEX_FILES.forward), /forward fails its checksum/);
  await openIndex(torn).then(
    () => assert.unreachable('opened a damaged version 5 index'),
    (e: Error) => assert.match(e.message, /forward fails its checksum/),
  );
});

test('index records its analyzer; a stemmed index is queried stemmed', async () => {
  const dir = path.join(tmp, 'stem');
  await build(dir, DOCS, new Analyzer({ stemEnglish: true }));
  const r = await openIndex(dir);
  assert.equal(r.meta.analyzer, { stemEnglish: true, englishStemmer: 'porter2', decompound: false });
  const q = r.analyzer.terms('crawlers fetching');
  assert.equal(q, ['crawler', 'fetch']);
  const c = r.candidates(q, { limit: 5 });
  assert.is(c[0], 0);
  assert.equal([...c].sort(), [0, 1, 2], 'fetched → fetch matches too');
});

test('publish: generations, CURRENT pointer, failed build changes nothing', async () => {
  const root = path.join(tmp, 'crawl', 'index');
  assert.is(currentIndex(path.join(tmp, 'crawl')), undefined);
  const g1 = await publishIndex(root, (d) => build(d, DOCS.slice(0, 2)).then(() => {}), { graceMs: 0 });
  assert.is(g1.generation, '000001');
  assert.equal(currentIndex(path.join(tmp, 'crawl')), g1);
  assert.equal(currentIndex(root), g1);
  assert.is((await openIndex(root)).meta.docCount, 2);
  await publishIndex(root, async () => { throw new Error('boom'); }, { graceMs: 0 }).then(
    () => assert.unreachable(),
    (e: Error) => assert.is(e.message, 'boom'),
  );
  assert.equal(currentIndex(root), g1);
  assert.equal(fs.readdirSync(root).sort(), ['000001', 'CURRENT']);
  const g2 = await publishIndex(root, (d) => build(d).then(() => {}), { graceMs: 0 });
  const g3 = await publishIndex(root, (d) => build(d).then(() => {}), { graceMs: 60_000 });
  assert.is(g3.generation, '000003');
  assert.equal(fs.readdirSync(root).sort(), ['000001', '000002', '000003', 'CURRENT'], 'within the grace period');
  assert.equal(removeSuperseded(root, 60_000, Date.now() + 120_000), ['000001']);
  assert.equal(fs.readdirSync(root).sort(), ['000002', '000003', 'CURRENT'], 'the previous generation stays');
  assert.is(g2.generation, '000002');
  assert.is((await openIndex(path.join(tmp, 'crawl'))).meta.docCount, 4);
});

test.run();
