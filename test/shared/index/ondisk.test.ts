/**
 * The index read where it lies: postings inverted on disk (in one pass or
 * several), columns read through a page cache far smaller than the file,
 * and what an index that cannot be
 * read this way is told: a torn or missing file, or the older format that
 * was loaded whole.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { IndexFileColumns, INDEX_FILES, OLDEST_INDEX, packColumns, readIndexFile, unpackColumns, writeIndexFile } from '../../../shared/index/format.js';
import { PageCache, PagedFile, PAGE_BYTES } from '../../../shared/index/paged.js';
import { BLOCK, blockBuffers, decodeBlock, encodeBlock } from '../../../shared/index/postings-codec.js';
import { PostingsFile } from '../../../shared/index/postings-file.js';
import { PostingsBuilder } from '../../../shared/index/postings.js';
import { openIndex } from '../../../shared/index/reader.js';
import { FIELDS, type IndexInputDoc } from '../../../shared/index/types.js';
import { IndexWriter } from '../../../shared/index/writer.js';
import { rng } from '../../fixtures/rng.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-ondisk-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau'.split(' ');

/** 300 pages on three sites, Zipf-like words, some long. */
function pages(): IndexInputDoc[] {
  const rnd = rng(7);
  const word = () => WORDS[Math.floor(WORDS.length * rnd() ** 2)]!;
  return Array.from({ length: 300 }, (_, i) => {
    const host = `s${i % 3}.test`;
    const content = Array.from({ length: i % 50 === 0 ? 3000 : 10 + Math.floor(rnd() * 80) }, word).join(' ');
    return {
      url: `http://${host}/p${i}/${word()}`, title: `${word()} ${word()}`, content, host, site: host, domain: host,
      type: i % 4 ? 'text/html' : 'text/plain', lang: i % 5 ? 'en' : 'de', date: '20240101', tstamp: 1, digest: `d${i}`,
      boost: rnd() * 3, segment: '20240101000000', contentLength: content.length, anchors: i % 3 ? [word()] : [], headings: [word()],
    };
  });
}

async function build(dir: string, postingsBatch?: number) {
  const w = new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'], ...(postingsBatch ? { postingsBatch } : {}) });
  for (const d of pages()) w.add(d);
  return w.write(dir);
}

test('postings: each term\'s documents with their frequencies, as the forward index holds them, written from one sorted batch or many', async () => {
  await build(path.join(tmp, 'one'));
  await build(path.join(tmp, 'many'), 40);
  assert.ok(readIndexFile(path.join(tmp, 'one'), INDEX_FILES.postings).equals(readIndexFile(path.join(tmp, 'many'), INDEX_FILES.postings)), 'the same bytes');
  const r = await openIndex(path.join(tmp, 'many'));
  let postings = 0;
  for (let t = 0; t < r.meta.termCount; t++) {
    const { docs } = r.postings(t);
    const tfs = r.postingTfs(t);
    const want: number[] = [];
    for (let d = 0; d < r.meta.docCount; d++) if (r.entry(d, t) >= 0) want.push(d);
    assert.equal([...docs], want, r.terms()[t]);
    docs.forEach((d, i) => {
      for (let f = 0; f < FIELDS.length; f++) assert.is(tfs[f]![i], r.entryTf(r.entry(d, t), f));
    });
    postings += docs.length;
  }
  assert.ok(postings > 3000, `${postings} postings`);
  r.close();
});

test('reader: each term\'s document frequency in each field, read from the terms file a page at a time, counts the documents whose entry has the field', async () => {
  const r = await openIndex(path.join(tmp, 'one'), { cacheMb: 0.01 });
  const terms = r.terms();
  const whole = FIELDS.map((f) => Array.from(r.docFreqs(f)));
  for (let t = 0; t < r.meta.termCount; t++) {
    const tfs = r.postingTfs(t);
    FIELDS.forEach((f, k) => {
      const want = tfs[k]!.filter((tf) => tf > 0).length;
      assert.is(r.docFreq(f, terms[t]!), want, `${f}:${terms[t]}`);
      assert.is(whole[k]![t], want);
    });
  }
  assert.ok(whole[FIELDS.indexOf('content')]!.some((df) => df > 100));
  assert.is(r.docFreq('content', 'nowhere'), 0);
  r.close();
});

