import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { acquireLock, isStale, lockPath, readLock, withLock } from '../../crawler/crawl-lock.js';
import { HzError } from '../../shared/errors.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-lock-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  return r.pid!;
}

function lockedError(fn: () => unknown): HzError {
  try {
    fn();
  } catch (e) {
    assert.instance(e, HzError);
    assert.is((e as HzError).code, 'HZ_ERR_LOCKED');
    return e as HzError;
  }
  throw new Error('expected HZ_ERR_LOCKED');
}

test('one writer: a second is refused with the holder pid and tool; release frees it', () => {
  const dir = path.join(tmp, 'a');
  const release = acquireLock(dir, 'generate');
  const info = readLock(dir)!;
  assert.equal([info.pid, info.tool, info.host], [process.pid, 'generate', os.hostname()]);
  assert.ok(!Number.isNaN(Date.parse(info.started)));
  const e = lockedError(() => acquireLock(dir, 'inject'));
  assert.match(e.message, new RegExp(`is locked by pid ${process.pid} \\(generate on `));
  release();
  assert.not.ok(fs.existsSync(lockPath(dir)));
  acquireLock(dir, 'inject')();
});

test('stale lock: reported, and -force takes it over', () => {
  const dir = path.join(tmp, 'b');
  fs.mkdirSync(dir);
  const pid = deadPid();
  fs.writeFileSync(lockPath(dir), JSON.stringify({ pid, tool: 'fetch', host: os.hostname(), started: '2024-01-01T00:00:00Z' }));
  assert.ok(isStale(readLock(dir)!));
  const e = lockedError(() => acquireLock(dir, 'inject'));
  assert.match(e.message, new RegExp(`stale lock from pid ${pid} \\(fetch .*no longer running; rerun with -force`));
  const release = acquireLock(dir, 'inject', { force: true });
  assert.is(readLock(dir)!.pid, process.pid);
  release();
  assert.not.ok(fs.existsSync(lockPath(dir)));
});

test('a live lock of another host is never stale; an unreadable one is', () => {
  assert.not.ok(isStale({ pid: deadPid(), tool: 't', host: 'some-other-host', started: '' }));
  assert.not.ok(isStale({ pid: process.pid, tool: 't', host: os.hostname(), started: '' }));
  const dir = path.join(tmp, 'c');
  fs.mkdirSync(dir);
  fs.writeFileSync(lockPath(dir), 'garbage');
  assert.match(lockedError(() => acquireLock(dir, 'inject')).message, /stale lock .*unreadable lock file/);
});

test('withLock releases after success and after an error', async () => {
  const dir = path.join(tmp, 'd');
  assert.is(await withLock(dir, 'x', {}, async () => (fs.existsSync(lockPath(dir)) ? 'held' : 'not held')), 'held');
  assert.not.ok(fs.existsSync(lockPath(dir)));
  try {
    await withLock(dir, 'x', {}, () => {
      throw new Error('tool failed');
    });
  } catch (e) {
    assert.is((e as Error).message, 'tool failed');
  }
  assert.not.ok(fs.existsSync(lockPath(dir)));
});

test('SIGTERM while holding the lock releases it', async () => {
  const dir = path.join(tmp, 'e');
  const script = path.join(tmp, 'hold.mts');
  fs.writeFileSync(
    script,
    `import { withLock } from ${JSON.stringify(path.resolve('crawler/crawl-lock.ts'))};
await withLock(${JSON.stringify(dir)}, 'holder', {}, () => new Promise<void>((r) => { console.log('locked'); setTimeout(r, 20000); }));\n`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('child never took the lock')), 10000);
      child.stdout!.on('data', (d) => String(d).includes('locked') && (clearTimeout(t), resolve()));
    });
    assert.is(readLock(dir)?.tool, 'holder');
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    assert.is(await exited, 143);
    assert.not.ok(fs.existsSync(lockPath(dir)), 'lock removed on SIGTERM');
  } finally {
    child.kill('SIGKILL');
  }
});

test.run();
