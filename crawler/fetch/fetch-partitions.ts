/**
 * @module crawler/fetch/fetch-partitions
 * A segment split into fetch partitions (generate -numFetchers) is fetched a
 * partition at a time, each into its own file: the fetcher claims a
 * partition's lease in the WebDB, renews it while it fetches (leases.ts), and
 * claims the next until every partition is done (`-part i`: that one only),
 * waiting while the rest are held by other fetchers. A fetcher that dies
 * leaves its lease to run out (or to be freed at once by a fetcher of the
 * same machine, or by `fetch -release`); the next claimer resumes it.
 *
 * A fetcher on a machine without the segment (`remote`: its directory is not
 * there, the WebDB is on PostgreSQL) takes its partition's file from the
 * WebDB and ships the completed one back (shipping.ts); a fetcher with the
 * segment puts shipped partitions in place once all are done.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import { crawlPaths, segmentCrawlDir, segmentFile, segmentPartDir } from '../../shared/crawl-dir.js';
import { Segment } from '../../segments/segment.js';
import { openWebDb, shownWebDb, type WebDb } from '../webdb/webdb.js';
import type { FetchSummary } from './fetch-summary.js';
import { freeDeadLocalLeases, keepLease, ownerName, releasePartition, unclaimable } from './leases.js';
import { crawlWebDb, fetchInto } from './segment-fetch.js';
import { atLeast, parseThreads, type FetchOptions } from './fetcher-settings.js';
import { collectShipped, localPartition, shipPartition } from './shipping.js';
import { addUpFetches } from './fetch-summary.js';

const WAIT_POLL_MS = 1000;

/**
 * Claims, fetches and finishes fetch partitions of `segmentDir` until all are
 * done (or `opts.part` only); `remote`: the segment is not on this machine.
 */
export async function fetchPartitions(conf: Conf, segmentDir: string, opts: FetchOptions, remote = false): Promise<FetchSummary> {
  const webDbDir = crawlWebDb(conf, segmentDir);
  if (!webDbDir)
    throw new HzError(
      'HZ_ERR_NOT_FOUND',
      `segment ${segmentDir} is split into fetch partitions, which fetchers claim in the crawl's WebDB, and there is no WebDB at ${crawlPaths(segmentCrawlDir(segmentDir)).webdb} (nor a webdb.url)`,
    );
  const leaseMs = atLeast(conf, 'fetcher.partition.lease', conf.getDuration('fetcher.partition.lease', 's'), 1000, conf.get('fetcher.partition.lease'));
  const owner = ownerName(os.hostname(), process.pid, randomBytes(4).toString('hex'));
  const started = Date.now();
  const webdb = openWebDb(webDbDir);
  const whole = remote ? undefined : Segment.open(segmentDir, { readonly: true });
  const name = path.basename(segmentDir);
  if (remote && webdb.partitions(name).length === 0) {
    webdb.close();
    throw new HzError('HZ_ERR_NOT_FOUND', `segment ${segmentDir} is not on this machine, and the WebDB at ${shownWebDb(webDbDir)} has no fetch partitions of a segment ${name}`);
  }
  const done: FetchSummary[] = [];
  const fetchedHere = new Set<number>();
  // The same parsing threads for every partition: they take about a second to start.
  const writers = parseThreads(conf, opts);
  let waiting = false;
  try {
    while (!opts.signal?.aborted) {
      const part = webdb.claimPartition(name, owner, leaseMs, Date.now(), opts.part);
      if (part === undefined) {
        if (freeDeadLocalLeases(webdb, name, opts.log) > 0) continue;
        if (opts.part !== undefined) throw unclaimable(segmentDir, opts.part, webdb.partitions(name));
        const held = webdb.partitions(name).filter((p) => p.done === null);
        if (held.length === 0) break;
        if (!waiting)
          opts.log?.notice(`fetch partitions ${held.map((p) => p.part).join(', ')} of ${segmentDir} are held by other fetchers: waiting for them to finish or give up`);
        waiting = true;
        // Looked at every second: a fetcher of the same crawl round waits for the last partition no longer than that.
        const expires = Math.min(...held.map((p) => p.leaseUntil ?? 0));
        await sleep(Math.max(50, Math.min(WAIT_POLL_MS, expires - Date.now() + 10)), undefined, { signal: opts.signal }).catch(() => {});
        continue;
      }
      // A partition this fetcher could not complete (it gave the lease up) is left to another one.
      if (fetchedHere.has(part)) {
        webdb.renewPartition(name, part, owner, 0, Date.now());
        break;
      }
      fetchedHere.add(part);
      waiting = false;
      const { summary, lost } = await fetchClaimed(conf, webdb, { segmentDir, whole, remote, part, owner, leaseMs }, { ...opts, writers });
      done.push(summary);
      if (lost) break;
      if (opts.part !== undefined) break;
    }
    // What other machines fetched, put in place in the segment.
    if (whole) for (const p of collectShipped(webdb, segmentDir)) opts.log?.info(`fetch partition ${p} of ${segmentDir}: put in place as shipped by its fetcher`);
  } finally {
    whole?.close();
    webdb.close();
    if (writers !== opts.writers) await writers?.close();
  }
  const total = addUpFetches(name, done);
  total.elapsedMs = Date.now() - started;
  total.interrupted ||= opts.signal?.aborted ?? false;
  total.complete = opts.part !== undefined || remote ? done.length > 0 && done.every((d) => d.complete) : segmentFetched(segmentDir);
  return total;
}

