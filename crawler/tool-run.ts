/**
 * @module crawler/tool-run
 * How a command runs over a crawl directory: the crawl directory is the
 * parent of its `<webdb>`, `<segments_dir>` or `<index>` argument (two levels
 * up from a segment), its log goes to `<crawl>/logs/<tool>.log`, and a tool
 * that writes the WebDB does its work holding the crawl directory's lock.
 * The log is closed, and the lock released, however the work ends.
 */
import { crawlPaths } from '../shared/layout.js';
import { Log } from '../shared/log.js';
import type { ToolContext } from '../shared/tool.js';
import { withLock } from './lock.js';


export interface ToolRun {
  /** Names the log file and the lock holder. */
  tool: string;
  crawlDir: string;
  /** Take the crawl directory's lock for the run; `force` takes over a stale one, `graceful` as in withLock. */
  lock?: { force?: boolean; graceful?: boolean };
}

/** Runs `fn` with the tool's log open (and the lock held when asked); returns what `fn` returns. */
export async function runWithLog<T>(ctx: ToolContext, run: ToolRun, fn: (log: Log) => Promise<T>): Promise<T> {
  const logged = async () => {
    const log = new Log({
      tool: run.tool,
      dir: crawlPaths(run.crawlDir).logs,
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
  return run.lock ? withLock(run.crawlDir, run.tool, run.lock, logged) : logged();
}
