/**
 * `hazelnut-searcher -workers 2`: each worker runs the build its primary runs (recorded once, by the
 * primary) rather than checking the build's files again, a stat of each of some 300 files a worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';
import { PAGES } from './pages.js';
import { startSearcher, workersOf } from '../fixtures/searcher-process.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
let crawl = '';
let proc: ChildProcess | undefined;

test.before(async () => {
  crawl = tempCrawlDir();
  await buildCrawl(crawl, PAGES);
});
test.after(() => {
  if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  fs.rmSync(crawl, { recursive: true, force: true });
});

test('the workers run the primary’s build', async () => {
  const started = await startSearcher(['-dir', crawl, '-port', '0', '-host', '127.0.0.1', '-workers', '2'], ROOT);
  proc = started.proc;
  const primary = proc.pid!;
  const workers = workersOf(primary);
  assert.is(workers.length, 2);
  assert.is((await fetch(`${started.base}/healthz`)).status, 200);
  const build = path.join(ROOT, 'build', fs.readFileSync(path.join(ROOT, 'build', 'current'), 'utf8').trim());
  const recorded = fs.readdirSync(build).filter((f) => f.endsWith('.pid')).map((f) => Number.parseInt(f, 10));
  assert.ok(recorded.includes(primary), 'the primary recorded itself in its build');
  assert.equal(workers.filter((w) => recorded.includes(w)), [], 'no worker looked for a build of its own');
  const gone = new Promise((r) => proc!.once('exit', r));
  proc.kill('SIGTERM');
  await gone;
});

test.run();
