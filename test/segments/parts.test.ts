/**
 * A segment in fetch partitions: each partition's file gets its share of the
 * fetchlist, and the segment opened as a whole reads every partition's
 * records as its own — counts, lookups, iterations (a URL once), what is left
 * to fetch or parse, and the phases, complete when every partition's is.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Segment, type FetchRecord } from '../../segments/segment.js';
import { SegmentFiles } from '../../segments/segment-files.js';
import { SegmentWriter } from '../../segments/segment-writer.js';
import { CACHE_PRAGMA, LOOKUP_CACHE_PRAGMA } from '../../shared/sqlite.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-parts-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const URLS = ['http://a.test/1', 'http://b.test/1', 'http://c.test/1', 'http://a.test/2', 'http://b.test/2', 'http://c.test/2'];
const host = (u: string) => new URL(u).host;
const rec = (url: string, fetchTime: number): FetchRecord => ({
  url,
  status: 'fetch_success',
  protocolStatus: 'success',
  httpStatus: 200,
  fetchTime,
  headers: {},
  contentType: 'text/html',
});

function partitioned(): Segment {
  const seg = Segment.create(fs.mkdtempSync(path.join(tmp, 'segs-')));
  seg.addFetchlist(URLS.map((url) => ({ url, host: host(url), score: 1, datum: {} })));
  seg.setPartitions(new Map([['a.test', 0], ['b.test', 1], ['c.test', 0]]), 2);
  seg.markPhase('generated', 1000);
  return seg;
}

async function store(part: Segment, urls: string[], t: number, parse: boolean): Promise<void> {
  const w = new SegmentWriter(part);
  for (const url of urls)
    w.put(rec(url, t), { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(`<p>${url}</p>`), truncated: false }, parse ? { url, status: 'success', title: url, text: url, outlinks: [], meta: {} } : undefined);
  await w.close();
}

test('a partition gets its hosts\' fetchlist entries in fetch order, and the generated marker', () => {
  const seg = partitioned();
  try {
    assert.is(seg.partCount(), 2);
    const p0 = seg.openPart(0);
    assert.equal([...p0.fetchlist()].map((e) => e.url), ['http://a.test/1', 'http://c.test/1', 'http://a.test/2', 'http://c.test/2']);
    assert.is(p0.phase('generated'), 1000);
    assert.is(p0.partCount(), 0);
    p0.close();
    // Opened again, the partition is the same file, not made anew.
    const again = seg.openPart(0);
    assert.is(again.count('fetchlist'), 4);
    again.close();
    assert.throws(() => seg.openPart(2), /has fetch partitions 0 to 1, not 2/);
  } finally {
    seg.close();
  }
});

test('the whole segment reads every partition: counts, lookups, a URL once, what is left, phases', async () => {
  const seg = partitioned();
  const dir = seg.dir;
  const p0 = seg.openPart(0);
  const p1 = seg.openPart(1);
  seg.close();
  await store(p0, ['http://a.test/1', 'http://c.test/1', 'http://a.test/2'], 2000, true);
  // A redirect from b.test led partition 1 to a URL of partition 0 as well.
  await store(p1, ['http://b.test/1', 'http://a.test/1'], 3000, false);

  let whole = Segment.open(dir, { readonly: true });
  assert.is(whole.count('fetchlist'), 6);
  assert.is(whole.count('fetch'), 5);
  assert.equal([...whole.fetches()].map((f) => f.url).sort(), ['http://a.test/1', 'http://a.test/2', 'http://b.test/1', 'http://c.test/1']);
  assert.is(whole.fetchedUrls().size, 4);
  assert.is(whole.unfetchedCount(), 2);
  assert.is(whole.getFetch('http://b.test/1')?.fetchTime, 3000);
  assert.is(whole.getContent('http://c.test/1')?.bytes.toString(), '<p>http://c.test/1</p>');
  assert.is(whole.getParse('http://a.test/2')?.title, 'http://a.test/2');
  assert.is(whole.getParse('http://b.test/1'), undefined);
  assert.equal([...whole.unparsedContents()].map((c) => c.url), ['http://b.test/1']);
  assert.equal(whole.fetchTimes(), { first: 2000, last: 3000 });
  assert.is(whole.countFetches('success'), 5);
  assert.equal([...whole.urls()], ['http://a.test/1', 'http://a.test/2', 'http://b.test/1', 'http://b.test/2', 'http://c.test/1', 'http://c.test/2']);
  assert.is(whole.phase('fetched'), undefined);
  whole.close();

  await store(p0, ['http://c.test/2'], 4000, true);
  await store(p1, ['http://b.test/2'], 5000, false);
  p0.markPhase('fetched', 6000);
  const half = Segment.open(dir, { readonly: true });
  assert.is(half.phase('fetched'), undefined, 'one partition is not fetched yet');
  half.close();
  p1.markPhase('fetched', 7000);
  p0.close();
  p1.close();

  // The parse tool's records go to the segment's own file.
  whole = Segment.open(dir);
  assert.is(whole.phase('fetched'), 7000);
  assert.is(whole.unfetchedCount(), 0);
  whole.putParses([...whole.unparsedContents()].map((c) => ({ url: c.url, status: 'success' as const, title: 'parsed later', text: '', outlinks: [], meta: {} })));
  assert.equal([...whole.unparsedContents()], []);
  assert.is(whole.getParse('http://b.test/2')?.title, 'parsed later');
  assert.is(whole.count('parse'), 6);
  assert.is([...whole.parses()].length, 6);
  whole.close();
});

test('opened for lookups (the searcher), every file of a segment keeps the small page cache; opened to read whole, the usual one', async () => {
  const seg = partitioned();
  const dir = seg.dir;
  const p0 = seg.openPart(0);
  const p1 = seg.openPart(1);
  seg.close();
  await store(p0, ['http://a.test/1'], 2000, true);
  await store(p1, ['http://b.test/1'], 3000, true);
  p0.close();
  p1.close();
  const cacheKb = (pragma: string) => Number(/-(\d+)$/.exec(pragma)![1]);
  for (const [lookups, kb] of [[true, cacheKb(LOOKUP_CACHE_PRAGMA)], [false, cacheKb(CACHE_PRAGMA)]] as const) {
    const files = SegmentFiles.open(dir, true, lookups);
    try {
      assert.is(files.all.length, 3);
      assert.equal(files.all.map((db) => db.pragma('cache_size', { simple: true })), [-kb, -kb, -kb], `lookups ${lookups}`);
    } finally {
      for (const db of files.all) db.close();
    }
  }
  assert.ok(cacheKb(LOOKUP_CACHE_PRAGMA) < cacheKb(CACHE_PRAGMA));
  const s = Segment.open(dir, { readonly: true, lookups: true });
  assert.is(s.getParse('http://b.test/1')?.title, 'http://b.test/1');
  s.close();
});

test('fetch records in batches: the order and URLs of fetches(), each batch read as it is reached', async () => {
  const seg = partitioned();
  const dir = seg.dir;
  const p0 = seg.openPart(0);
  const p1 = seg.openPart(1);
  seg.close();
  await store(p0, ['http://a.test/1', 'http://c.test/1', 'http://a.test/2'], 2000, false);
  await store(p1, ['http://b.test/1', 'http://a.test/1', 'http://b.test/2'], 3000, false);
  p0.close();
  p1.close();
  const whole = Segment.open(dir);
  try {
    const all = [...whole.fetches()];
    for (const size of [1, 2, 5, 200]) {
      const batches = [...whole.fetchBatches(size)];
      assert.ok(batches.every((b) => b.length > 0 && b.length <= size), `batches of at most ${size}`);
      assert.equal(batches.flat(), all, `size ${size}`);
    }
  } finally {
    whole.close();
  }

  // A record stored after the first batch was taken is in a later one: nothing is read ahead.
  const plain = Segment.create(fs.mkdtempSync(path.join(tmp, 'segs-')));
  try {
    await store(plain, ['http://a.test/1', 'http://a.test/2', 'http://a.test/3'], 1000, false);
    const it = plain.fetchBatches(2);
    assert.equal(it.next().value?.map((f: FetchRecord) => f.url), ['http://a.test/1', 'http://a.test/2']);
    await store(plain, ['http://a.test/4'], 2000, false);
    assert.equal([...it].flat().map((f) => f.url), ['http://a.test/3', 'http://a.test/4']);
  } finally {
    plain.close();
  }
});

/** What updatedb read before fetchUpdates, a lookup at a time. */
const lookedUp = (seg: Segment) =>
  [...seg.fetches()].map((fetch) => ({ fetch, parse: fetch.status === 'fetch_success' ? seg.getParseLinks(fetch.url) : undefined, gen: seg.fetchlistEntry(fetch.url) }));

