/**
 * @module crawler/webdb/postgres/partitions
 * Fetch partition leases on PostgreSQL: a claim locks the first claimable
 * partition row with FOR UPDATE SKIP LOCKED, so fetchers on several machines
 * claiming at once each get a different one without waiting on each other.
 */
import type { Partition, PartitionOps } from '../webdb.js';
import type { Connection } from './connection.js';

export function partitionOps(c: Connection): PartitionOps {
  return {
    addPartitions(segment, count) {
      c.query(
        undefined,
        'INSERT INTO partitions (segment, part) SELECT $1, p FROM generate_series(0, $2::int - 1) AS p ON CONFLICT (segment, part) DO NOTHING',
        [segment, count],
      );
    },
    claimPartition(segment, owner, leaseMs, now, part) {
      return c.query<{ part: number }>(
        undefined,
        `UPDATE partitions SET owner = $2, lease_until = $3
         WHERE segment = $1 AND part = (
           SELECT part FROM partitions
           WHERE segment = $1 AND done IS NULL AND ($5::int IS NULL OR part = $5::int)
             AND (owner IS NULL OR lease_until <= $4 OR owner = $2)
           ORDER BY part LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING part`,
        [segment, owner, now + leaseMs, now, part ?? null],
      ).rows[0]?.part;
    },
    renewPartition(segment, part, owner, leaseMs, now) {
      return (
        c.query(undefined, 'UPDATE partitions SET lease_until = $1 WHERE segment = $2 AND part = $3 AND owner = $4 AND done IS NULL', [now + leaseMs, segment, part, owner])
          .rowCount === 1
      );
    },
    finishPartition(segment, part, owner, now) {
      return c.query(undefined, 'UPDATE partitions SET done = $1 WHERE segment = $2 AND part = $3 AND owner = $4 AND done IS NULL', [now, segment, part, owner]).rowCount === 1;
    },
    partitions(segment) {
      return c.query<Partition>(undefined, 'SELECT part, owner, lease_until AS "leaseUntil", done FROM partitions WHERE segment = $1 ORDER BY part', [segment]).rows;
    },
  };
}