test('reader: every field length at once, as fieldLength gives each', async () => {
  const r = await openIndex(path.join(tmp, 'one'));
  const lengths = r.fieldLengths();
  assert.is(lengths.length, r.meta.docCount * FIELDS.length);
  for (let d = 0; d < r.meta.docCount; d++) FIELDS.forEach((f, k) => assert.is(lengths[d * FIELDS.length + k], r.fieldLength(d, f), `${d} ${f}`));
  assert.ok(lengths.some((n) => n > 0));
  r.close();
});

test('reader: stored fields, tags, link scores and URLs from the docinfo and docs files', async () => {
  const r = await openIndex(path.join(tmp, 'one'));
  const all = pages();
  all.forEach((p, id) => {
    assert.is(r.doc(id).url, p.url);
    assert.is(r.boost(id), p.boost);
    assert.is(r.idOf(p.url), id);
  });
  assert.is(r.idOf('http://s0.test/nowhere'), undefined);
  const alpha = r.analyzer.term('alpha')!;
  const de = r.candidates([alpha], { limit: 1000, tags: { lang: 'de', site: 's1.test' } });
  assert.ok(de.length > 0);
  for (const id of de) assert.equal([r.doc(id).lang, r.doc(id).site], ['de', 's1.test']);
  assert.equal(r.candidates([alpha], { limit: 10, tags: { site: 'nowhere.test' } }), []);
  assert.equal(
    r.candidates([], { limit: 1000, tags: { type: 'text/plain' } }),
    all.flatMap((p, i) => (p.type === 'text/plain' ? [i] : [])),
  );
  r.close();
});

test('paged: columns read through a cache of two pages (or one) are the bytes written, element by element and in runs, after the cache is emptied too', () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'paged-'));
  const a = Uint32Array.from({ length: 100_003 }, (_, i) => (i * 2654435761) >>> 0);
  const b = Uint16Array.from({ length: 70_001 }, (_, i) => i * 7);
  const c = Uint8Array.from({ length: 3 * PAGE_BYTES + 5 }, (_, i) => i * 13);
  writeIndexFile(dir, 'forward', packColumns({ a, b, c }));
  const cache = new PageCache(2);
  const f = new PagedFile(dir, 'forward', cache);
  const [ca, cb, cc] = [f.column('a', 'u32'), f.column('b', 'u16'), f.column('c', 'u8')];
  const rnd = rng(3);
  for (let k = 0; k < 20_000; k++) {
    const i = Math.floor(rnd() * a.length);
    assert.is(f.u32(ca, i), a[i]);
    const j = Math.floor(rnd() * b.length);
    assert.is(f.u16(cb, j), b[j]);
    const m = Math.floor(rnd() * c.length);
    assert.is(f.u8(cc, m), c[m]);
  }
  assert.ok(cache.size <= 2);
  // Emptied, its slots are read into again; one of a single page reads every element into the same slot.
  cache.clear();
  assert.is(cache.size, 0);
  const one = new PagedFile(dir, 'forward', new PageCache(1));
  for (let k = 0; k < 2_000; k++) {
    const i = Math.floor(rnd() * a.length);
    assert.is(f.u32(ca, i), a[i]);
    assert.is(one.u32(ca, i), a[i]);
    const m = Math.floor(rnd() * c.length);
    assert.is(one.u8(cc, m), c[m]);
  }
  one.close();
  assert.equal(f.read(ca, Uint32Array, 99_000, 100_003), a.subarray(99_000));
  assert.equal(f.all('c', Uint8Array), c);
  assert.throws(() => f.read(ca, Uint32Array, 0, a.length + 1), /out of range/);
  assert.throws(() => f.column('a', 'u16'), /lacks column a/);
  f.close();
});

