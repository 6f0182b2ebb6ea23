/** The fetcher's parse on a worker thread: the same parse records as the inline parse, for every page. */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetch } from '../../../crawler/fetch/tool.js';
import { Segment, type ParseRecord } from '../../../segments/segment.js';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { makeSegment, tempCrawl, testConf } from './helpers.js';

const PAGES = 12;
let web: TestWeb;
const dirs: string[] = [];

test.before(async () => {
  const pages: Record<string, string> = {};
  for (let i = 0; i < PAGES; i++)
    pages[`/${i}`] =
      `<html lang="${i % 2 ? 'en' : 'de'}"><head><title>Page ${i}</title></head><body><nav><a href="/">home</a></nav>` +
      `<h1 id="top">Heading ${i}</h1><p>Text of page ${i}, which links on.</p><a href="/${(i + 1) % PAGES}">next</a> <a href="http://127.0.3.99/x">out</a></body></html>`;
  web = await startTestWeb({ block: '127.0.3', hosts: { w: { pages } } });
});

test.after(async () => {
  await web.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function parses(minUrls: string): Promise<{ parsedOnWorker: number; records: Map<string, ParseRecord> }> {
  const crawl = tempCrawl();
  dirs.push(crawl);
  const seg = makeSegment(crawl, Array.from({ length: PAGES }, (_, i) => web.url('w', `/${i}`)));
  const s = await fetch(testConf({ 'fetcher.server.delay': '0', 'fetcher.parse.worker.min.urls': minUrls }), seg);
  assert.ok(s.complete);
  const sg = Segment.open(seg, { readonly: true });
  try {
    assert.ok(sg.hasPhase('parsed'));
    return { parsedOnWorker: s.parsedOnWorker, records: new Map([...sg.parses()].map((p) => [p.url, p])) };
  } finally {
    sg.close();
  }
}

test('a fetchlist at fetcher.parse.worker.min.urls parses on the worker, with the same records as inline', async () => {
  const onWorker = await parses(String(PAGES));
  const inline = await parses(String(PAGES + 1));
  assert.is(onWorker.parsedOnWorker, PAGES);
  assert.is(inline.parsedOnWorker, 0);
  assert.is(onWorker.records.size, PAGES);
  for (const [url, p] of inline.records) assert.equal(onWorker.records.get(url), p, url);
  assert.is(onWorker.records.get(web.url('w', '/3'))!.title, 'Page 3');
});

test.run();
