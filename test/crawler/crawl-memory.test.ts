/**
 * What a crawl keeps in memory by design: every SQLite connection it opens
 * (the WebDB's, each segment's, updatedb's stage, the index's readers and
 * writers) keeps a page cache of at most 2 MB, whatever better-sqlite3 was
 * built with, but the WebDB's of updatedb and invertlinks, which rewrite
 * much of it and close before the index phase: 16 MB (each connection is
 * looked at as it closes, after its work);
 * and the index and merge phases start from a collected heap.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { crawl, crawlConf } from '../../crawler/crawl.js';
import { Log } from '../../crawler/log.js';
import { startTestWeb, syntheticWeb, type TestWeb } from '../fixtures/testweb.js';

let web: TestWeb;
let tmp: string;
/** Full collections the crawl asked for (not chosen by V8). */
let forced = 0;

test.before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-crawl-memory-'));
  web = await startTestWeb({ block: '127.0.25', record: false, hosts: syntheticWeb(2, 20, { links: 10, pageBytes: 3000 }) });
});

test.after(async () => {
  await web.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('every SQLite connection of a crawl keeps a page cache of at most 2 MB, updatedb\'s and invertlinks\' WebDB connections 16 MB', async () => {
  const seen: { file: string; readonly: boolean; cacheKiB: number }[] = [];
  const close = Database.prototype.close;
  Database.prototype.close = function (this: Database.Database) {
    if (this.open) {
      const size = this.pragma('cache_size', { simple: true }) as number;
      // A negative size is in KiB, a positive one in pages.
      seen.push({ file: path.basename(this.name) || '(temporary)', readonly: this.readonly, cacheKiB: size < 0 ? -size : (size * (this.pragma('page_size', { simple: true }) as number)) / 1024 });
    }
    return close.call(this);
  };
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${web.url('h0', '/')}\n${web.url('h1', '/')}\n`);
  const dir = path.join(tmp, 'crawl');
  const log = new Log({ tool: 'crawl', tty: false });
  const gcs = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { detail?: { flags: number } })[])
      if ((e.detail?.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced++;
  });
  gcs.observe({ entryTypes: ['gc'] });
  try {
    const conf = crawlConf(process.env.HAZELNUT_CONF_DIR ?? path.resolve(import.meta.dirname, '..', 'fixtures', 'conf'), {
      'http.agent.name': 'HzTest',
      'fetcher.server.delay': '0',
      // The index's analysis threads and their segments' readers, however few the pages.
      'indexer.threads': '1',
    });
    const s = await crawl(conf, { seeds, dir, depth: 3, threads: 2, log });
    assert.is(s.documents, 40);
    // The observer is told of collections asynchronously.
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    gcs.disconnect();
    Database.prototype.close = close;
    log.close();
  }
  const kinds = new Set(seen.map((c) => `${c.file}${c.readonly ? ' (read-only)' : ''}`));
  for (const kind of ['webdb.sqlite', 'webdb.sqlite (read-only)', 'segment.sqlite', 'segment.sqlite (read-only)', '(temporary)'])
    assert.ok(kinds.has(kind), `the crawl opened and closed a ${kind} connection (it did: ${[...kinds].join(', ')})`);
  const bulk = seen.filter((c) => c.cacheKiB > 2048);
  // Three rounds: an updatedb each, and the invertlinks.
  assert.is(bulk.length, 4, `connections with a larger page cache: ${JSON.stringify(bulk)}`);
  for (const c of bulk) assert.equal(c, { file: 'webdb.sqlite', readonly: false, cacheKiB: 16384 });
});

test('the index and merge phases start from a collected heap', () => {
  assert.ok(forced >= 2, `full collections asked for: ${forced}`);
});

test.run();