test('postings codec: a block of extreme values decodes to what was encoded', () => {
  const b = blockBuffers();
  const rnd = rng(5);
  const cases: [string, number[], number][] = [
    ['one posting, the largest id', [0xffffffff], -1],
    ['gaps of 31 bits and more', [0, 0x7fffffff, 0xfffffffe, 0xffffffff], -1],
    ['after a previous block', Array.from({ length: BLOCK }, (_, i) => 1000 + 3 * i), 999],
    ['dense', Array.from({ length: BLOCK }, (_, i) => 5 + i), 4],
    ['random', [...new Set(Array.from({ length: 200 }, () => Math.floor(rnd() * 2 ** 32)))].sort((x, y) => x - y).slice(0, 127), -1],
  ];
  for (const [name, docs, prev] of cases) {
    b.n = docs.length;
    b.docs.set(docs);
    b.tf.forEach((col, f) => col.set(docs.map((_, i) => (f === 1 ? 0 : (i * 7919 * (f + 1)) % 65536))));
    const words = encodeBlock(b, prev);
    const out = blockBuffers();
    const framed = Uint32Array.of(7, ...words);
    assert.is(decodeBlock(framed, 1, prev, out), docs.length, name);
    assert.equal([...out.docs.subarray(0, docs.length)], docs, name);
    for (let f = 0; f < FIELDS.length; f++) assert.equal(out.tf[f]!.subarray(0, docs.length), b.tf[f]!.subarray(0, docs.length), `${name}: ${FIELDS[f]}`);
    // Frequencies passed over: the documents as decoded with them, the frequencies' room untouched.
    const bare = blockBuffers();
    assert.is(decodeBlock(framed, 1, prev, bare, false), docs.length, name);
    assert.equal([...bare.docs.subarray(0, docs.length)], docs, `${name}: without frequencies`);
    assert.ok(bare.tf.every((col) => col.every((v) => v === 0)), `${name}: no frequency decoded`);
  }
});

test('postings file: random postings of 1, 127, 128, 129 and more documents, of 40 terms, round-trip, with skip data and bounds that hold every posting, kept for the terms of more than one block only', () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'blocks-'));
  const rnd = rng(9);
  const docCount = 3000;
  // Past 32 terms: a term's first block is counted on from every sixteenth term's.
  const sizes = [1, 127, 128, 129, 256, 257, 2999, 3000, 0, 1, ...Array.from({ length: 30 }, (_, i) => (i * 97) % 400)];
  const T = sizes.length;
  const holds = sizes.map((n) => new Set([...Array.from({ length: docCount }, (_, d) => d)].sort(() => rnd() - 0.5).slice(0, n)));
  const lengths = Uint32Array.from({ length: docCount * FIELDS.length }, () => Math.floor(rnd() * 5000));
  const boosts = Float64Array.from({ length: docCount }, () => rnd() * 10);
  const want = Array.from({ length: T }, () => ({ docs: [] as number[], tf: FIELDS.map(() => [] as number[]) }));
  const builder = new PostingsBuilder(dir, 500);
  for (let d = 0; d < docCount; d++) {
    const terms = Uint32Array.from(holds.flatMap((h, t) => (h.has(d) ? [t] : [])));
    const tf = FIELDS.map(() => Uint16Array.from(terms, () => (rnd() < 0.5 ? 0 : rnd() < 0.01 ? 65535 : Math.floor(rnd() * 40))));
    terms.forEach((t, j) => {
      want[t]!.docs.push(d);
      FIELDS.forEach((_, f) => want[t]!.tf[f]!.push(tf[f]![j]!));
    });
    builder.add(d, terms, (f) => tf[f]!);
  }
  builder.write(dir, Uint32Array.from(sizes), lengths, boosts);
  const cols = new IndexFileColumns(dir, INDEX_FILES.postings);
  assert.is(cols.length('block.boost'), sizes.reduce((s, n) => s + (n > BLOCK ? Math.ceil(n / BLOCK) : 0), 0), 'bounds of the blocks of terms of more than one');
  assert.is(cols.length('block.last'), sizes.reduce((s, n) => s + Math.ceil(n / BLOCK), 0), 'the last document of every block');
  cols.close();
  const file = new PostingsFile(dir, new PageCache(4), T, () => new Error('inconsistent') as never, { postings: 4096, decoded: 4096 }, () => ({ lengths, boosts }));
  const out = blockBuffers();
  const bare = blockBuffers();
  for (let t = 0; t < T; t++) {
    const { docs } = file.postings(t);
    assert.equal([...docs], want[t]!.docs, `term ${t}: docs`);
    file.tfs(t).forEach((tf, f) => assert.equal([...tf], want[t]!.tf[f], `term ${t}: tf ${f}`));
    const tb = file.blocks(t);
    assert.is(tb.blocks, Math.ceil(sizes[t]! / BLOCK));
    for (let b = 0; b < tb.blocks; b++) {
      const n = tb.decode(b, out);
      assert.is(tb.last[b], out.docs[n - 1]);
      assert.is(tb.decode(b, bare, false), n, `term ${t} block ${b}: documents alone`);
      assert.equal(bare.docs.subarray(0, n), out.docs.subarray(0, n), `term ${t} block ${b}: documents alone`);
      assert.is(tb.maxBoost[b], Math.max(...Array.from(out.docs.subarray(0, n), (d) => boosts[d]!)), `term ${t} block ${b}: the largest boost`);
      for (let i = 0; i < n; i++) {
        const d = out.docs[i]!;
        assert.ok(boosts[d]! <= tb.maxBoost[b]!);
        for (let f = 0; f < FIELDS.length; f++) {
          assert.ok(out.tf[f]![i]! <= tb.maxTf[f]![b]!);
          if (out.tf[f]![i]) assert.ok(lengths[d * FIELDS.length + f]! >= tb.minLength[f]![b]!);
        }
      }
    }
  }
  file.close();
});

