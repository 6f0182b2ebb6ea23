/**
 * @module crawler/fetch/leases
 * A fetcher's leases on fetch partitions, kept alive through faults: the
 * renewal timer never throws (a database away for a while is retried at the
 * next tick while fetching goes on; only a lease another fetcher has taken
 * stops the partition), a lease whose holder is a dead process on this very
 * machine is freed at once instead of waiting for it to run out, and
 * `fetch -release` frees one by hand. Who holds a lease is its owner name,
 * `<host>/<pid>/<random>`.
 */
import os from 'node:os';
import { HzError, UsageError } from '../../shared/errors.js';
import { processAlive } from '../../shared/lockfile.js';
import type { Log } from '../log.js';
import type { Partition, WebDb } from '../webdb/webdb.js';

/** A lease owner's name for this process: host, pid and a random part (a pid is reused). */
export function ownerName(host: string, pid: number, random: string): string {
  return `${host}/${pid}/${random}`;
}

/** The host and pid of an owner name, or undefined for a name of another form. */
export function ownerOf(owner: string | null): { host: string; pid: number } | undefined {
  const m = owner === null ? null : /^(.*)\/(\d+)\/[^/]*$/.exec(owner);
  return m ? { host: m[1]!, pid: Number(m[2]) } : undefined;
}

/**
 * The leases of `parts` held, not done and not run out, by a process of this
 * machine (`host`) that is no longer running: a killed fetcher, a crawl's
 * own from before it was killed.
 */
export function deadLocalHolders(parts: readonly Partition[], host: string, now: number, isAlive: (pid: number) => boolean = processAlive): Partition[] {
  return parts.filter((p) => {
    const o = ownerOf(p.owner);
    return p.done === null && (p.leaseUntil ?? 0) > now && o !== undefined && o.host === host && o.pid !== process.pid && !isAlive(o.pid);
  });
}

/** Frees the leases of dead fetchers of this machine so they can be claimed now; logs each and returns how many. */
export function freeDeadLocalLeases(webdb: WebDb, segment: string, log?: Log): number {
  let n = 0;
  for (const p of deadLocalHolders(webdb.partitions(segment), os.hostname(), Date.now())) {
    if (!webdb.renewPartition(segment, p.part, p.owner!, 0, Date.now())) continue;
    log?.notice(`fetch partition ${p.part} of ${segment}: its holder ${p.owner} is no longer running on this machine; its lease is freed`);
    n++;
  }
  return n;
}

/** `fetch -release`: frees partition `part`'s lease at once, whoever holds it; says whose it was. */
export function releasePartition(webdb: WebDb, segmentDir: string, segment: string, part: number): string {
  const all = webdb.partitions(segment);
  const p = all.find((x) => x.part === part);
  if (!p) throw new UsageError(`-part ${part}: segment ${segmentDir} has ${all.length ? `fetch partitions 0 to ${all.length - 1}` : 'no fetch partitions'}`);
  if (p.done !== null) throw new HzError('HZ_ERR_SEGMENT_STATE', `fetch partition ${part} of ${segmentDir} is already fetched; there is no lease to release`);
  if (p.owner === null || (p.leaseUntil ?? 0) <= Date.now()) return `fetch partition ${part} of ${segmentDir} is not held; any fetcher may claim it`;
  if (!webdb.renewPartition(segment, part, p.owner, 0, Date.now())) return `fetch partition ${part} of ${segmentDir} changed hands meanwhile; run -release again`;
  return `fetch partition ${part} of ${segmentDir}: released the lease of ${p.owner}; the next fetcher claims it and resumes it`;
}

/** Why `-part i` cannot be claimed now. */
export function unclaimable(segmentDir: string, part: number, all: Partition[]): HzError {
  const p = all.find((x) => x.part === part);
  if (!p) return new UsageError(`-part ${part}: segment ${segmentDir} has fetch partitions 0 to ${all.length - 1}`);
  if (p.done !== null) return new HzError('HZ_ERR_SEGMENT_STATE', `fetch partition ${part} of ${segmentDir} is already fetched`);
  return new HzError(
    'HZ_ERR_LOCKED',
    `fetch partition ${part} of ${segmentDir} is being fetched by ${p.owner} (lease until ${new Date(p.leaseUntil ?? 0).toISOString()}); run it again after that if that fetcher died`,
  );
}

/**
 * Renews `owner`'s lease every third of `leaseMs` until stopped. A renewal
 * that fails (the database away) is logged and tried again later, less often
 * each time (up to once a lease), since each try holds the fetcher up for as
 * long as the WebDB waits. `on.renewed` follows each renewal (it reports
 * progress; its failure counts as the renewal's), `on.lost` comes once
 * another fetcher holds the lease.
 */
export function keepLease(
  webdb: WebDb,
  lease: { segment: string; part: number; owner: string; leaseMs: number },
  log: Log | undefined,
  on: { renewed: () => void; lost: () => void },
): () => void {
  const tick = lease.leaseMs / 3;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  const renew = () => {
    try {
      if (!webdb.renewPartition(lease.segment, lease.part, lease.owner, lease.leaseMs, Date.now())) {
        log?.warn(`fetch partition ${lease.part} of ${lease.segment}: the lease ran out and another fetcher took it; stopping`);
        timer = undefined;
        on.lost();
        return;
      }
      on.renewed();
      if (failures) log?.notice(`fetch partition ${lease.part} of ${lease.segment}: the WebDB is back; the lease is renewed`);
      failures = 0;
    } catch (e) {
      if (!failures) log?.warn(`fetch partition ${lease.part} of ${lease.segment}: cannot renew the lease (${(e as Error).message}); fetching on, trying again`);
      failures++;
    }
    if (timer) timer = setTimeout(renew, Math.min(lease.leaseMs, tick * 2 ** failures));
  };
  timer = setTimeout(renew, tick);
  return () => {
    clearTimeout(timer);
    timer = undefined;
  };
}
