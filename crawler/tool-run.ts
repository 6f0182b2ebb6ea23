/**
 * @module crawler/tool-run
 * How a command runs over a crawl directory: the crawl directory is the
 * parent of its `<webdb>`, `<segments_dir>` or `<index>` argument (two levels
 * up from a segment), its log goes to `<crawl>/logs/<tool>.log`, and a tool
 * that writes the WebDB does its work holding the crawl directory's lock.
 * A WebDB on PostgreSQL has no crawl directory: its tools log to stderr (or
 * to the crawl directory of their segments) and hold the WebDB's advisory
 * lock instead, also for a crawl (its directory keeps segments and index, but
 * a killed crawl then leaves no lock file behind). The log is closed, and the
 * locks released, however the work ends.
 */
import { crawlPaths } from '../shared/crawl-dir.js';
import { Log } from './log.js';
import type { ToolContext } from '../shared/command.js';
import { withLock } from './crawl-lock.js';
import { crawlDirOfWebDb, withWebDbLock } from './webdb/lock.js';


export interface ToolRun {
  /** Names the log file and the lock holder. */
  tool: string;
  /** The crawl directory of a tool without a WebDB, or of one whose WebDB is a URL (its segments'); none: no log file. */
  crawlDir?: string;
  /** The WebDB the tool works on: a directory's parent is the crawl directory; a URL's WebDB is locked on its server. */
  webdb?: string;
  /** Take the crawl directory's lock for the run; `force` takes over a stale one, `graceful` as in withLock. */
  lock?: { force?: boolean; graceful?: boolean };
}

/** Runs `fn` with the tool's log open (and the lock held when asked); returns what `fn` returns. */
export async function runWithLog<T>(ctx: ToolContext, run: ToolRun, fn: (log: Log) => Promise<T>): Promise<T> {
  const crawlDir = (run.webdb !== undefined ? crawlDirOfWebDb(run.webdb) : undefined) ?? run.crawlDir;
  const logged = async () => {
    const log = new Log({
      tool: run.tool,
      dir: crawlDir === undefined ? undefined : crawlPaths(crawlDir).logs,
      err: ctx.err,
      tty: ctx.tty,
      plainIntervalMs: ctx.conf.getDuration('log.progress.interval', 's'),
    });
    try {
      return await fn(log);
    } finally {
      log.close();
    }
  };
  if (!run.lock) return logged();
  if (run.webdb !== undefined) return withWebDbLock(run.webdb, run.tool, run.lock, logged);
  return crawlDir !== undefined ? withLock(crawlDir, run.tool, run.lock, logged) : logged();
}
