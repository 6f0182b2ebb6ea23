/**
 * The rules of `hazelnut partitions` and of what generate says of its
 * partitions, as tables of cases: a partition's state, its holder's rate,
 * the holder shown, the listing, and why fewer partitions than fetchers.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { partitionsMade } from '../../crawler/generate.js';
import { formatPartitions, holderRate, partitionState, shownHolder } from '../../crawler/partitions.js';
import type { Partition, PartitionProgress } from '../../crawler/webdb/webdb.js';

const NOW = 1_800_000_000_000;
const part = (p: Partial<Partition>): Partition => ({ part: 0, owner: null, leaseUntil: null, done: null, ...p });
const progress = (p: Partial<PartitionProgress>): PartitionProgress => ({
  part: 0,
  total: 10,
  fetched: 0,
  holder: null,
  claimedAt: null,
  claimedFetched: 0,
  updatedAt: null,
  ...p,
});

test('partitionState: done, fetching under a live lease, free once it ran out or was given up, waiting before any claim', () => {
  const cases: [Partial<Partition>, string][] = [
    [{}, 'waiting'],
    [{ owner: 'a/1/x', leaseUntil: NOW + 1 }, 'fetching'],
    [{ owner: 'a/1/x', leaseUntil: NOW }, 'free'],
    [{ owner: 'a/1/x', leaseUntil: NOW - 60_000 }, 'free'],
    [{ owner: 'a/1/x', leaseUntil: NOW + 60_000, done: NOW - 5 }, 'done'],
    [{ owner: 'a/1/x', leaseUntil: null }, 'free'],
  ];
  for (const [p, want] of cases) assert.is(partitionState(part(p), NOW), want, JSON.stringify(p));
});

test("holderRate: pages since the holder's claim over the time since, none before a second report", () => {
  const cases: [Partial<PartitionProgress> | undefined, number | undefined][] = [
    [undefined, undefined],
    [{ claimedAt: null, updatedAt: NOW }, undefined],
    [{ claimedAt: NOW, updatedAt: NOW }, undefined],
    [{ claimedAt: NOW, updatedAt: NOW + 4000, fetched: 8 }, 2],
    [{ claimedAt: NOW, updatedAt: NOW + 2000, fetched: 8, claimedFetched: 5 }, 1.5],
  ];
  for (const [p, want] of cases) assert.is(holderRate(p && progress(p)), want, JSON.stringify(p));
});

test('shownHolder: host and pid of an owner name, other names as stored', () => {
  const cases: [string | null, string][] = [
    [null, '-'],
    ['crawl-1.example/4242/ab12cd34', 'crawl-1.example pid 4242'],
    ['f1', 'f1'],
    ['host/with/slash/77/r', 'host/with/slash pid 77'],
  ];
  for (const [o, want] of cases) assert.is(shownHolder(o), want, String(o));
});

test('formatPartitions: a summary line, then each partition with its holder, lease, progress and rate', () => {
  const parts = [
    part({ part: 0, owner: 'a/11/x', leaseUntil: NOW - 1000, done: NOW - 1000 }),
    part({ part: 1, owner: 'b/22/y', leaseUntil: NOW + 30_000 }),
    part({ part: 2, owner: 'c/33/z', leaseUntil: NOW - 5000 }),
    part({ part: 3 }),
  ];
  const prog = [
    progress({ part: 0, total: 5, fetched: 5, holder: 'a/11/x', claimedAt: NOW - 10_000, updatedAt: NOW - 1000 }),
    progress({ part: 1, total: 8, fetched: 6, holder: 'b/22/y', claimedAt: NOW - 4000, claimedFetched: 2, updatedAt: NOW - 2000 }),
    progress({ part: 2, total: 4, fetched: 1, holder: 'c/33/z', claimedAt: NOW - 9000, updatedAt: NOW - 8000 }),
    progress({ part: 3, total: 3 }),
  ];
  const lease = new Date(NOW + 30_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const expired = new Date(NOW - 5000).toISOString().replace(/\.\d+Z$/, 'Z');
  const out = formatPartitions('20261203120000', parts, prog, NOW).split('\n');
  assert.is(out[0], 'segment 20261203120000: 4 fetch partitions: 1 done, 1 fetching, 1 free, 1 waiting; 12 of 20 URLs fetched');
  assert.equal(
    out.slice(1).map((l) => l.trim().split(/\s{2,}/)),
    [
      ['part', 'state', 'holder', 'lease until', 'fetched', 'rate'],
      ['0', 'done', 'a pid 11', '-', '5/5', '-'],
      ['1', 'fetching', 'b pid 22', lease, '6/8', '2.0 pages/s'],
      ['2', 'free', 'c pid 33', expired, '1/4', '-'],
      ['3', 'waiting', '-', '-', '0/3', '-'],
    ],
  );
});

test('partitionsMade: how many partitions, and why fewer than fetchers', () => {
  const cases: [number, number, number, RegExp][] = [
    [3, 3, 7, /^3 fetch partitions, one for each of 3 fetchers$/],
    [2, 3, 2, /^2 fetch partitions, not 3: a partition holds whole hosts \(politeness is per host\) and the segment has URLs of 2 hosts; 1 of the 3 fetchers will find nothing to fetch$/],
    [1, 4, 1, /^1 fetch partition, not 4: .* URLs of 1 host; 3 of the 4 fetchers/],
  ];
  for (const [made, asked, hosts, want] of cases) assert.match(partitionsMade(made, asked, hosts), want);
});

test.run();