/** A partition this fetcher holds, where its fetch list is: in the segment here, or shipped through the WebDB. */
interface Claimed {
  segmentDir: string;
  whole: Segment | undefined;
  remote: boolean;
  part: number;
  owner: string;
  leaseMs: number;
}

/**
 * Fetches a claimed partition while keeping its lease, then finishes it, or
 * gives the lease up when interrupted; `lost`: another fetcher took the lease,
 * and the partition's file is now its to complete.
 */
async function fetchClaimed(conf: Conf, webdb: WebDb, c: Claimed, opts: FetchOptions): Promise<{ summary: FetchSummary; lost: boolean }> {
  const { segmentDir, part, owner, leaseMs } = c;
  const name = path.basename(segmentDir);
  opts.log?.info(`fetch partition ${part} of ${segmentDir}: claimed by ${owner}`);
  const progress = () => webdb.noteProgress(name, part, owner, fetchedIn(segmentDir, part), Date.now());
  progress();
  // Stops this partition's fetch when the fetch is interrupted or the lease is lost.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onAbort);
  let lost = false;
  const stopRenewing = keepLease(webdb, { segment: name, part, owner, leaseMs }, opts.log, {
    renewed: progress,
    lost: () => {
      lost = true;
      stop.abort();
    },
  });
  try {
    // Never deferred on abort: after a lost lease the partition's file is the new holder's to complete.
    const s = await fetchInto(conf, c.whole ? c.whole.openPart(part) : localPartition(webdb, segmentDir, part), webdb, {
      ...opts,
      deferOnAbort: false,
      signal: stop.signal,
    });
    if (!lost) progress();
    if (s.complete && c.remote && !lost) {
      const size = shipPartition(webdb, segmentDir, part, 'fetched');
      opts.log?.info(`fetch partition ${part} of ${segmentDir}: shipped to the WebDB (${size.raw} bytes, ${size.shipped} gzipped)`);
    }
    if (s.complete) webdb.finishPartition(name, part, owner, Date.now());
    // Interrupted, the lease is given up at once so that a rerun resumes the partition without waiting.
    else if (!lost) webdb.renewPartition(name, part, owner, 0, Date.now());
    return { summary: s, lost };
  } finally {
    stopRenewing();
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

function segmentFetched(segmentDir: string): boolean {
  const after = Segment.open(segmentDir, { readonly: true });
  try {
    return after.hasPhase('fetched');
  } finally {
    after.close();
  }
}

/** Fetch records in partition `part`'s file so far (0 before it has one). */
export function fetchedIn(segmentDir: string, part: number): number {
  const dir = segmentPartDir(segmentDir, part);
  if (!fs.existsSync(segmentFile(dir))) return 0;
  const seg = Segment.open(dir, { readonly: true });
  try {
    return seg.count('fetch');
  } finally {
    seg.close();
  }
}

/** `fetch -release`: frees partition `part`'s lease in the segment's WebDB. */
export function release(conf: Conf, segmentDir: string, part: number): string {
  const webDbDir = crawlWebDb(conf, segmentDir);
  if (!webDbDir) throw new HzError('HZ_ERR_NOT_FOUND', `segment ${segmentDir} has no WebDB to hold its leases (no ${crawlPaths(segmentCrawlDir(segmentDir)).webdb}, nor a webdb.url)`);
  const webdb = openWebDb(webDbDir);
  try {
    return releasePartition(webdb, segmentDir, path.basename(segmentDir), part);
  } finally {
    webdb.close();
  }
}
