/**
 * The WebDB contract for fetch partition leases, for every backend: `partitionCases`
 * registers the cases on a uvu suite given a way to open two connections to one
 * fresh WebDB (two fetchers).
 */
import * as assert from 'uvu/assert';
import type { Test } from 'uvu';
import type { WebDb } from '../../../crawler/webdb/webdb.js';

/** `fresh()` opens a new empty WebDB and returns two connections to it and a cleanup. */
export function partitionCases(test: Test, fresh: () => Promise<{ a: WebDb; b: WebDb; done: () => Promise<void> | void }>): void {
  const SEG = '20240101000000';
  const LEASE = 60_000;
  const T = 1_700_000_000_000;

  const run = (name: string, fn: (a: WebDb, b: WebDb) => void) =>
    test(`partitions: ${name}`, async () => {
      const { a, b, done } = await fresh();
      try {
        fn(a, b);
      } finally {
        await done();
      }
    });

  run('a segment without partitions has none and nothing to claim', (a) => {
    assert.equal(a.partitions(SEG), []);
    assert.is(a.claimPartition(SEG, 'f1', LEASE, T), undefined);
  });

  run('added partitions are unclaimed; adding again changes nothing', (a) => {
    a.addPartitions(SEG, 3);
    a.addPartitions(SEG, 3);
    assert.equal(a.partitions(SEG), [0, 1, 2].map((part) => ({ part, owner: null, leaseUntil: null, done: null })));
    assert.equal(a.partitions('20240101000001'), []);
  });

  run('claims hand out each partition once, in order, until none is left', (a, b) => {
    a.addPartitions(SEG, 3);
    assert.is(a.claimPartition(SEG, 'f1', LEASE, T), 0);
    assert.is(b.claimPartition(SEG, 'f2', LEASE, T), 1);
    assert.is(b.claimPartition(SEG, 'f3', LEASE, T), 2);
    assert.is(a.claimPartition(SEG, 'f4', LEASE, T + 1), undefined);
    assert.equal(
      b.partitions(SEG).map((p) => [p.owner, p.leaseUntil]),
      [['f1', T + LEASE], ['f2', T + LEASE], ['f3', T + LEASE]],
    );
  });

  run('a holder claiming again gets its own partition back', (a) => {
    a.addPartitions(SEG, 2);
    assert.is(a.claimPartition(SEG, 'f1', LEASE, T), 0);
    assert.is(a.claimPartition(SEG, 'f1', LEASE, T + 5), 0);
    assert.is(a.partitions(SEG)[0]!.leaseUntil, T + 5 + LEASE);
  });

  run('an expired lease is claimable by another fetcher; a live one is not', (a, b) => {
    a.addPartitions(SEG, 1);
    assert.is(a.claimPartition(SEG, 'f1', LEASE, T), 0);
    assert.is(b.claimPartition(SEG, 'f2', LEASE, T + LEASE - 1), undefined);
    assert.is(b.claimPartition(SEG, 'f2', LEASE, T + LEASE), 0);
    assert.is(a.partitions(SEG)[0]!.owner, 'f2');
  });

  run('renewing keeps the lease; a fetcher that lost it cannot renew or finish', (a, b) => {
    a.addPartitions(SEG, 1);
    a.claimPartition(SEG, 'f1', LEASE, T);
    assert.ok(a.renewPartition(SEG, 0, 'f1', LEASE, T + LEASE - 1));
    assert.is(b.claimPartition(SEG, 'f2', LEASE, T + LEASE), undefined);
    assert.is(b.claimPartition(SEG, 'f2', LEASE, T + 2 * LEASE), 0);
    assert.not.ok(a.renewPartition(SEG, 0, 'f1', LEASE, T + 2 * LEASE));
    assert.not.ok(a.finishPartition(SEG, 0, 'f1', T + 2 * LEASE));
    assert.ok(b.finishPartition(SEG, 0, 'f2', T + 2 * LEASE + 1));
    assert.equal(a.partitions(SEG), [{ part: 0, owner: 'f2', leaseUntil: T + 3 * LEASE, done: T + 2 * LEASE + 1 }]);
  });

  run('a done partition is never claimed or renewed again', (a, b) => {
    a.addPartitions(SEG, 2);
    a.claimPartition(SEG, 'f1', LEASE, T);
    assert.ok(a.finishPartition(SEG, 0, 'f1', T + 1));
    assert.not.ok(a.renewPartition(SEG, 0, 'f1', LEASE, T + 2));
    assert.is(b.claimPartition(SEG, 'f2', LEASE, T + 10 * LEASE, 0), undefined);
    assert.is(b.claimPartition(SEG, 'f2', LEASE, T + 10 * LEASE), 1);
  });

  run('a named partition is claimed only when it is free', (a, b) => {
    a.addPartitions(SEG, 3);
    assert.is(a.claimPartition(SEG, 'f1', LEASE, T, 2), 2);
    assert.is(b.claimPartition(SEG, 'f2', LEASE, T, 2), undefined);
    assert.is(b.claimPartition(SEG, 'f2', LEASE, T, 7), undefined);
    assert.is(b.claimPartition(SEG, 'f2', LEASE, T), 0);
  });

  run('partitions of two segments are apart', (a) => {
    a.addPartitions(SEG, 1);
    a.addPartitions('20240101000001', 1);
    assert.is(a.claimPartition(SEG, 'f1', LEASE, T), 0);
    assert.is(a.claimPartition('20240101000001', 'f2', LEASE, T), 0);
    assert.is(a.claimPartition(SEG, 'f3', LEASE, T), undefined);
  });

  run('progress: totals from generate, counts from the holders, a new holder starting its own rate', (a, b) => {
    a.addPartitions(SEG, 2, [5, 7]);
    a.addPartitions('20240101000001', 1, [3]);
    assert.equal(a.partitionedSegments(), [SEG, '20240101000001']);
    const none = { fetched: 0, holder: null, claimedAt: null, claimedFetched: 0, updatedAt: null };
    assert.equal(b.partitionProgress(SEG), [
      { part: 0, total: 5, ...none },
      { part: 1, total: 7, ...none },
    ]);
    a.noteProgress(SEG, 0, 'f1', 0, T);
    a.noteProgress(SEG, 0, 'f1', 3, T + 1000);
    assert.equal(b.partitionProgress(SEG)[0], { part: 0, total: 5, fetched: 3, holder: 'f1', claimedAt: T, claimedFetched: 0, updatedAt: T + 1000 });
    // Another fetcher resumes the partition: its rate counts from what it found.
    b.noteProgress(SEG, 0, 'f2', 3, T + 5000);
    b.noteProgress(SEG, 0, 'f2', 5, T + 6000);
    assert.equal(a.partitionProgress(SEG)[0], { part: 0, total: 5, fetched: 5, holder: 'f2', claimedAt: T + 5000, claimedFetched: 3, updatedAt: T + 6000 });
    assert.equal(a.partitionProgress(SEG)[1], { part: 1, total: 7, ...none });
    assert.equal(a.partitionProgress('20240101000002'), []);
  });

  run("a partition's files are kept apart by segment, part and kind, a new one replacing the old", (a, b) => {
    const bytes = (...xs: number[]) => new Uint8Array(xs);
    assert.is(b.partitionFile(SEG, 0, 'fetchlist'), undefined);
    a.putPartitionFile(SEG, 0, 'fetchlist', bytes(1, 2, 3));
    a.putPartitionFile(SEG, 1, 'fetchlist', bytes(4));
    a.putPartitionFile(SEG, 0, 'fetched', bytes(0, 255));
    a.putPartitionFile(SEG, 0, 'fetched', bytes(9, 8, 7, 6));
    const got = (p: number, k: 'fetchlist' | 'fetched') => [...(b.partitionFile(SEG, p, k) ?? [])];
    assert.equal(got(0, 'fetchlist'), [1, 2, 3]);
    assert.equal(got(1, 'fetchlist'), [4]);
    assert.equal(got(0, 'fetched'), [9, 8, 7, 6]);
    assert.is(b.partitionFile('20240101000001', 0, 'fetchlist'), undefined);
  });
}
