/**
 * A searcher stops on SIGTERM whenever it comes: before the process listens
 * for signals, while its workers start (forked, still opening the index),
 * and once it serves; as one process, with -workers 2, and as a broker. A
 * service manager that signals the main process must never need SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';
import { PAGES } from './pages.js';
import { workersOf } from '../fixtures/searcher-process.js';

const HOST = '127.0.6.12';
const BIN = path.resolve(import.meta.dirname, '..', '..', 'searcher', 'hazelnut-searcher.js');
const STOP_MS = 15_000;
let crawl = '';
const children: ChildProcess[] = [];

test.before(async () => {
  crawl = tempCrawlDir();
  await buildCrawl(crawl, PAGES);
});
test.after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(crawl, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Moment = 'at once' | 'workers forked' | 'serving';

/**
 * Starts the searcher with `args`, sends SIGTERM to the main process at `moment`, and returns how it ended
 * (`0`, `SIGTERM`…, or `still running`), what it wrote, and the workers it had.
 */
async function stopAt(args: string[], moment: Moment, workers = 0): Promise<{ ended: string; out: string; workers: number[] }> {
  const child = spawn(process.execPath, [BIN, ...args, '-port', '0', '-host', HOST], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const ended = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(String(code ?? signal))));
  const seen = new Set<number>();
  const deadline = Date.now() + 30_000;
  const reached = () =>
    moment === 'at once' ||
    (moment === 'workers forked' ? seen.size >= workers : /serving|brokering/.test(out) && (!workers || /worker processes/.test(out)));
  while (!reached() && Date.now() < deadline && child.exitCode === null) {
    for (const w of workersOf(child.pid!)) seen.add(w);
    if (!reached()) await sleep(moment === 'workers forked' ? 5 : 50);
  }
  assert.ok(reached(), `${moment} was reached: ${out}`);
  if (moment === 'workers forked') assert.not.match(out, /serving/, 'the workers were still starting when the signal came');
  child.kill('SIGTERM');
  const stopBy = Date.now() + STOP_MS;
  let how = 'still running';
  while (Date.now() < stopBy) {
    for (const w of workersOf(child.pid!)) seen.add(w);
    how = await Promise.race([ended, sleep(50).then(() => 'still running')]);
    if (how !== 'still running') break;
  }
  return { ended: how, out, workers: [...seen] };
}

const CASES: [what: string, args: () => string[], moment: Moment, workers: number][] = [
  ['one process', () => ['-dir', crawl, '-workers', '1'], 'at once', 0],
  ['one process', () => ['-dir', crawl, '-workers', '1'], 'serving', 0],
  ['-workers 2', () => ['-dir', crawl, '-workers', '2'], 'at once', 2],
  ['-workers 2', () => ['-dir', crawl, '-workers', '2'], 'workers forked', 2],
  ['-workers 2', () => ['-dir', crawl, '-workers', '2'], 'serving', 2],
  ['a broker', () => ['-shards', '127.0.6.13:1', '-workers', '1'], 'at once', 0],
  ['a broker with -workers 2', () => ['-shards', '127.0.6.13:1', '-workers', '2'], 'workers forked', 2],
  ['a broker', () => ['-shards', '127.0.6.13:1', '-workers', '1'], 'serving', 0],
];

for (const [what, args, moment, workers] of CASES) {
  test(`${what}: SIGTERM ${moment === 'at once' ? 'as soon as it starts' : `once ${moment}`} stops it, every worker with it`, async () => {
    const r = await stopAt(args(), moment, workers);
    // Before node has set up any handler the signal's own default ends the process; after, it stops and exits 0.
    assert.ok(moment === 'at once' ? ['0', 'SIGTERM'].includes(r.ended) : r.ended === '0', `ended ${r.ended}: ${r.out}`);
    for (const w of r.workers) assert.not.ok(fs.existsSync(`/proc/${w}`), `worker ${w} stopped`);
    if (moment !== 'at once') assert.match(r.out, /SIGTERM: (finishing|stopping)/);
    assert.not.match(r.out, /Error|EPIPE/);
  });
}

test.run();
