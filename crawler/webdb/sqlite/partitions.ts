/**
 * @module crawler/webdb/sqlite/partitions
 * Fetch partition leases. Each claim, renewal and finish is one UPDATE, which
 * SQLite runs under its write lock: two fetcher processes never both win one
 * partition.
 */
import type { Partition, PartitionOps, PartitionProgress } from '../interface.js';
import type { Statements } from './statements.js';

export function partitionOps(sql: Statements): PartitionOps {
  return {
    addPartitions(segment, count, totals) {
      const add = sql('INSERT OR IGNORE INTO partitions (segment, part) VALUES (?, ?)');
      const total = sql('INSERT OR IGNORE INTO partition_progress (segment, part, total) VALUES (?, ?, ?)');
      for (let part = 0; part < count; part++) {
        add.run(segment, part);
        total.run(segment, part, totals?.[part] ?? 0);
      }
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
    noteProgress(segment, part, holder, fetched, now) {
      sql(
        `INSERT INTO partition_progress (segment, part, fetched, holder, claimed_at, claimed_fetched, updated_at)
         VALUES (@segment, @part, @fetched, @holder, @now, @fetched, @now)
         ON CONFLICT (segment, part) DO UPDATE SET fetched = excluded.fetched, updated_at = excluded.updated_at,
           claimed_at = CASE WHEN holder IS excluded.holder THEN claimed_at ELSE excluded.claimed_at END,
           claimed_fetched = CASE WHEN holder IS excluded.holder THEN claimed_fetched ELSE excluded.claimed_fetched END,
           holder = excluded.holder`,
      ).run({ segment, part, holder, fetched, now });
    },
    partitionProgress(segment) {
      // A WebDB made before progress was kept, opened read-only, has no such table yet.
      if (!sql("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'partition_progress'").get()) return [];
      return sql(
        `SELECT part, total, fetched, holder, claimed_at AS claimedAt, claimed_fetched AS claimedFetched, updated_at AS updatedAt
         FROM partition_progress WHERE segment = ? ORDER BY part`,
      ).all(segment) as PartitionProgress[];
    },
    putPartitionFile(segment, part, kind, data) {
      sql('INSERT OR REPLACE INTO partition_files (segment, part, kind, data) VALUES (?, ?, ?, ?)').run(segment, part, kind, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    },
    partitionFile(segment, part, kind) {
      if (!sql("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'partition_files'").get()) return undefined;
      return (sql('SELECT data FROM partition_files WHERE segment = ? AND part = ? AND kind = ?').get(segment, part, kind) as { data: Buffer } | undefined)?.data;
    },
    partitionedSegments() {
      return (sql('SELECT DISTINCT segment FROM partitions ORDER BY segment').all() as { segment: string }[]).map((r) => r.segment);
    },
  };
}
