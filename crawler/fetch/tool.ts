/**
 * @module crawler/fetch/tool
 * `hazelnut fetch <segment>`: fetches a generated segment's fetchlist
 * politely (per-host queues, robots.txt, delays), parses inline unless
 * told not to, and marks the segment fetched (and parsed) once every URL has
 * a record. Interrupted (SIGINT) or killed, it keeps what it stored; run it
 * again to continue. The WebDB next to the segments directory, when there is
 * one, caches robots.txt per host for a day; fetch does not take the crawl
 * lock, so a generate or updatedb of another segment may run meanwhile.
 *
 * A segment split into fetch partitions (generate -numFetchers) is fetched a
 * partition at a time under leases (fetch-partitions.ts); `-release` frees one.
 * With the WebDB on PostgreSQL a fetcher needs no segment directory: on a
 * machine without it, it takes its partitions from the WebDB and ships them
 * back. Each fetcher of a partitioned segment logs to a file of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Conf } from '../../shared/conf.js';
import { HzError, UsageError } from '../../shared/errors.js';
import { intOption, parseArgs, type Tool } from '../../shared/command.js';
import { Segment } from '../../segments/segment.js';
import { runWithLog } from '../tool-run.js';
import { segmentCrawlDir, segmentFile } from '../../shared/crawl-dir.js';
import { openWebDb, sharesPartitionsRemotely } from '../webdb/webdb.js';
import type { FetchSummary } from './fetch-summary.js';
import { fetchPartitions, release } from './fetch-partitions.js';
import { crawlWebDb, fetchInto } from './segment-fetch.js';
import type { FetchOptions } from './fetcher-settings.js';
import { summaryLine } from './fetch-summary.js';

export type { FetchSummary } from './fetch-summary.js';
export { fetchEstimate, fetcherSettings, parseThreads, type FetchEstimate, type FetchOptions } from './fetcher-settings.js';
export { addUpFetches, summaryLine } from './fetch-summary.js';

export async function fetch(conf: Conf, segmentDir: string, opts: FetchOptions = {}): Promise<FetchSummary> {
  // A fetcher on another machine: the segment is not here, its partitions are in the WebDB.
  if (!fs.existsSync(segmentFile(segmentDir)) && sharesPartitionsRemotely(conf.get('webdb.url'))) return fetchPartitions(conf, segmentDir, opts, true);
  const whole = Segment.open(segmentDir, { readonly: true });
  let parts: number;
  try {
    if (!whole.hasPhase('generated'))
      throw new HzError('HZ_ERR_SEGMENT_STATE', `segment ${segmentDir} was not completely generated; delete it and run generate again`);
    if (whole.hasPhase('fetched')) throw new HzError('HZ_ERR_SEGMENT_STATE', `segment ${segmentDir} is already fetched`);
    parts = whole.partCount();
  } finally {
    whole.close();
  }
  if (parts > 0) return fetchPartitions(conf, segmentDir, opts);
  if (opts.part !== undefined) throw new UsageError(`-part: segment ${segmentDir} has no fetch partitions (generate -numFetchers makes them)`);
  const webDbDir = crawlWebDb(conf, segmentDir);
  const webdb = webDbDir ? openWebDb(webDbDir) : undefined;
  try {
    return await fetchInto(conf, Segment.open(segmentDir), webdb, opts);
  } finally {
    webdb?.close();
  }
}

/**
 * The fetch's log (logs/<name>.log): `fetch` for a segment fetched whole;
 * for one of many fetchers of a partitioned segment (or of one not on this
 * machine), a name of its own, `fetch-<host>-<pid>`, so none appends to another's file.
 */
function logName(segmentDir: string): string {
  const own = `fetch-${os.hostname()}-${process.pid}`;
  if (!fs.existsSync(segmentFile(segmentDir))) return own;
  const seg = Segment.open(segmentDir, { readonly: true });
  try {
    return seg.partCount() > 0 ? own : 'fetch';
  } finally {
    seg.close();
  }
}

const tool: Tool = {
  name: 'fetch',
  usage: `Usage: hazelnut fetch <segment> [-threads n] [-noParsing] [-part i] | fetch <segment> -release -part i
  <segment>     a segment directory made by generate (<crawl>/segments/<yyyyMMddHHmmss>)
  -threads n    concurrent requests in all (default fetcher.threads.fetch)
  -noParsing    store content only; run 'hazelnut parse <segment>' later (default: fetcher.parse)
  -part i       fetch only fetch partition i of a segment made with generate -numFetchers
                (without it, such a segment's partitions are claimed one after another until all are done,
                waiting while other fetchers hold the rest)
  -release      free fetch partition i's lease at once (its holder died on another machine): the next
                fetcher claims it and resumes it; a holder still running stops when it sees the lease gone
Interrupt with Ctrl-C and run the same command again to continue where it stopped.`,
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['threads', 'part'], boolean: ['noParsing', 'release'] });
    if (a._.length !== 1) throw new UsageError(a._.length ? 'too many arguments' : 'missing <segment>');
    const segmentDir = a._[0]!;
    if (a.release) {
      const part = intOption(a.part, 'part');
      if (part === undefined) throw new UsageError('-release needs -part i: the partition whose lease to free');
      ctx.out.write(release(ctx.conf, segmentDir, part) + '\n');
      return 0;
    }
    return runWithLog(ctx, { tool: logName(segmentDir), crawlDir: segmentCrawlDir(segmentDir) }, async (log) => {
      const abort = new AbortController();
      const onSigint = () => {
        log.warn('interrupted: finishing the requests in flight, keeping what is fetched');
        abort.abort();
      };
      process.once('SIGINT', onSigint);
      try {
        const s = await fetch(ctx.conf, segmentDir, {
          threads: intOption(a.threads, 'threads'),
          parse: a.noParsing ? false : undefined,
          part: intOption(a.part, 'part'),
          log,
          signal: abort.signal,
        });
        for (const d of s.deferredQueues) log.info(`deferred ${d.urls} URLs of ${d.queue}: ${d.reason}`);
        const line = summaryLine(s);
        log.info(line);
        ctx.out.write(line + '\n');
        // A fetcher started by 'crawl -fetchers' tells the crawl what it fetched.
        process.send?.({ fetchSummary: s });
        return s.interrupted ? 130 : 0;
      } finally {
        process.off('SIGINT', onSigint);
      }
    });
  },
};

export default tool;
