/**
 * @module crawler/webdb/postgres/partitions
 * Fetch partition leases on PostgreSQL: a claim locks the first claimable
 * partition row with FOR UPDATE SKIP LOCKED, so fetchers on several machines
 * claiming at once each get a different one without waiting on each other.
 */
import type { Partition, PartitionOps, PartitionProgress } from '../interface.js';
import type { Connection } from './connection.js';

export function partitionOps(c: Connection): PartitionOps {
  return {
    addPartitions(segment, count, totals) {
      c.query(
        undefined,
        'INSERT INTO partitions (segment, part) SELECT $1, p FROM generate_series(0, $2::int - 1) AS p ON CONFLICT (segment, part) DO NOTHING',
        [segment, count],
      );
      c.query(
        undefined,
        `INSERT INTO partition_progress (segment, part, total)
         SELECT $1, p, COALESCE(($3::int[])[p + 1], 0) FROM generate_series(0, $2::int - 1) AS p ON CONFLICT (segment, part) DO NOTHING`,
        [segment, count, [...(totals ?? [])]],
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
    noteProgress(segment, part, holder, fetched, now) {
      c.query(
        undefined,
        `INSERT INTO partition_progress AS p (segment, part, fetched, holder, claimed_at, claimed_fetched, updated_at)
         VALUES ($1, $2, $3, $4, $5, $3, $5)
         ON CONFLICT (segment, part) DO UPDATE SET fetched = EXCLUDED.fetched, updated_at = EXCLUDED.updated_at,
           claimed_at = CASE WHEN p.holder IS NOT DISTINCT FROM EXCLUDED.holder THEN p.claimed_at ELSE EXCLUDED.claimed_at END,
           claimed_fetched = CASE WHEN p.holder IS NOT DISTINCT FROM EXCLUDED.holder THEN p.claimed_fetched ELSE EXCLUDED.claimed_fetched END,
           holder = EXCLUDED.holder`,
        [segment, part, fetched, holder, now],
      );
    },
    partitionProgress(segment) {
      return c.query<PartitionProgress>(
        undefined,
        `SELECT part, total, fetched, holder, claimed_at AS "claimedAt", claimed_fetched AS "claimedFetched", updated_at AS "updatedAt"
         FROM partition_progress WHERE segment = $1 ORDER BY part`,
        [segment],
      ).rows;
    },
    putPartitionFile(segment, part, kind, data) {
      c.query(
        undefined,
        'INSERT INTO partition_files (segment, part, kind, data) VALUES ($1, $2, $3, $4) ON CONFLICT (segment, part, kind) DO UPDATE SET data = EXCLUDED.data',
        [segment, part, kind, data],
      );
    },
    partitionFile(segment, part, kind) {
      return c.query<{ data: Uint8Array }>(undefined, 'SELECT data FROM partition_files WHERE segment = $1 AND part = $2 AND kind = $3', [segment, part, kind]).rows[0]?.data;
    },
    partitionedSegments() {
      return c.query<{ segment: string }>(undefined, 'SELECT DISTINCT segment FROM partitions ORDER BY segment').rows.map((r) => r.segment);
    },
  };
}
