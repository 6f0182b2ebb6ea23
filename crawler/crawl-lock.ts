/**
 * @module crawler/crawl-lock
 * One writer per crawl directory. A tool that changes the WebDB creates
 * `<crawl>/.lock` atomically (O_EXCL) with who holds it; a second writer is
 * refused with the holder's pid and tool. A lock whose process is gone (a
 * killed crawl) is reported as stale, and `-force` takes it over — Nutch's
 * `.locked` file with `-force`, plus the pid so the user can tell a live
 * lock from a leftover one. The lock goes away when the tool ends, also on
 * SIGINT/SIGTERM.
 */
import fs from 'node:fs';
import os from 'node:os';
import { HzError } from '../shared/errors.js';
import { describeLock as describe, isStale, lockPath, readLock, type LockInfo } from '../shared/lockfile.js';

export { isStale, lockPath, readLock, type LockInfo } from '../shared/lockfile.js';

/** Takes the lock or throws HZ_ERR_LOCKED; returns the release function. */
export function acquireLock(crawlDir: string, tool: string, opts: { force?: boolean } = {}): () => void {
  fs.mkdirSync(crawlDir, { recursive: true });
  const file = lockPath(crawlDir);
  const info: LockInfo = { pid: process.pid, tool, host: os.hostname(), started: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, JSON.stringify(info) + '\n');
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        // Remove only our own lock: a -force taker may have replaced it.
        if (readLock(crawlDir)?.pid === process.pid) fs.rmSync(file, { force: true });
      };
      // process.exit() anywhere (a second Ctrl-C) still leaves no lock behind.
      process.on('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = readLock(crawlDir);
    if (!holder) continue; // released between our two calls
    const stale = isStale(holder);
    if (!opts.force) {
      throw new HzError(
        'HZ_ERR_LOCKED',
        stale
          ? `${crawlDir} has a stale lock from ${describe(holder)}, which is no longer running; rerun with -force to take it over (or remove ${file})`
          : `${crawlDir} is locked by ${describe(holder)}; wait for it to finish (use -force only if you are sure it is not writing)`,
      );
    }
    fs.rmSync(file, { force: true });
  }
  throw new HzError('HZ_ERR_LOCKED', `could not lock ${crawlDir}: another tool keeps taking the lock`);
}

/**
 * Runs `fn` holding the crawl directory's lock. The lock is released when
 * `fn` settles, and if the process is interrupted (SIGINT/SIGTERM) meanwhile.
 */
export async function withLock<T>(
  crawlDir: string,
  tool: string,
  /** `graceful`: the tool stops itself on SIGINT/SIGTERM (and so releases the lock); no handlers are installed. */
  opts: { force?: boolean; graceful?: boolean },
  fn: () => Promise<T> | T,
): Promise<T> {
  const release = acquireLock(crawlDir, tool, opts);
  if (opts.graceful) {
    try {
      return await fn();
    } finally {
      release();
    }
  }
  const onSignal = (signal: NodeJS.Signals) => {
    release();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await fn();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    release();
  }
}
