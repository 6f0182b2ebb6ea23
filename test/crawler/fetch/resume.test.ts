/** A fetch killed half-way (SIGKILL) or interrupted (SIGINT) in a child process, then run again, as the server counts. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetch } from '../../../crawler/fetch/tool.js';
import { Segment } from '../../../segments/segment.js';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { makeSegment, tempCrawl, testConf } from './helpers.js';

const CLI = path.resolve(import.meta.dirname, '../../../crawler/hazelnut.js');
const HOSTS = ['h0', 'h1', 'h2', 'h3'];
const PER_HOST = 15;
let web: TestWeb;
const dirs: string[] = [];

test.before(async () => {
  const pages = Object.fromEntries(Array.from({ length: PER_HOST }, (_, i) => [`/${i}`, { body: `<title>page ${i}</title><a href="/${i + 1}">next</a>`, headerDelayMs: 20 }]));
  web = await startTestWeb({ block: '127.0.3', hosts: Object.fromEntries(HOSTS.map((h) => [h, { pages }])) });
});

test.after(async () => {
  await web.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function allUrls(): string[] {
  const urls: string[] = [];
  for (let i = 0; i < PER_HOST; i++) for (const h of HOSTS) urls.push(web.url(h, `/${i}`));
  return urls;
}

function startChild(seg: string): { child: ChildProcess; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, '-D', 'http.agent.name=HzTest', '-D', 'fetcher.server.delay=0.2', '-D', 'log.progress.interval=0.1', 'fetch', seg, '-threads', '4'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exit };
}

async function waitForRequests(n: number, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (web.requests.filter((r) => r.path !== '/robots.txt').length < n) {
    if (Date.now() > end) throw new Error(`fewer than ${n} requests within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function pageCounts(): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of web.requests) if (r.path !== '/robots.txt') m.set(`${r.host}${r.path}`, (m.get(`${r.host}${r.path}`) ?? 0) + 1);
  return m;
}

test('SIGKILL half-way, then run again: every URL fetched, none twice except those in flight at the kill', async () => {
  web.reset();
  const crawl = tempCrawl();
  dirs.push(crawl);
  const urls = allUrls();
  const seg = makeSegment(crawl, urls);
  const { child, exit } = startChild(seg);
  await waitForRequests(urls.length / 2);
  child.kill('SIGKILL');
  await exit;
  // At most one request per host was in flight (fetcher.threads.per.host = 1): the last one each host saw.
  const lastBeforeKill = new Map(HOSTS.map((h) => [h, web.requestsTo(h).at(-1)!.path]));
  const before = Segment.open(seg, { readonly: true });
  const stored = before.count('fetch');
  assert.ok(stored > 0 && stored < urls.length, `${stored} records after the kill`);
  assert.not.ok(before.hasPhase('fetched'));
  before.close();

  const s = await fetch(testConf({ 'fetcher.server.delay': '0.05' }), seg, { threads: 4 });
  assert.ok(s.complete);
  assert.is(s.resumed + s.fetched, urls.length);
  const counts = pageCounts();
  assert.is(counts.size, urls.length, 'every URL requested');
  const twice = [...counts].filter(([, n]) => n > 1);
  assert.ok(twice.length <= HOSTS.length, `${twice.length} URLs fetched twice`);
  for (const [key, n] of twice) {
    assert.is(n, 2, key);
    const host = key.slice(0, 2);
    assert.is(key.slice(2), lastBeforeKill.get(host), `${key} fetched twice but was not in flight at the kill`);
  }
  const after = Segment.open(seg, { readonly: true });
  try {
    assert.ok(after.hasPhase('fetched') && after.hasPhase('parsed'));
    assert.is([...after.fetches()].length, urls.length);
    assert.is([...after.contents()].length, urls.length);
    assert.is([...after.parses()].length, urls.length);
  } finally {
    after.close();
  }
});

test('SIGINT stops cleanly (exit 130), keeps what is done; the rerun finishes the rest', async () => {
  web.reset();
  const crawl = tempCrawl();
  dirs.push(crawl);
  const urls = allUrls();
  const seg = makeSegment(crawl, urls);
  const { child, exit } = startChild(seg);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await waitForRequests(urls.length / 3);
  child.kill('SIGINT');
  assert.is(await exit, 130);
  assert.match(out, /interrupted: run the same command again/);
  // A standalone fetch is not silent when stderr is not a terminal: a plain progress line every interval.
  assert.match(err, new RegExp(`^fetch \\d+/${urls.length} pages · [\\d.]+/s · \\d+ errors? · ETA [\\d a-z]+ · \\d+ KiB/s · \\d+ hosts? active$`, 'm'));
  const mid = Segment.open(seg, { readonly: true });
  const kept = mid.count('fetch');
  assert.not.ok(mid.hasPhase('fetched'));
  assert.is(mid.count('parse'), kept, 'every stored page was parsed');
  mid.close();
  const s = await fetch(testConf({ 'fetcher.server.delay': '0.05' }), seg, { threads: 4 });
  assert.is(s.resumed, kept);
  assert.ok(s.complete);
  assert.is(pageCounts().size, urls.length);
});

test.run();