test('an index of no documents (a segment whose pages all failed) is written and opens, its checksums whole', async () => {
  const dir = path.join(tmp, 'empty');
  await new IndexWriter({ analyzer: new Analyzer(), segments: ['20240101000000'] }).write(dir);
  const r = await openIndex(dir);
  assert.is(r.meta.docCount, 0);
  assert.equal(r.candidates([r.analyzer.term('alpha')!], { limit: 10 }), []);
  assert.is(r.idOf('http://s0.test/'), undefined);
  r.close();
});

test('format: a torn or missing file is refused on open, naming it, also by a searcher\'s open that verifies no checksum', async () => {
  for (const name of [INDEX_FILES.terms, INDEX_FILES.postings, INDEX_FILES.docinfo, INDEX_FILES.forward, INDEX_FILES.docs]) {
    const dir = path.join(tmp, `torn-${name}`);
    fs.cpSync(path.join(tmp, 'one'), dir, { recursive: true });
    const f = path.join(dir, name);
    fs.truncateSync(f, fs.statSync(f).size - 100);
    for (const verify of [false, true])
      await openIndex(dir, { verify }).then(
        () => assert.unreachable(`opened a torn ${name}`),
        (e: Error & { code?: string }) => {
          assert.is(e.code, 'HZ_ERR_INDEX_FORMAT');
          assert.ok(e.message.includes(`${f} is truncated`), e.message);
        },
      );
    fs.rmSync(f);
    await openIndex(dir, { verify: false }).then(
      () => assert.unreachable(`opened an index without ${name}`),
      (e: Error) => assert.match(e.message, new RegExp(`lacks its ${name} file.*hazelnut index`)),
    );
  }
});

test('format: a damaged byte is found by a verifying open (merge, dedup), not by the searcher\'s', async () => {
  const dir = path.join(tmp, 'damaged');
  fs.cpSync(path.join(tmp, 'one'), dir, { recursive: true });
  const f = path.join(dir, INDEX_FILES.postings);
  const b = fs.readFileSync(f);
  b[b.length - 1]! ^= 1;
  fs.writeFileSync(f, b);
  (await openIndex(dir, { verify: false })).close();
  await openIndex(dir).then(
    () => assert.unreachable('verified a damaged postings file'),
    (e: Error) => assert.ok(e.message.includes(`${f} fails its checksum`), e.message),
  );
});

