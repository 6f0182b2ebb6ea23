/**
 * @module crawler/webdb/lock
 * One writing tool per WebDB, whichever backend holds it: an embedded WebDB
 * is guarded by its crawl directory's lock file, a WebDB on a server by the
 * server's advisory lock, which the server drops when the holder's
 * connection ends (so it is never stale and needs no signal handlers).
 */
import { crawlDirOf } from '../../shared/crawl-dir.js';
import { withLock } from '../crawl-lock.js';
import { lockPostgresWebDb } from './postgres/lock.js';
import { webDbKind } from './webdb.js';

/** Runs `fn` holding the WebDB's writer lock; `force` and `graceful` are the lock file's, as in withLock. */
export async function withWebDbLock<T>(webdb: string, tool: string, opts: { force?: boolean; graceful?: boolean }, fn: () => Promise<T>): Promise<T> {
  if (webDbKind(webdb) === 'embedded') return withLock(crawlDirOf(webdb), tool, opts, fn);
  const release = await lockPostgresWebDb(webdb, tool);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** The crawl directory an embedded WebDB lives in, its logs beside it; undefined for a WebDB on a server. */
export function crawlDirOfWebDb(webdb: string): string | undefined {
  return webDbKind(webdb) === 'embedded' ? crawlDirOf(webdb) : undefined;
}
