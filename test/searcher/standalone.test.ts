/**
 * The searcher as its own program on a machine that holds only a copy of
 * a crawl's index/ and segments/: `hazelnut-searcher -dir`, answering over
 * HTTP, refusing a taken port with a clear message, stopping cleanly on
 * SIGTERM, and as several worker processes behind one port (-workers),
 * stopped cleanly when a signal reaches every process at once.
 * Also `hazelnut search` in the terminal, over the same copy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { searchTool } from '../../searcher/tools.js';
import { workerCount, workerMemory } from '../../searcher/workers.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';
import { PAGES } from './pages.js';
import { workersOf } from '../fixtures/searcher-process.js';

const HOST = '127.0.6.2';
const BIN = path.resolve(import.meta.dirname, '..', '..', 'searcher', 'hazelnut-searcher.js');
let src = '';
let copy = '';
const children: ChildProcess[] = [];

test.before(async () => {
  src = tempCrawlDir();
  await buildCrawl(src, PAGES);
  copy = tempCrawlDir();
  fs.cpSync(path.join(src, 'index'), path.join(copy, 'index'), { recursive: true });
  fs.cpSync(path.join(src, 'segments'), path.join(copy, 'segments'), { recursive: true });
  fs.rmSync(src, { recursive: true, force: true });
});
test.after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  fs.rmSync(copy, { recursive: true, force: true });
});

interface Proc {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
}

function run(args: string[]): Proc {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function until(what: () => RegExpMatchArray | null, ms: number, p: Proc): Promise<RegExpMatchArray> {
  const end = Date.now() + ms;
  for (;;) {
    const m = what();
    if (m) return m;
    if (Date.now() > end || p.child.exitCode !== null) throw new Error(`timed out; stdout: ${p.out()} stderr: ${p.err()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('hazelnut-searcher serves a copied index/ + segments/, refuses a taken port, stops on SIGTERM', async () => {
  assert.equal(fs.readdirSync(copy).sort(), ['index', 'segments']);
  const p = run(['-dir', copy, '-port', '0', '-host', HOST]);
  const m = await until(() => p.out().match(/serving 9 documents from .* at (http:\/\/[\d.]+:(\d+))\//), 20_000, p);
  const base = m[1]!;
  const r = (await (await fetch(`${base}/api/search?query=${encodeURIComponent('"web crawler"')}`)).json()) as { hits: { url: string; summary: string }[] };
  assert.equal(r.hits.map((h) => h.url), ['http://docs.test/crawler']);
  assert.match(r.hits[0]!.summary, /web crawler fetches pages/);
  const cached = await fetch(`${base}/cached?url=${encodeURIComponent('http://docs.test/parser')}`);
  assert.is(cached.status, 200);
  assert.match(await cached.text(), /extracts outlinks/);

  const second = run(['-dir', copy, '-port', m[2]!, '-host', HOST]);
  assert.is(await second.exit, 1);
  assert.match(second.err(), new RegExp(`port ${m[2]} on 127\\.0\\.6\\.2 is already in use.*-port <n>`));

  p.child.kill('SIGTERM');
  assert.is(await p.exit, 0);
  assert.match(p.err(), /SIGTERM: finishing requests in flight/);
});

test('workerCount: -workers or searcher.workers as given, one a core for 0', () => {
  const cases: [asked: number, cores: number, want: number][] = [
    [0, 1, 1],
    [0, 2, 2],
    [0, 16, 16],
    [1, 16, 1],
    [3, 2, 3],
  ];
  for (const [asked, cores, want] of cases) assert.is(workerCount(asked, cores), want, `${asked} on ${cores} cores`);
});

test('workerMemory: workers start with a small young generation, a slowly growing old one, the collector on their own thread and malloc giving large buffers back, unless the operator set any', () => {
  const TUNED = 'glibc.malloc.mmap_threshold=65536:glibc.malloc.arena_max=2';
  const SEMI = '--max-semi-space-size=1';
  const GROW = '--heap-growing-percent=25';
  const ONE = '--single-threaded-gc';
  const cases: [env: NodeJS.ProcessEnv, execArgv: string[], want: ReturnType<typeof workerMemory>][] = [
    [{}, [], { execArgv: [SEMI, GROW, ONE], env: { GLIBC_TUNABLES: TUNED } }],
    [{}, ['--enable-source-maps'], { execArgv: ['--enable-source-maps', SEMI, GROW, ONE], env: { GLIBC_TUNABLES: TUNED } }],
    [{ NODE_OPTIONS: '--max-semi-space-size=8' }, [], { execArgv: [GROW, ONE], env: { GLIBC_TUNABLES: TUNED } }],
    [{}, ['--max-semi-space-size=4'], { execArgv: ['--max-semi-space-size=4', GROW, ONE], env: { GLIBC_TUNABLES: TUNED } }],
    [{}, ['--heap-growing-percent=100'], { execArgv: ['--heap-growing-percent=100', SEMI, ONE], env: { GLIBC_TUNABLES: TUNED } }],
    [{ GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' }, [], { execArgv: [SEMI, GROW, ONE], env: {} }],
    [{ GLIBC_TUNABLES: '' }, [], { execArgv: [SEMI, GROW, ONE], env: {} }],
    [{ NODE_OPTIONS: '--single-threaded-gc' }, [], { execArgv: [SEMI, GROW], env: { GLIBC_TUNABLES: TUNED } }],
  ];
  for (const [env, execArgv, want] of cases) assert.equal(workerMemory(env, execArgv), want, JSON.stringify([env, execArgv]));
});

test('hazelnut-searcher with searcher.workers 2, then -workers 2: two processes behind one port, stopped together by SIGTERM; one that dies stops the server', async () => {
  const ask = async (base: string) => ((await (await fetch(`${base}/api/search?query=crawler`)).json()) as { total: number }).total;
  const p = run(['-D', 'searcher.workers=2', '-dir', copy, '-port', '0', '-host', HOST]);
  const m = await until(() => p.out().match(/serving 9 documents from .* at (http:\/\/[\d.]+:\d+)\/ \(2 worker processes\)/), 30_000, p);
  const workers = workersOf(p.child.pid!);
  assert.is(workers.length, 2);
  for (const w of workers) {
    assert.ok(fs.readFileSync(`/proc/${w}/cmdline`, 'utf8').split('\0').includes('--max-semi-space-size=1'), `worker ${w}: its young generation`);
    assert.ok(fs.readFileSync(`/proc/${w}/environ`, 'utf8').split('\0').some((v) => v.startsWith('GLIBC_TUNABLES=')), `worker ${w}: its malloc`);
  }
  for (let i = 0; i < 4; i++) assert.ok((await ask(m[1]!)) > 0);
  p.child.kill('SIGTERM');
  assert.is(await p.exit, 0);
  assert.match(p.err(), /SIGTERM: stopping 2 workers/);
  for (const w of workers) assert.not.ok(fs.existsSync(`/proc/${w}`), `worker ${w} stopped`);

  const q = run(['-dir', copy, '-port', '0', '-host', HOST, '-workers', '2']);
  await until(() => q.out().match(/\(2 worker processes\)/), 30_000, q);
  const [first, second] = workersOf(q.child.pid!);
  process.kill(first!, 'SIGKILL');
  assert.is(await q.exit, 1);
  assert.match(q.err(), new RegExp(`worker ${first} ended \\(SIGKILL\\); stopping the others`));
  assert.not.ok(fs.existsSync(`/proc/${second}`), 'the other worker stopped');
});

test('hazelnut-searcher -workers 2 stopped by SIGTERM to every process at once, as a service manager stops a group: exit 0, no error', async () => {
  // The workers' own signals race the primary's stop message: a few rounds, since one round may miss the race.
  for (let round = 0; round < 5; round++) {
    const p = run(['-dir', copy, '-port', '0', '-host', HOST, '-workers', '2']);
    await until(() => p.out().match(/\(2 worker processes\)/), 30_000, p);
    const workers = workersOf(p.child.pid!);
    for (const w of workers) process.kill(w, 'SIGTERM');
    p.child.kill('SIGTERM');
    assert.is(await p.exit, 0, `round ${round}: ${p.err()}`);
    assert.not.match(p.err(), /EPIPE|Error/, `round ${round}`);
    for (const w of workers) assert.not.ok(fs.existsSync(`/proc/${w}`), `worker ${w} stopped`);
  }
});

test('hazelnut-searcher: a directory without an index, a bad option and a negative searcher.workers are clear errors', async () => {
  const empty = tempCrawlDir();
  try {
    const p = run(['-dir', empty, '-port', '0', '-host', HOST]);
    assert.is(await p.exit, 1);
    assert.match(p.err(), /has no merged index .*hazelnut merge/);
    const w = run(['-dir', empty, '-port', '0', '-host', HOST, '-workers', '2']);
    assert.is(await w.exit, 1, 'workers that cannot start fail the server');
    assert.match(w.err(), /has no merged index/);
    const q = run(['-dir', empty, '-prot', '1']);
    assert.is(await q.exit, 2);
    assert.match(q.err(), /unknown option -prot\nUsage: hazelnut-searcher/);
    const c = run(['-D', 'searcher.workers=-1', '-dir', copy, '-port', '0', '-host', HOST]);
    assert.is(await c.exit, 1);
    assert.match(c.err(), /property searcher\.workers must be 0 \(one process a core\) or more, not -1/);
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
});

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  const code = await searchTool.run({ conf: Conf.load(), out, err: new PassThrough(), tty: false, confOverrides: {} }, args);
  return { code, out: text };
}

test('hazelnut search prints hits with summaries, or JSON, from the same code as the server', async () => {
  const t = await cli([copy, '"fetcher', 'threads"']);
  assert.is(t.code, 0);
  assert.match(t.out, /^1\. Fetcher settings\n {3}http:\/\/docs\.test\/fetcher\n {3}.*fetcher threads/);
  assert.match(t.out, /search: hits 1-1 of 1 for ""fetcher threads"" in [\d.]+ ms\n$/);
  const j = await cli([copy, 'crawler', '-n', '2', '-json']);
  const r = JSON.parse(j.out) as { hits: unknown[]; total: number; exact: boolean };
  assert.is(r.hits.length, 2);
  assert.ok(r.total >= 7 && r.exact);
  const none = await cli([copy, 'zzzz']);
  assert.match(none.out, /search: no hits of 0 for "zzzz"/);
  const miss = await cli([copy, 'fetchr', 'thraeds']);
  assert.match(miss.out, /search: did you mean "fetcher threads"\?\n$/);
});

test.run();
