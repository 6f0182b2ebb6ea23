/** The fetch tool against the test web: statuses, redirects, limits, charsets, politeness measured by the server, parsing. */
import fs from 'node:fs';
import iconv from 'iconv-lite';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetch } from '../../../crawler/fetch/tool.js';
import { HzError } from '../../../shared/errors.js';
import { Segment, type FetchRecord } from '../../../segments/segment.js';
import { gzipBomb, startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { makeSegment, tempCrawl, testConf } from './helpers.js';

let web: TestWeb;
const dirs: string[] = [];
const crawl = () => {
  const d = tempCrawl();
  dirs.push(d);
  return d;
};

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.3',
    hosts: {
      a: {
        pages: {
          '/': '<html><head><title>Home</title></head><body><a href="/ok">ok</a></body></html>',
          '/ok': 'ok',
          '/404': { status: 404 },
          '/410': { status: 410 },
          '/403': { status: 403 },
          '/500': { status: 500 },
          '/503': { status: 503 },
          '/429': { status: 429 },
          '/401': { status: 401 },
          '/301': { status: 301, location: '/ok' },
          '/302': { status: 302, location: '/ok' },
          '/r1': { status: 301, location: '/r2' },
          '/r2': { status: 302, location: '/r3' },
          '/r3': { status: 307, location: '/final' },
          '/final': '<title>Final</title>',
          '/l1': { status: 301, location: '/l2' },
          '/l2': { status: 301, location: '/l1' },
          '/cross': { status: 302, location: '' },
          '/big': { size: 200_000 },
          '/bomb': gzipBomb(30 << 20),
          '/drip': { body: 'x'.repeat(300), chunks: 3, chunkDelayMs: 1500 },
          '/cp1252': { body: '<p>Crème brûlée</p>', charset: 'windows-1252', contentType: 'text/html' },
          '/sjis': { body: '<title>日本語のページ</title>', charset: 'shift_jis', contentType: 'text/html; charset=shift_jis' },
          '/sjis-meta': { body: '<meta charset="shift_jis"><title>日本語</title>', charset: 'shift_jis', contentType: 'text/html' },
          '/cond': { body: 'same', etag: '"v1"', lastModified: new Date('2020-01-01T00:00:00Z') },
        },
      },
      b: { pages: { '/': 'b home', '/final': 'b final' } },
      p: { pages: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`/${i}`, { body: `p${i}`, headerDelayMs: 30 }])) },
      q: { pages: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`/${i}`, { body: `q${i}`, headerDelayMs: 80 }])) },
      cd: { robots: 'User-agent: *\nCrawl-delay: 0.25\n', pages: { '/1': '1', '/2': '2', '/3': '3' } },
      slow: { robots: 'User-agent: *\nCrawl-delay: 5\n', pages: { '/1': '1', '/2': '2' } },
    },
  });
  web.setPage('a', '/cross', { status: 302, location: web.url('b', '/final') });
});

