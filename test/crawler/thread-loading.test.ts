/**
 * The crawler's worker threads (the fetch's parse thread, the index's
 * analysis thread) load their TypeScript in the thread itself: each adds one
 * thread to the process, not a second one for a module loader of its own
 * (a V8 isolate, about 20 MB, for every worker), and still does its work;
 * their young generation is worker.young.generation.mb.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseThreads } from '../../crawler/fetch/tool.js';
import { AnalysisPool } from '../../crawler/index/analysis-pool.js';
import { Segment } from '../../segments/segment.js';
import { SegmentWriter } from '../../segments/segment-writer.js';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';

/** The young generation a pool's first worker was given (its threads are private to it). */
const youngOf = (o: object, field: string, at: (x: never) => Worker = (x) => x) =>
  at((o as unknown as Record<string, never[]>)[field]![0]!).resourceLimits?.maxYoungGenerationSizeMb;

/** Starts libuv's pool (all its threads at once), so that only the workers change the count. */
const warmPool = () => new Promise<void>((resolve, reject) => crypto.pbkdf2('a', 'b', 1, 8, 'sha256', (e) => (e ? reject(e) : resolve())));

/**
 * Threads in the process while `run` has its workers up, less before. `run` goes twice and the
 * first is not counted: a module tsx has not transformed yet starts esbuild's own thread. At most
 * one more, not exactly one: a thread another test left may end in between.
 */
async function threadsAdded(run: (whileUp: () => void) => Promise<void>): Promise<number> {
  await warmPool();
  await run(() => {});
  const before = fs.readdirSync('/proc/self/task').length;
  let during = before;
  await run(() => (during = fs.readdirSync('/proc/self/task').length));
  return during - before;
}

test('the parse thread adds one thread to the process, parses, and has the young generation the conf says', async () => {
  if (!fs.existsSync('/proc/self/task')) return;
  const added = await threadsAdded(async (whileUp) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-thread-load-'));
    const threads = parseThreads(Conf.load({ overrides: { 'http.agent.name': 'HzTest', 'worker.young.generation.mb': '6' } }))!;
    try {
      const seg = Segment.create(dir);
      const w = new SegmentWriter(seg, threads);
      const url = 'http://127.0.0.9/a.html';
      const fetch = { url, status: 'fetch_success' as const, protocolStatus: 'success' as const, httpStatus: 200, fetchTime: 1_700_000_000_000, headers: { 'content-type': 'text/html' }, contentType: 'text/html', meta: {} };
      w.put(fetch, { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from('<title>Loaded</title><p>parsed in the thread <a href="b.html">b</a>'), truncated: false }, 'in-thread');
      await w.close();
      whileUp();
      assert.is(youngOf(threads, 'workers'), 6);
      const p = seg.getParse(url)!;
      assert.is(p.title, 'Loaded');
      assert.equal(p.outlinks, [{ url: 'http://127.0.0.9/b.html', anchor: 'b' }]);
      seg.close();
    } finally {
      await threads.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  assert.ok(added <= 1, `${added} threads more`);
});

test('the analysis thread adds one thread to the process, analyzes, and has the young generation it is given', async () => {
  if (!fs.existsSync('/proc/self/task')) return;
  const analyzer = Analyzer.fromConf(Conf.load({ overrides: {} }));
  const added = await threadsAdded(async (whileUp) => {
    const pool = new AnalysisPool(1, analyzer.options, 100, 6);
    try {
      const a = await pool.analyze({ title: 'Threads', content: 'analyzed in a thread', anchors: [], url: 'http://127.0.0.9/', headings: [] }, undefined);
      whileUp();
      assert.is(youngOf(pool, 'threads', (t: { w: Worker }) => t.w), 6);
      assert.is(a.lengths[0], 1);
      assert.ok(a.lengths[2] > 0);
    } finally {
      await pool.close();
    }
  });
  assert.ok(added <= 1, `${added} threads more`);
});

test.run();
