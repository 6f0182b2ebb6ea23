/**
 * @module crawler/webdb/sqlite/partitions
 * Fetch partition leases. Each claim, renewal and finish is one UPDATE, which
 * SQLite runs under its write lock: two fetcher processes never both win one
 * partition.
 */
import type { Partition, PartitionOps } from '../webdb.js';
import type { Statements } from './statements.js';

export function partitionOps(sql: Statements): PartitionOps {
  return {
    addPartitions(segment, count) {
      const add = sql('INSERT OR IGNORE INTO partitions (segment, part) VALUES (?, ?)');
      for (let part = 0; part < count; part++) add.run(segment, part);
    },
    claimPartition(segment, owner, leaseMs, now, part) {
      const r = sql(
        `UPDATE partitions SET owner = @owner, lease_until = @until
         WHERE segment = @segment AND part = (
           SELECT part FROM partitions
           WHERE segment = @segment AND done IS NULL AND (@part IS NULL OR part = @part)
             AND (owner IS NULL OR lease_until <= @now OR owner = @owner)
           ORDER BY part LIMIT 1)
         RETURNING part`,
      ).get({ segment, owner, until: now + leaseMs, now, part: part ?? null }) as { part: number } | undefined;
      return r?.part;
    },
    renewPartition(segment, part, owner, leaseMs, now) {
      return sql('UPDATE partitions SET lease_until = ? WHERE segment = ? AND part = ? AND owner = ? AND done IS NULL').run(now + leaseMs, segment, part, owner).changes === 1;
    },
    finishPartition(segment, part, owner, now) {
      return sql('UPDATE partitions SET done = ? WHERE segment = ? AND part = ? AND owner = ? AND done IS NULL').run(now, segment, part, owner).changes === 1;
    },
    partitions(segment) {
      return sql('SELECT part, owner, lease_until AS leaseUntil, done FROM partitions WHERE segment = ? ORDER BY part').all(segment) as Partition[];
    },
  };
}