test('format: an index of an older format (version 7: postings without blocks, ten bytes of frequencies an entry) is refused with the commands that rebuild it', async () => {
  const dir = path.join(tmp, 'v7');
  fs.cpSync(path.join(tmp, 'one'), dir, { recursive: true });
  const meta = JSON.parse(readIndexFile(dir, INDEX_FILES.meta).toString('utf8'));
  writeIndexFile(dir, INDEX_FILES.meta, Buffer.from(JSON.stringify({ ...meta, version: OLDEST_INDEX - 1 })));
  await openIndex(dir).then(
    () => assert.unreachable('opened a version 7 index'),
    (e: Error & { code?: string }) => {
      assert.is(e.code, 'HZ_ERR_INDEX_FORMAT');
      assert.ok(e.message.includes(dir) && e.message.includes(`format version ${OLDEST_INDEX - 1}`), e.message);
      assert.match(e.message, /hazelnut index .*hazelnut dedup .*hazelnut merge/);
    },
  );
});

test('format: an index of the previous layout (plain 32-bit term ids, a section start and a content frequency byte for every entry) reads as the new one does, by search and by merge\'s walk', async () => {
  const dir = path.join(tmp, 'plain-terms');
  fs.cpSync(path.join(tmp, 'one'), dir, { recursive: true });
  const cols = unpackColumns(readIndexFile(dir, INDEX_FILES.forward), INDEX_FILES.forward);
  const { 'term.bits': bits, 'ids.base': base, 'ids.width': width, 'ids.at': at, 'ids.gaps': gaps, 'tfb.has': has, 'tfb.rank': rank, 'tfb.sparse': kept, ...rest } = cols;
  assert.ok(bits && base && width && at && gaps && has && rank && kept, 'the index is written with grouped term ids and the content frequency bytes not 1 only');
  const entries = rest.start![rest.start!.length - 1]!;
  const one = await openIndex(path.join(tmp, 'one'));
  const term = Uint32Array.from({ length: entries }, (_, e) => one.entryTerm(e));
  one.close();
  let k = 0;
  const byte = Uint8Array.from({ length: entries }, (_, e) => ((has[e >>> 5]! >>> (e & 31)) & 1 ? kept[k++]! : 1));
  assert.ok(k > 0 && k < entries, `${k} of ${entries} bytes kept`);
  writeIndexFile(dir, INDEX_FILES.forward, packColumns({ start: rest.start!, term, 'tf.byte': byte, ...rest }));
  const sec = unpackColumns(readIndexFile(dir, INDEX_FILES.sections), INDEX_FILES.sections);
  assert.equal(Array.from(sec.entry!), new Array(sec.entry!.length).fill(0), 'no page has section runs: none has starts');
  const plainSec = { doc: sec.doc!, length: sec.length!, start: new Uint32Array(term.length + 1), data: new Uint8Array(0) };
  writeIndexFile(dir, INDEX_FILES.sections, packColumns(plainSec));
  const [a, b] = [await openIndex(path.join(tmp, 'one')), await openIndex(dir)];
  assert.ok(a.meta.docCount > 200);
  for (let id = 0; id < a.meta.docCount; id++) {
    assert.equal(b.analyzed(id), a.analyzed(id), `document ${id}`);
    for (const w of WORDS) assert.is(b.termFreq(id, 'content', w), a.termFreq(id, 'content', w), `${w} in ${id}`);
    const e = b.entry(id, b.termId('alpha'));
    if (e >= 0) assert.equal(b.entrySections(e, [9]), [], `alpha's sections in ${id}`);
  }
  const walked = (r: typeof a) => [...r.docEntries()].map(([id, , e]) => [id, Array.from(e.terms), Array.from(e.posData), Array.from(e.secEnd)]);
  assert.equal(walked(b), walked(a));
  a.close();
  b.close();
});

test.run();
