/**
 * The index read where it lies: postings inverted on disk (in one pass or
 * several), columns read through a page cache far smaller than the file,
 * the candidate stage's rule as a table, and what an index that cannot be
 * read this way is told: a torn or missing file, or the older format that
 * was loaded whole.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { CandidateScratch, selectCandidates } from '../../../shared/index/candidates.js';
import { INDEX_FILES, OLDEST_INDEX, packColumns, readIndexFile, writeIndexFile } from '../../../shared/index/format.js';
import { PageCache, PagedFile, PAGE_BYTES } from '../../../shared/index/paged.js';
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

test('postings: each term\'s documents with their entries and frequencies, as the forward index holds them, written from one sorted batch or many', async () => {
  await build(path.join(tmp, 'one'));
  await build(path.join(tmp, 'many'), 40);
  assert.ok(readIndexFile(path.join(tmp, 'one'), INDEX_FILES.postings).equals(readIndexFile(path.join(tmp, 'many'), INDEX_FILES.postings)), 'the same bytes');
  const r = await openIndex(path.join(tmp, 'many'));
  let postings = 0;
  for (let t = 0; t < r.meta.termCount; t++) {
    const { docs, entries } = r.postings(t);
    const tfs = FIELDS.map((_, f) => r.postingTf(t, f));
    const want: number[] = [];
    for (let d = 0; d < r.meta.docCount; d++) if (r.entry(d, t) >= 0) want.push(d);
    assert.equal([...docs], want, r.terms()[t]);
    docs.forEach((d, i) => {
      assert.is(entries[i], r.entry(d, t));
      for (let f = 0; f < FIELDS.length; f++) assert.is(tfs[f]![i], r.entryTf(entries[i]!, f));
    });
    postings += docs.length;
  }
  assert.ok(postings > 3000, `${postings} postings`);
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

test('paged: columns read through a cache of two pages are the bytes written, element by element and in runs', () => {
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
  assert.equal(f.read(ca, Uint32Array, 99_000, 100_003), a.subarray(99_000));
  assert.equal(f.all('c', Uint8Array), c);
  assert.throws(() => f.read(ca, Uint32Array, 0, a.length + 1), /out of range/);
  assert.throws(() => f.column('a', 'u16'), /lacks column a/);
  f.close();
});

test('candidates: the most terms first, then the highest weights, then the lowest ids; only what accept takes', () => {
  const scratch = new CandidateScratch(20);
  const L = (docs: number[], weights?: number[]) => ({ docs: Uint32Array.from(docs), ...(weights ? { weights } : {}) });
  const cases: [string, Parameters<typeof selectCandidates>[0], number, ((id: number) => boolean) | undefined, number[]][] = [
    ['one list under the limit: all', [L([3, 5, 9])], 10, undefined, [3, 5, 9]],
    ['one list over the limit, no weights: lowest ids', [L([3, 5, 9])], 2, undefined, [3, 5]],
    ['one list over the limit: highest weights', [L([3, 5, 9], [1, 3, 2])], 2, undefined, [5, 9]],
    ['both terms before either', [L([1, 2, 7]), L([2, 4, 7])], 2, undefined, [2, 7]],
    ['then the partial matches of the highest weights', [L([1, 2, 7], [5, 0, 0]), L([2, 4, 7], [0, 9, 0])], 3, undefined, [2, 7, 4]],
    ['accept filters', [L([1, 2, 7]), L([2, 4, 7])], 10, (id) => id !== 2, [7, 1, 4]],
    ['no lists: none', [], 10, undefined, []],
  ];
  for (const [name, lists, limit, accept, want] of cases) {
    assert.equal(selectCandidates(lists, limit, scratch, accept), want, name);
    assert.ok(scratch.counts.every((c) => c === 0) && scratch.sums.every((s) => s === 0), `${name}: scratch left clean`);
  }
  assert.equal(selectCandidates([L([3, 5, 9], [1, 3, 2])], 2, scratch, undefined, (id) => (id === 3 ? 5 : 0)), [3, 5], 'a document\'s own weight counts too');
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
  for (const name of [INDEX_FILES.postings, INDEX_FILES.docinfo, INDEX_FILES.forward, INDEX_FILES.docs]) {
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

test('format: an index of an older format (version 7: ten bytes of frequencies an entry) is refused with the commands that rebuild it', async () => {
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

test.run();