test('fetchUpdates: each fetch with its parse links and fetchlist entry, as the lookups give them, partitioned or not', async () => {
  const plain = Segment.create(fs.mkdtempSync(path.join(tmp, 'segs-')));
  try {
    plain.addFetchlist(URLS.slice(0, 4).map((url, i) => ({ url, host: host(url), score: i + 0.5, datum: { fetch_interval: 60 + i } })));
    const w = new SegmentWriter(plain);
    const body = (url: string) => ({ url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from('<p>x</p>'), truncated: false });
    const links = (url: string) => ({ url, status: 'success' as const, signature: `sig ${url}`, title: url, text: url, outlinks: [{ url: 'http://z.test/', anchor: 'z' }], meta: { outlinkCount: 1 } });
    w.put(rec(URLS[0]!, 1000), body(URLS[0]!), links(URLS[0]!));
    // Fetched without parsing, failed, and a redirect's target outside the fetchlist.
    w.put(rec(URLS[1]!, 1001), body(URLS[1]!), undefined);
    w.put({ ...rec(URLS[2]!, 1002), status: 'fetch_gone', protocolStatus: 'gone', httpStatus: 404 }, undefined, undefined);
    w.put(rec('http://a.test/elsewhere', 1003), body('http://a.test/elsewhere'), links('http://a.test/elsewhere'));
    await w.close();
    const updates = [...plain.fetchUpdates()];
    assert.equal(updates, lookedUp(plain));
    assert.equal(updates.map((u) => [u.parse?.signature, u.gen?.score]), [['sig http://a.test/1', 0.5], [undefined, 1.5], [undefined, 2.5], ['sig http://a.test/elsewhere', undefined]]);
  } finally {
    plain.close();
  }

  const seg = partitioned();
  const dir = seg.dir;
  const p0 = seg.openPart(0);
  const p1 = seg.openPart(1);
  seg.close();
  await store(p0, ['http://a.test/1', 'http://c.test/1'], 2000, true);
  await store(p1, ['http://b.test/1', 'http://a.test/1'], 3000, false);
  p0.close();
  p1.close();
  const whole = Segment.open(dir);
  try {
    // Partition 1's parses are made by the parse tool, in the segment's own file.
    whole.putParses([...whole.unparsedContents()].map((c) => ({ url: c.url, status: 'success' as const, signature: 'later', title: '', text: '', outlinks: [], meta: {} })));
    const updates = [...whole.fetchUpdates()];
    assert.equal(updates, lookedUp(whole));
    assert.equal(updates.map((u) => [u.fetch.url, u.parse?.signature ?? null, u.gen?.pos]).sort(), [
      ['http://a.test/1', null, 0],
      ['http://b.test/1', 'later', 1],
      ['http://c.test/1', null, 2],
    ]);
  } finally {
    whole.close();
  }
});

test.run();
