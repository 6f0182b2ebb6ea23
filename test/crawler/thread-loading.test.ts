/**
 * The crawler's worker threads (the fetch's parse thread, the index's
 * analysis thread) load their TypeScript in the thread itself: each adds one
 * thread to the process, not a second one for a module loader of its own
 * (a V8 isolate, about 20 MB, for every worker), and still does its work.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseThreads } from '../../crawler/fetch/tool.js';
import { AnalysisPool } from '../../crawler/index/analysis-pool.js';
import { Segment } from '../../segments/segment.js';
import { SegmentWriter } from '../../segments/writer.js';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';

const threadCount = () => fs.readdirSync('/proc/self/task').length;

/** Starts libuv's pool (all its threads at once), so that only the workers change the count. */
const warmPool = () => new Promise<void>((resolve, reject) => crypto.pbkdf2('a', 'b', 1, 8, 'sha256', (e) => (e ? reject(e) : resolve())));

test('the parse thread adds one thread to the process and parses', async () => {
  if (!fs.existsSync('/proc/self/task')) return;
  await warmPool();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-thread-load-'));
  const before = threadCount();
  const threads = parseThreads(Conf.load({ overrides: { 'http.agent.name': 'HzTest' } }));
  try {
    const seg = Segment.create(dir);
    const w = new SegmentWriter(seg, threads);
    const url = 'http://127.0.0.9/a.html';
    const fetch = { url, status: 'fetch_success' as const, protocolStatus: 'success' as const, httpStatus: 200, fetchTime: 1_700_000_000_000, headers: { 'content-type': 'text/html' }, contentType: 'text/html', meta: {} };
    w.put(fetch, { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from('<title>Loaded</title><p>parsed in the thread <a href="b.html">b</a>'), truncated: false }, 'in-thread');
    await w.close();
    assert.is(threadCount(), before + 1);
    const p = seg.getParse(url)!;
    assert.is(p.title, 'Loaded');
    assert.equal(p.outlinks, [{ url: 'http://127.0.0.9/b.html', anchor: 'b' }]);
    seg.close();
  } finally {
    await threads.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the analysis thread adds one thread to the process and analyzes', async () => {
  if (!fs.existsSync('/proc/self/task')) return;
  await warmPool();
  const before = threadCount();
  const analyzer = Analyzer.fromConf(Conf.load({ overrides: {} }));
  const pool = new AnalysisPool(1, analyzer.options, 100);
  try {
    const a = await pool.analyze({ title: 'Threads', content: 'analyzed in a thread', anchors: [], url: 'http://127.0.0.9/', headings: [] }, undefined);
    assert.is(threadCount(), before + 1);
    assert.is(a.lengths[0], 1);
    assert.ok(a.lengths[2] > 0);
  } finally {
    await pool.close();
  }
});

test.run();
