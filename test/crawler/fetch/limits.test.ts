/** Ending a fetch on time: the long tail, fetcher.timelimit.mins, fetcher.max.exceptions.per.queue. */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetch } from '../../../crawler/fetch/tool.js';
import { Segment } from '../../../segments/segment.js';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { makeSegment, tempCrawl, testConf } from './helpers.js';

let web: TestWeb;
const dirs: string[] = [];
const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`/${i}`, `page ${i}`]));

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.3',
    hosts: {
      fast: { pages: { '/0': 'a', '/1': 'b' } },
      slow: { robots: 'User-agent: *\nCrawl-delay: 0.2\n', pages: ten },
      dead: { pages: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`/${i}`, { headerDelayMs: 3000, body: 'late' }])) },
    },
  });
});
test.after(async () => {
  await web.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function segmentOf(urls: string[]): string {
  const crawl = tempCrawl();
  dirs.push(crawl);
  return makeSegment(crawl, urls);
}

function deferredKinds(seg: string): string[] {
  const s = Segment.open(seg, { readonly: true });
  try {
    return [...s.fetches()].filter((r) => r.protocolStatus === 'blocked').map((r) => String(r.meta?.deferred));
  } finally {
    s.close();
  }
}

test('one slow host left after the others: its rest is left for the next cycle and reported', async () => {
  web.reset();
  const urls = [...Object.keys(ten).map((p) => web.url('slow', p)), web.url('fast', '/0'), web.url('fast', '/1')];
  const seg = segmentOf(urls);
  const s = await fetch(testConf({ 'fetcher.server.delay': '0', 'fetcher.tail.max.time': '0.3' }), seg);
  const slowPages = web.requestsTo('slow').filter((r) => r.path !== '/robots.txt').length;
  assert.ok(slowPages < 10, `${slowPages} slow pages fetched`);
  assert.is(s.deferredQueues.length, 1);
  assert.is(s.deferredQueues[0]!.queue, web.origin('slow'));
  assert.is(s.deferredQueues[0]!.urls, 10 - slowPages);
  assert.ok(deferredKinds(seg).every((k) => k === 'long-tail'));
  assert.ok(s.complete, 'deferred pages have their record: the segment is complete');
});

test('a single-host fetch has no tail', async () => {
  web.reset();
  const seg = segmentOf(Object.keys(ten).slice(0, 4).map((p) => web.url('slow', p)));
  const s = await fetch(testConf({ 'fetcher.server.delay': '0', 'fetcher.tail.max.time': '0.1' }), seg);
  assert.is(s.deferred, 0);
  assert.is(s.byStatus.fetch_success, 4);
});

test('fetcher.timelimit.mins defers whatever is left', async () => {
  web.reset();
  const seg = segmentOf(Object.keys(ten).map((p) => web.url('slow', p)));
  const s = await fetch(testConf({ 'fetcher.server.delay': '0', 'fetcher.timelimit.mins': '0.006' }), seg);
  assert.ok(s.deferred > 0 && s.deferred < 10, `${s.deferred} deferred`);
  assert.ok(deferredKinds(seg).every((k) => k === 'timelimit'));
  assert.ok(s.complete);
});

test('fetcher.max.exceptions.per.queue: after N failures the host is not asked again', async () => {
  web.reset();
  const seg = segmentOf(Array.from({ length: 5 }, (_, i) => web.url('dead', `/${i}`)));
  const s = await fetch(testConf({ 'fetcher.server.delay': '0', 'http.timeout': '300', 'fetcher.max.exceptions.per.queue': '2' }), seg);
  assert.is(web.requestsTo('dead').filter((r) => r.path !== '/robots.txt').length, 2);
  assert.is(s.byStatus.fetch_retry, 5);
  const sg = Segment.open(seg, { readonly: true });
  assert.is([...sg.fetches()].filter((r) => /fetcher\.max\.exceptions\.per\.queue/.test(r.message ?? '')).length, 3);
  sg.close();
});

test.run();
