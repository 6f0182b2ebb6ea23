/**
 * @module crawler/partitions
 * `hazelnut partitions <webdb> [segment]`: what many fetchers are doing, from
 * the WebDB alone (no segment directory needed, so it runs on any machine):
 * each partition's state, holder (host, pid), lease expiry, URLs fetched of
 * its total as its holder last reported, and the holder's rate. The rules
 * (a partition's state, its rate) are plain functions over the rows.
 */
import path from 'node:path';
import { HzError, UsageError } from '../shared/errors.js';
import { parseArgs, type Tool } from '../shared/command.js';
import { ownerOf } from './fetch/leases.js';
import { openWebDb, shownWebDb, type Partition, type PartitionProgress } from './webdb/webdb.js';

export type PartitionState = 'done' | 'fetching' | 'free' | 'waiting';

/**
 * done; fetching under a live lease; free (its lease ran out or was given
 * up: the next fetcher resumes it); waiting (never claimed yet).
 */
export function partitionState(p: Partition, now: number): PartitionState {
  if (p.done !== null) return 'done';
  if (p.owner === null) return 'waiting';
  return p.leaseUntil !== null && p.leaseUntil > now ? 'fetching' : 'free';
}

/** Pages per second of the current holder since it claimed the partition, or undefined before it reported twice. */
export function holderRate(p: PartitionProgress | undefined): number | undefined {
  if (!p || p.claimedAt === null || p.updatedAt === null || p.updatedAt <= p.claimedAt) return undefined;
  return (p.fetched - p.claimedFetched) / ((p.updatedAt - p.claimedAt) / 1000);
}

/** The holder as a reader wants it: host and pid, or the name as stored. */
export function shownHolder(owner: string | null): string {
  if (owner === null) return '-';
  const o = ownerOf(owner);
  return o ? `${o.host} pid ${o.pid}` : owner;
}

/** The listing of one segment's partitions: a summary line, then a row per partition. */
export function formatPartitions(segment: string, parts: readonly Partition[], progress: readonly PartitionProgress[], now: number): string {
  const byPart = new Map(progress.map((p) => [p.part, p]));
  const states = parts.map((p) => partitionState(p, now));
  const count = (s: PartitionState) => states.filter((x) => x === s).length;
  const fetched = progress.reduce((n, p) => n + p.fetched, 0);
  const total = progress.reduce((n, p) => n + p.total, 0);
  const rows = parts.map((p, i) => {
    const pr = byPart.get(p.part);
    const rate = holderRate(pr);
    const live = states[i] !== 'done' && states[i] !== 'waiting';
    return [
      String(p.part),
      states[i]!,
      shownHolder(p.owner),
      live && p.leaseUntil !== null ? new Date(p.leaseUntil).toISOString().replace(/\.\d+Z$/, 'Z') : '-',
      pr ? `${pr.fetched}/${pr.total}` : '-',
      rate === undefined || states[i] !== 'fetching' ? '-' : `${rate.toFixed(1)} pages/s`,
    ];
  });
  const header = ['part', 'state', 'holder', 'lease until', 'fetched', 'rate'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => '  ' + r.map((x, c) => (c === r.length - 1 ? x : x.padEnd(widths[c]!))).join('  ');
  const summary = (['done', 'fetching', 'free', 'waiting'] as const).filter((s) => count(s)).map((s) => `${count(s)} ${s}`);
  return [
    `segment ${segment}: ${parts.length} fetch partition${parts.length === 1 ? '' : 's'}: ${summary.join(', ')}; ${fetched} of ${total} URLs fetched`,
    line(header),
    ...rows.map(line),
  ].join('\n');
}

const tool: Tool = {
  name: 'partitions',
  usage: `Usage: hazelnut partitions <webdb> [<segment>]
  <webdb>     the crawl's WebDB (a directory, or a postgresql:// URL)
  <segment>   a segment's directory or name (default: every segment with fetch partitions)
States: done; fetching (its holder renews the lease); free (the lease ran out or was given up:
the next fetcher resumes it); waiting (not claimed yet). 'hazelnut fetch <segment>
-release -part i' frees a dead holder's lease at once.`,
  async run(ctx, args) {
    const a = parseArgs(args, { string: [], boolean: [] });
    if (a._.length < 1 || a._.length > 2) throw new UsageError(a._.length ? 'too many arguments' : 'missing <webdb>');
    const webdb = a._[0]!;
    const db = openWebDb(webdb, { readonly: true });
    try {
      const segments = a._[1] !== undefined ? [path.basename(a._[1])] : db.partitionedSegments();
      if (segments.length === 0) {
        ctx.out.write(`partitions: no segment of ${shownWebDb(webdb)} has fetch partitions (generate -numFetchers makes them)\n`);
        return 0;
      }
      const now = Date.now();
      for (const segment of segments) {
        const parts = db.partitions(segment);
        if (parts.length === 0) throw new HzError('HZ_ERR_NOT_FOUND', `segment ${segment} has no fetch partitions in ${shownWebDb(webdb)}`);
        ctx.out.write(formatPartitions(segment, parts, db.partitionProgress(segment), now) + '\n');
      }
    } finally {
      db.close();
    }
    return 0;
  },
};

export default tool;
