/**
 * `npm start` under a service manager or `kill`: a SIGTERM or SIGINT sent to
 * the npm process alone (not its group, as a terminal's Ctrl-C would) stops
 * the crawl, the searcher and the demo web; and a -port already taken is
 * said at once, before the demo web is served or crawled, in one message.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exited, freePort, groupGone, killGroup, npmStart, refused, until } from './npm-start.js';

const SEARCH_HOST = '127.0.7.60';

/** A fresh temporary directory for one run, removed by the returned function. */
function tempDir(): [string, () => void] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-demo-signals-'));
  return [dir, () => fs.rmSync(dir, { recursive: true, force: true })];
}

test('SIGTERM to the npm start process alone, during the crawl, stops everything and exits 0', async () => {
  const [tmp, cleanup] = tempDir();
  const port = await freePort(SEARCH_HOST);
  const run = npmStart(['-port', String(port), '-host', SEARCH_HOST, '-ip', '127.0.7.61', '-dir', path.join(tmp, 'crawl')]);
  try {
    assert.ok(await until(() => /crawl: round 1/.test(run.err()), run.proc, 60_000), `the crawl began:\n${run.err()}`);
    const web = /serving the demo web on (http:\S+)/.exec(run.err())![1]!;
    run.proc.kill('SIGTERM');
    assert.is(await exited(run.proc, 30_000), '0', run.err());
    assert.match(run.err(), 'demo: stopping');
    assert.ok(await groupGone(run.proc.pid!, 10_000), 'no process of npm start is left');
    assert.ok(await refused(web), 'the demo web stopped');
  } finally {
    killGroup(run.proc.pid!);
    cleanup();
  }
});

test('SIGINT to the npm start process alone, once it serves, stops the searcher and the demo web and exits 0', async () => {
  const [tmp, cleanup] = tempDir();
  const port = await freePort(SEARCH_HOST);
  const run = npmStart(['-port', String(port), '-host', SEARCH_HOST, '-ip', '127.0.7.65', '-dir', path.join(tmp, 'crawl')]);
  try {
    assert.ok(await until(() => run.out().includes('Ctrl-C stops'), run.proc, 90_000), `npm start became ready:\n${run.err()}`);
    const base = `http://${SEARCH_HOST}:${port}/`;
    assert.not.ok(await refused(base + 'healthz'), 'the searcher serves');
    run.proc.kill('SIGINT');
    assert.is(await exited(run.proc, 30_000), '0', run.err());
    assert.ok(await groupGone(run.proc.pid!, 10_000), 'no process of npm start is left');
    assert.ok(await refused(base + 'healthz'), 'the searcher stopped');
  } finally {
    killGroup(run.proc.pid!);
    cleanup();
  }
});

test('a -port in use is said once, before the demo web is served or crawled, and npm start exits 1', async () => {
  const [tmp, cleanup] = tempDir();
  const busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, SEARCH_HOST, resolve));
  const port = (busy.address() as net.AddressInfo).port;
  const run = npmStart(['-port', String(port), '-host', SEARCH_HOST, '-ip', '127.0.7.69', '-dir', path.join(tmp, 'crawl')]);
  try {
    assert.is(await exited(run.proc, 30_000), '1', run.err());
    const said = `port ${port} on ${SEARCH_HOST} is in use`;
    assert.is(run.err().split(said).length - 1, 1, `said once:\n${run.err()}`);
    assert.not.match(run.err(), /serving the demo web|crawl:/);
    assert.not.ok(fs.existsSync(path.join(tmp, 'crawl')), 'nothing was crawled');
  } finally {
    killGroup(run.proc.pid!);
    await new Promise((r) => busy.close(r));
    cleanup();
  }
});

test.run();
