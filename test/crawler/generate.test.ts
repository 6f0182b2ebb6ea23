/** generate over a real WebDB: selection, caps, segments, marking, overlapping runs, and every nothing-due reason. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../crawler/builtins.js';
import { generate } from '../../crawler/generate.js';
import { webDbSql } from '../fixtures/webdb-sql.js';
import { Conf } from '../../shared/conf.js';
import { listSegments, Segment } from '../../segments/segment.js';
import { segmentFile } from '../../shared/crawl-dir.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 10, 12);
const dirs: string[] = [];
const conf = (o: Record<string, string> = {}) => Conf.load({ overrides: o });

function crawlWith(pages: { url: string; score?: number; due?: number; generated?: number }[]): string {
  const crawl = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-gen-'));
  dirs.push(crawl);
  const db = webDbSql(path.join(crawl, 'webdb'));
  const ins = db.prepare(
    `INSERT INTO pages (url, host, status, fetch_time, fetch_interval, score, generate_time) VALUES (?, ?, 'db_unfetched', ?, 2592000, ?, ?)`,
  );
  for (const p of pages) ins.run(p.url, new URL(p.url).hostname, p.due ?? NOW - 1000, p.score ?? 1, p.generated ?? null);
  db.close();
  return crawl;
}

const run = (crawl: string, o: Parameters<typeof generate>[3] = {}, c = conf()) =>
  generate(c, path.join(crawl, 'webdb'), path.join(crawl, 'segments'), { now: NOW, ...o });

function fetchlist(dir: string): string[] {
  const s = Segment.open(dir, { readonly: true });
  try {
    assert.ok(s.hasPhase('generated'));
    return [...s.fetchlist()].map((e) => e.url.replace(/^http:\/\//, ''));
  } finally {
    s.close();
  }
}

test.after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

test('best score first, -topN, hosts interleaved, generated pages marked', async () => {
  const crawl = crawlWith([
    { url: 'http://a.test/1', score: 5 },
    { url: 'http://a.test/2', score: 4 },
    { url: 'http://a.test/3', score: 3 },
    { url: 'http://b.test/1', score: 2 },
    { url: 'http://c.test/1', score: 1 },
    { url: 'http://c.test/late', due: NOW + 3 * DAY },
  ]);
  const s = await run(crawl, { topN: 4 });
  assert.is(s.segments.length, 1);
  assert.equal(fetchlist(s.segments[0]!), ['a.test/1', 'b.test/1', 'a.test/2', 'a.test/3']);
  assert.is(s.leftOver, 1);
  const db = webDbSql(path.join(crawl, 'webdb'), { readonly: true });
  const marked = db.prepare('SELECT url FROM pages WHERE generate_time = ? ORDER BY url').pluck().all(NOW);
  db.close();
  assert.equal(marked, ['http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://b.test/1']);
  // An overlapping generate skips the marked pages and takes the rest.
  const again = await run(crawl, { now: NOW + 1000 });
  assert.equal(fetchlist(again.segments[0]!), ['c.test/1']);
  // -adddays pulls in what is due within that many days.
  const later = await run(crawl, { now: NOW + 2000, addDays: 3 });
  assert.equal(fetchlist(later.segments[0]!), ['c.test/late']);
  assert.is(listSegments(path.join(crawl, 'segments')).length, 3, 'three distinct segment names within one second');
});

test('generate.max.count per host or domain; -maxNumSegments spills the overflow', async () => {
  const urls = ['http://x.a.test/1', 'http://y.a.test/2', 'http://x.a.test/3', 'http://b.test/1'];
  const pages = urls.map((url, i) => ({ url, score: 10 - i }));
  const byHost = await run(crawlWith(pages), {}, conf({ 'generate.max.count': '1' }));
  assert.equal(fetchlist(byHost.segments[0]!), ['x.a.test/1', 'y.a.test/2', 'b.test/1']);
  const byDomain = await run(crawlWith(pages), {}, conf({ 'generate.max.count': '1', 'generate.count.mode': 'domain' }));
  assert.equal(fetchlist(byDomain.segments[0]!), ['x.a.test/1', 'b.test/1']);
  const spilled = await run(crawlWith(pages), { maxNumSegments: 3 }, conf({ 'generate.max.count': '1', 'generate.count.mode': 'domain' }));
  assert.equal(spilled.segments.map(fetchlist), [['x.a.test/1', 'b.test/1'], ['y.a.test/2'], ['x.a.test/3']]);
  const old = await run(crawlWith(pages), {}, conf({ 'generate.max.per.host': '1' }));
  assert.is(fetchlist(old.segments[0]!).length, 3, 'Nutch 1.0 alias');
  const both = await run(crawlWith(pages), {}, conf({ 'generate.max.per.host': '1', 'generate.max.count': '-1' }));
  assert.is(fetchlist(both.segments[0]!).length, 4, 'the new name, when set, wins over the alias');
});

test('by default a host gives at most 1,000 URLs to a segment: a trap host waits, the others are whole', async () => {
  const trap = Array.from({ length: 1500 }, (_, i) => ({ url: `http://trap.test/cal/${i}`, score: 2 }));
  const site = Array.from({ length: 300 }, (_, i) => ({ url: `http://docs.test/p${i}`, score: 1 }));
  const s = await run(crawlWith([...trap, ...site]));
  const list = fetchlist(s.segments[0]!);
  assert.is(list.filter((u) => u.startsWith('trap.test/')).length, 1000);
  assert.is(list.filter((u) => u.startsWith('docs.test/')).length, 300);
  assert.is(s.leftOver, 500);
});

test('generate.min.score, the URL filters and -noFilter', async () => {
  const crawl = crawlWith([
    { url: 'http://a.test/ok', score: 2 },
    { url: 'http://a.test/low', score: 0.1 },
    { url: 'http://a.test/q?x=1', score: 3 },
  ]);
  const s = await run(crawl, {}, conf({ 'generate.min.score': '0.5' }));
  assert.equal(fetchlist(s.segments[0]!), ['a.test/ok']);
  assert.is(s.filtered, 1);
  assert.is(s.belowMinScore, 1);
  const nf = await run(crawlWith([{ url: 'http://a.test/q?x=1' }]), { filter: false });
  assert.equal(fetchlist(nf.segments[0]!), ['a.test/q?x=1']);
});

test('nothing due: each reason says why and makes no segment', async () => {
  const empty = await run(crawlWith([]));
  assert.is(empty.nothingDue?.reason, 'empty');
  assert.match(empty.nothingDue!.message, /hazelnut inject/);

  const recent = await run(crawlWith([{ url: 'http://a.test/', due: NOW + 2 * DAY }]));
  assert.is(recent.nothingDue?.reason, 'not_due');
  assert.match(recent.nothingDue!.message, new RegExp(new Date(NOW + 2 * DAY).toISOString().replace(/[.]/g, '\\.')));
  assert.match(recent.nothingDue!.message, /-adddays 2/);

  const filtered = await run(crawlWith([{ url: 'http://a.test/q?x=1' }, { url: 'http://a.test/img.png' }]));
  assert.is(filtered.nothingDue?.reason, 'filtered');
  assert.match(filtered.nothingDue!.message, /regex-urlfilter\.txt/);

  const waiting = await run(crawlWith([{ url: 'http://a.test/', generated: NOW - DAY }]));
  assert.is(waiting.nothingDue?.reason, 'awaiting_update');
  assert.match(waiting.nothingDue!.message, /updatedb/);

  const expired = await run(crawlWith([{ url: 'http://a.test/', generated: NOW - 8 * DAY }]));
  assert.is(expired.segments.length, 1, 'after crawl.gen.delay (7 days, read in its own unit) the page is generated again');
  const shortDelay = await run(crawlWith([{ url: 'http://a.test/', generated: NOW - 2 * 3600_000 }]), {}, conf({ 'crawl.gen.delay': '1h' }));
  assert.is(shortDelay.segments.length, 1);

  const low = await run(crawlWith([{ url: 'http://a.test/', score: 0.1 }]), {}, conf({ 'generate.min.score': '1' }));
  assert.is(low.nothingDue?.reason, 'min_score');
  for (const r of [empty, recent, filtered, waiting, low]) assert.is(r.segments.length, 0);
});

test('the CLI exits 3 when nothing is due and 0 with a segment', () => {
  const crawl = crawlWith([{ url: 'http://a.test/', due: Date.now() + 5 * DAY }]);
  const cli = path.resolve(import.meta.dirname, '../../crawler/hazelnut.js');
  const args = ['generate', path.join(crawl, 'webdb'), path.join(crawl, 'segments')];
  const none = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  assert.is(none.status, 3, none.stderr);
  assert.match(none.stdout, /fetched recently/);
  const some = spawnSync(process.execPath, [cli, ...args, '-adddays', '6', '-topN', '5'], { encoding: 'utf8' });
  assert.is(some.status, 0, some.stderr);
  assert.match(some.stdout, /1 URLs from 1 hosts in 1 segment/);
  const bad = spawnSync(process.execPath, [cli, ...args, '-topn', '5'], { encoding: 'utf8' });
  assert.is(bad.status, 2);
});

test('a generate killed part-way: a segment whose pages were marked is finished, one whose were not is deleted', async () => {
  const crawl = crawlWith([{ url: 'http://a.test/1' }, { url: 'http://a.test/2' }]);
  const segments = path.join(crawl, 'segments');
  // Killed after the fetchlist, before the WebDB marked the pages.
  const early = Segment.create(segments, new Date(NOW - 60_000));
  early.addFetchlist([{ url: 'http://a.test/1', host: 'a.test', score: 1, datum: {} }]);
  early.close();
  const s = await run(crawl);
  assert.equal(listSegments(segments), [path.basename(s.segments[0]!)], 'the partial segment is gone, a whole one made');
  assert.equal(fetchlist(s.segments[0]!), ['a.test/1', 'a.test/2']);

  // Killed after the WebDB marked the pages, before the segment's marker.
  const crawl2 = crawlWith([{ url: 'http://a.test/1' }]);
  const segments2 = path.join(crawl2, 'segments');
  const late = Segment.create(segments2, new Date(NOW - 60_000));
  late.addFetchlist([{ url: 'http://a.test/1', host: 'a.test', score: 1, datum: {} }]);
  late.close();
  const db = webDbSql(path.join(crawl2, 'webdb'));
  db.prepare('UPDATE pages SET generate_time = ?').run(NOW - 60_000);
  db.close();
  const s2 = await run(crawl2);
  assert.is(s2.segments.length, 0, 'nothing generated twice');
  assert.equal(listSegments(segments2), [late.name]);
  assert.equal(fetchlist(late.dir), ['a.test/1'], 'the interrupted segment is finished');
});

test('generate looks for unfinished segments only after the newest finished one', async () => {
  const crawl = crawlWith([{ url: 'http://a.test/1' }]);
  const segments = path.join(crawl, 'segments');
  // An old segment that does not open (as an interrupted generate would leave it), then a finished one.
  const old = Segment.create(segments, new Date(NOW - 120_000));
  old.close();
  fs.writeFileSync(segmentFile(old.dir), 'not a database');
  const done = Segment.create(segments, new Date(NOW - 60_000));
  done.markPhase('generated');
  done.close();
  const s = await run(crawl);
  assert.is(s.segments.length, 1);
  assert.equal(listSegments(segments), [old.name, done.name, path.basename(s.segments[0]!)], 'segments older than a finished one are not opened');
});

test.run();
