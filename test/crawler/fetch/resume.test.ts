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
/** The first run of each test names itself apart from the rerun (HzTest): which run sent a request is read from the request. */
const FIRST_AGENT = 'HzFirst';
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
  const child = spawn(process.execPath, [CLI, '-D', `http.agent.name=${FIRST_AGENT}`, '-D', 'fetcher.server.delay=0.05', '-D', 'fetcher.parse.threads=1', '-D', 'log.progress.interval=0.1', 'fetch', seg, '-threads', '4'], {
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

/** The page URLs requested by the crawler named `agent`, in arrival order. */
function requestedBy(agent: string): string[] {
  return web.requests.filter((r) => r.path !== '/robots.txt' && r.headers['user-agent']?.split(/[/ ]/)[0] === agent).map((r) => web.url(r.host, r.path));
}

test('SIGKILL half-way, then run again: every URL fetched; a page committed before the kill is not fetched again, one fetched but not yet committed is fetched once more', async () => {
  web.reset();
  const crawl = tempCrawl();
  dirs.push(crawl);
  const urls = allUrls();
  const seg = makeSegment(crawl, urls);
  const { child, exit } = startChild(seg);
  await waitForRequests(urls.length / 2);
  child.kill('SIGKILL');
  await exit;
  const before = Segment.open(seg, { readonly: true });
  // Committed before the kill: the pages the rerun must not fetch again.
  const committed = before.fetchedUrls();
  assert.ok(committed.size > 0 && committed.size < urls.length, `${committed.size} records after the kill`);
  assert.is(before.count('content'), committed.size, 'each committed record has its content');
  assert.not.ok(before.hasPhase('fetched'));
  before.close();

  const s = await fetch(testConf({ 'fetcher.server.delay': '0.05' }), seg, { threads: 4 });
  assert.ok(s.complete);
  assert.is(s.resumed, committed.size);
  assert.is(s.fetched, urls.length - committed.size);
  const killedRun = requestedBy(FIRST_AGENT);
  const rerun = requestedBy('HzTest');
  assert.is(killedRun.length + rerun.length, web.requests.filter((r) => r.path !== '/robots.txt').length, 'every request comes from one of the two runs');
  assert.is(new Set(killedRun).size, killedRun.length, 'the killed run requested no URL twice');
  for (const u of committed) assert.ok(killedRun.includes(u), `${u} committed but never requested`);
  // One writer thread commits in the order pages were put, and a host's pages are put in the order it served them:
  // what a host lost at the kill is its last pages, never one before a committed one.
  for (const h of HOSTS) {
    const served = killedRun.filter((u) => web.hostOf(u) === h);
    const firstLost = served.findIndex((u) => !committed.has(u));
    if (firstLost >= 0) assert.equal(served.slice(firstLost).filter((u) => committed.has(u)), [], `${h} committed a page served after one it lost`);
  }
  // The rerun fetches exactly what has no record, each once: those not reached before the kill, and those
  // fetched but lost with the writer thread's uncommitted batches (how many depends on the load, not on the fetcher).
  assert.equal(rerun.sort(), urls.filter((u) => !committed.has(u)).sort(), 'the rerun fetches exactly the URLs without a committed record');

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

test('SIGINT stops cleanly (exit 130), keeps every page that arrived; the rerun fetches exactly the rest', async () => {
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
  const kept = mid.fetchedUrls();
  assert.not.ok(mid.hasPhase('fetched'));
  assert.is(mid.count('parse'), kept.size, 'every stored page was parsed');
  mid.close();
  // A clean stop stores every page that arrived: a host loses at most the request it had in flight, its last.
  const first = requestedBy(FIRST_AGENT);
  for (const h of HOSTS) {
    const lost = first.filter((u) => web.hostOf(u) === h && !kept.has(u));
    assert.ok(lost.length <= 1, `${h} lost ${lost.join(' ')} at the interrupt`);
    if (lost.length) assert.is(lost[0], first.filter((u) => web.hostOf(u) === h).at(-1), `${h} lost a page before its last`);
  }
  const s = await fetch(testConf({ 'fetcher.server.delay': '0.05' }), seg, { threads: 4 });
  assert.is(s.resumed, kept.size);
  assert.ok(s.complete);
  assert.equal(requestedBy('HzTest').sort(), urls.filter((u) => !kept.has(u)).sort(), 'the rerun fetches exactly the URLs without a record');
});

test.run();