test.after(async () => {
  await web.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function records(segDir: string): Map<string, FetchRecord> {
  const s = Segment.open(segDir, { readonly: true });
  try {
    return new Map([...s.fetches()].map((r) => [r.url, r]));
  } finally {
    s.close();
  }
}

test('every status code maps to its fetch status; gone and retried pages keep no content', async () => {
  const codes = ['/', '/ok', '/404', '/410', '/403', '/500', '/503', '/429', '/401', '/301', '/302'];
  const seg = makeSegment(crawl(), codes.map((p) => web.url('a', p)));
  const s = await fetch(testConf({ 'fetcher.server.delay': '0' }), seg);
  assert.ok(s.complete);
  const r = records(seg);
  const expect: Record<string, [string, string]> = {
    '/': ['fetch_success', 'success'],
    '/404': ['fetch_gone', 'notfound'],
    '/410': ['fetch_gone', 'gone'],
    '/401': ['fetch_gone', 'access_denied'],
    '/403': ['fetch_retry', 'exception'],
    '/500': ['fetch_retry', 'exception'],
    '/503': ['fetch_retry', 'exception'],
    '/429': ['fetch_retry', 'exception'],
    '/301': ['fetch_redir_perm', 'moved'],
    '/302': ['fetch_redir_temp', 'temp_moved'],
  };
  for (const [p, [status, proto]] of Object.entries(expect)) {
    const rec = r.get(web.url('a', p))!;
    assert.is(rec.status, status, p);
    assert.is(rec.protocolStatus, proto, p);
  }
  assert.is(r.get(web.url('a', '/301'))!.redirectTo, web.url('a', '/ok'), 'http.redirect.max 0 records the target');
  assert.is(web.requestsTo('a', '/ok').length, 1, 'the recorded target is not fetched now (it is in the list once)');
  const sg = Segment.open(seg, { readonly: true });
  assert.is(sg.count('content'), 2);
  assert.is(sg.getParse(web.url('a', '/'))!.title, 'Home');
  assert.ok(sg.hasPhase('fetched') && sg.hasPhase('parsed'));
  sg.close();
});

test('redirects followed hop by hop (each requested once), across hosts, loops end', async () => {
  web.reset();
  const seg = makeSegment(crawl(), ['/r1', '/l1', '/cross'].map((p) => web.url('a', p)));
  const s = await fetch(testConf({ 'http.redirect.max': '3', 'fetcher.server.delay': '0' }), seg);
  const r = records(seg);
  for (const p of ['/r1', '/r2', '/r3', '/final']) assert.is(web.requestsTo('a', p).length, 1, p);
  assert.is(r.get(web.url('a', '/r1'))!.redirectTo, web.url('a', '/r2'));
  assert.is(r.get(web.url('a', '/final'))!.status, 'fetch_success');
  assert.is(r.get(web.url('a', '/final'))!.meta?.hop, 3);
  assert.is(r.get(web.url('b', '/final'))!.status, 'fetch_success', 'a cross-host hop is fetched from its own host');
  assert.is(web.requestsTo('b', '/robots.txt').length, 1, 'and robots.txt of that host is asked first');
  const loop = r.get(web.url('a', '/l2'))!;
  assert.is(loop.protocolStatus, 'redir_exceeded');
  assert.match(loop.message!, /redirect loop/);
  assert.is(web.requestsTo('a', '/l1').length, 1);
  assert.is(s.redirectsFollowed, 5);
});

test('a chain longer than http.redirect.max leaves its next target for the next cycle', async () => {
  const seg = makeSegment(crawl(), [web.url('a', '/r1')]);
  await fetch(testConf({ 'http.redirect.max': '1', 'fetcher.server.delay': '0' }), seg);
  const r = records(seg);
  assert.is(r.size, 2);
  assert.is(r.get(web.url('a', '/r2'))!.redirectTo, web.url('a', '/r3'));
  assert.is(r.get(web.url('a', '/r2'))!.meta?.redirect, 'recorded');
});

test('truncation, compression bomb, stalled body, non-UTF-8 pages', async () => {
  const paths = ['/big', '/bomb', '/drip', '/cp1252', '/sjis', '/sjis-meta'];
  const seg = makeSegment(crawl(), paths.map((p) => web.url('a', p)));
  await fetch(testConf({ 'http.content.limit': '65536', 'fetcher.server.delay': '0', 'http.timeout': '400' }), seg);
  const sg = Segment.open(seg, { readonly: true });
  try {
    for (const p of ['/big', '/bomb']) {
      const c = sg.getContent(web.url('a', p))!;
      assert.is(c.bytes.length, 65536, p);
      assert.ok(c.truncated, p);
      assert.ok(sg.getFetch(web.url('a', p))!.meta?.truncated, p);
    }
    const drip = sg.getFetch(web.url('a', '/drip'))!;
    assert.is(drip.status, 'fetch_retry');
    assert.match(drip.message!, /http\.timeout/);
    assert.is(sg.getContent(web.url('a', '/cp1252'))!.charset, 'windows-1252');
    assert.is(sg.getContent(web.url('a', '/sjis'))!.charset, 'shift_jis');
    assert.is(sg.getContent(web.url('a', '/sjis-meta'))!.charset, 'shift_jis');
    assert.is(sg.getParse(web.url('a', '/sjis'))!.title, '日本語のページ');
    assert.match(sg.getParse(web.url('a', '/cp1252'))!.text, /Crème brûlée/);
    assert.ok(iconv.decode(sg.getContent(web.url('a', '/sjis-meta'))!.bytes, 'shift_jis').includes('日本語'));
  } finally {
    sg.close();
  }
});

test('one request at a time per host, with the delay between them (measured by the server)', async () => {
  web.reset();
  const urls = [...Array.from({ length: 6 }, (_, i) => web.url('p', `/${i}`)), web.url('b', '/')];
  const seg = makeSegment(crawl(), urls);
  await fetch(testConf({ 'fetcher.server.delay': '0.1', 'fetcher.threads.fetch': '5' }), seg);
  assert.is(web.requestsTo('p').length, 7);
  assert.is(web.maxConcurrency('p'), 1);
  const gaps = web.gaps('p');
  assert.is(gaps.length, 6);
  for (const g of gaps) assert.ok(g >= 98, `gap ${g} ms < fetcher.server.delay`);
});

test('fetcher.threads.per.host=2 allows two in flight, never three', async () => {
  web.reset();
  const seg = makeSegment(crawl(), Array.from({ length: 8 }, (_, i) => web.url('q', `/${i}`)));
  await fetch(testConf({ 'fetcher.threads.per.host': '2', 'fetcher.server.min.delay': '0', 'fetcher.threads.fetch': '6' }), seg);
  assert.is(web.maxConcurrency('q'), 2);
});

test('robots Crawl-delay is honoured; above fetcher.max.crawl.delay the pages are deferred, not gone', async () => {
  web.reset();
  const seg = makeSegment(crawl(), [1, 2, 3].map((i) => web.url('cd', `/${i}`)).concat([1, 2].map((i) => web.url('slow', `/${i}`))));
  const s = await fetch(testConf({ 'fetcher.server.delay': '0', 'fetcher.max.crawl.delay': '1' }), seg);
  const gaps = web.gaps('cd');
  assert.is(gaps.length, 3);
  for (const g of gaps) assert.ok(g >= 248, `gap ${g} ms < Crawl-delay`);
  assert.equal(web.requestsTo('slow').map((r) => r.path), ['/robots.txt']);
  const r = records(seg);
  for (const i of [1, 2]) {
    const rec = r.get(web.url('slow', `/${i}`))!;
    assert.is(rec.status, 'fetch_retry');
    assert.is(rec.protocolStatus, 'blocked');
    assert.match(rec.message!, /fetcher\.max\.crawl\.delay/);
  }
  assert.is(s.deferred, 2);
  assert.ok(s.complete);
});

test('conditional refetch: validators from the datum, 304 is notmodified', async () => {
  const c = crawl();
  const seg = Segment.create(`${c}/segments`);
  seg.addFetchlist([{ url: web.url('a', '/cond'), host: 'a', score: 1, datum: { etag: '"v1"', last_modified: 'Wed, 01 Jan 2020 00:00:00 GMT' } }]);
  seg.markPhase('generated');
  seg.close();
  await fetch(testConf(), seg.dir);
  assert.is(records(seg.dir).get(web.url('a', '/cond'))!.status, 'fetch_notmodified');
  assert.is(web.requestsTo('a', '/cond').at(-1)!.headers['if-none-match'], '"v1"');
});

test('-noParsing stores content only; the User-Agent is name/version (description; url; email)', async () => {
  web.reset();
  const seg = makeSegment(crawl(), [web.url('b', '/')]);
  await fetch(testConf({ 'http.agent.description': 'test crawl', 'http.agent.email': 'ops@example.org' }), seg, { parse: false });
  const sg = Segment.open(seg, { readonly: true });
  assert.is(sg.count('parse'), 0);
  assert.ok(sg.hasPhase('fetched'));
  assert.not.ok(sg.hasPhase('parsed'));
  sg.close();
  assert.is(web.requestsTo('b', '/')[0]!.headers['user-agent'], 'HzTest/hazelnut-0.1 (test crawl; ops@example.org)');
});

test('an empty http.agent.name is refused with how to set it; a fetched segment is not fetched again', async () => {
  const seg = makeSegment(crawl(), [web.url('b', '/')]);
  const e = await fetch(testConf({ 'http.agent.name': '' }), seg).catch((x: unknown) => x);
  assert.instance(e, HzError);
  assert.match((e as Error).message, /hazelnut-site\.xml.*-D http\.agent\.name=/);
  await fetch(testConf(), seg);
  const again = await fetch(testConf(), seg).catch((x: unknown) => x);
  assert.match((again as Error).message, /already fetched/);
});

test.run();
