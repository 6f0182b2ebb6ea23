/**
 * @module shared/lockfile
 * The crawl directory's lock file as both programs read it: the crawler's
 * tools take it while they write (crawler/crawl-lock), and the searcher reads it to
 * tell a crawl still running from a directory that has no index.
 */
import fs from 'node:fs';
import os from 'node:os';
import { crawlPaths } from './crawl-dir.js';

export interface LockInfo {
  pid: number;
  tool: string;
  host: string;
  /** ISO date. */
  started: string;
}

export function lockPath(crawlDir: string): string {
  return crawlPaths(crawlDir).lock;
}

/** The current holder, or undefined when unlocked; an unreadable lock file reads as held by nobody known. */
export function readLock(crawlDir: string): LockInfo | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockPath(crawlDir), 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as LockInfo;
  } catch {
    return { pid: 0, tool: 'unknown (unreadable lock file)', host: '', started: '' };
  }
}

/** Whether process `pid` runs on this machine (one of another user's counts: signalling it is refused, not failed). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock is stale when it was taken on this host by a process that no longer exists. */
export function isStale(info: LockInfo): boolean {
  if (info.host && info.host !== os.hostname()) return false;
  return !info.pid || !processAlive(info.pid);
}

/** `pid 123 (crawl on host, since …)`. */
export function describeLock(info: LockInfo): string {
  return `pid ${info.pid} (${info.tool}${info.host ? ' on ' + info.host : ''}${info.started ? ', since ' + info.started : ''})`;
}
