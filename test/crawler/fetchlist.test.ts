/** Table tests of generate's rules: due pages, the updatedb wait, per-host caps over segments, host interleaving, fetch partitions. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assignSegments, awaitingUpdate, interleaveHosts, isDue, partitionByHost } from '../../crawler/fetchlist.js';

const DAY = 86_400_000;
const schedule = { defaultInterval: 30 * 86400, maxInterval: 90 * 86400 };
const page = (fetch_time: number, fetch_interval = 30 * 86400) => ({ fetch_time, fetch_interval, retries: 0, modified_time: 0 });

test('isDue: fetch time ≤ now + adddays; pages scheduled beyond db.fetch.interval.max are pulled in', () => {
  const now = 1_000 * DAY;
  const table: [number, number, boolean, string][] = [
    [now - 1, 0, true, 'overdue'],
    [now, 0, true, 'due exactly now'],
    [now + 1, 0, false, 'due in 1 ms'],
    [now + 5 * DAY, 0, false, 'due in 5 days'],
    [now + 5 * DAY, 5, true, '-adddays 5'],
    [now + 5 * DAY, 4, false, '-adddays 4'],
    [now + 90 * DAY, 0, false, 'exactly the max interval ahead'],
    [now + 91 * DAY, 0, true, 'beyond the max interval: pulled in'],
  ];
  for (const [t, addDays, due, why] of table) assert.is(isDue(page(t), schedule, now, addDays * DAY), due, why);
});

test('awaitingUpdate: generated less than crawl.gen.delay ago', () => {
  const table: [number | null, number, number, boolean][] = [
    [null, 100, 10, false],
    [95, 100, 10, true],
    [90, 100, 10, false],
    [0, 100, 1e9, true],
  ];
  for (const [gen, now, delay, waiting] of table) assert.is(awaitingUpdate(gen, now, delay), waiting, `${gen} ${now} ${delay}`);
});

const c = (spec: string) => spec.split(' ').map((k, i) => ({ countKey: k, id: `${k}${i}` }));
const ids = (segs: { id: string }[][]) => segs.map((s) => s.map((x) => x.id).join(' '));

test('assignSegments: topN, per-host cap, spill into further segments', () => {
  const best = c('a a a b b c');
  const table: [number, number, number, string[]][] = [
    [Infinity, -1, 1, ['a0 a1 a2 b3 b4 c5']],
    [3, -1, 1, ['a0 a1 a2']],
    [3, -1, 2, ['a0 a1 a2', 'b3 b4 c5']],
    [Infinity, 1, 1, ['a0 b3 c5']],
    [Infinity, 2, 1, ['a0 a1 b3 b4 c5']],
    [Infinity, 1, 3, ['a0 b3 c5', 'a1 b4', 'a2']],
    [Infinity, 1, 2, ['a0 b3 c5', 'a1 b4']],
    [2, 1, 3, ['a0 b3', 'a1 b4', 'a2 c5']],
    [Infinity, 0, 1, ['a0 a1 a2 b3 b4 c5']],
  ];
  for (const [topN, maxCount, maxSegments, want] of table)
    assert.equal(ids(assignSegments(best, { topN, maxCount, maxSegments })), want, `topN ${topN} max ${maxCount} segs ${maxSegments}`);
  assert.equal(assignSegments([], { topN: 1, maxCount: 1, maxSegments: 1 }), []);
});

test('interleaveHosts: hosts in turn, in order of their best URL, each host keeping its order', () => {
  const h = (spec: string) => spec.split(' ').map((x) => ({ host: x[0]!, id: x }));
  const table: [string, string][] = [
    ['a1 a2 a3 b1 b2 c1', 'a1 b1 c1 a2 b2 a3'],
    ['b1 a1 a2', 'b1 a1 a2'],
    ['a1 a2', 'a1 a2'],
    ['', ''],
  ];
  for (const [input, want] of table)
    assert.is(interleaveHosts(input ? h(input) : []).map((x) => x.id).join(' '), want, input);
});

test('partitionByHost: a host in one partition, largest hosts first to the lightest partition', () => {
  const table: [Record<string, number>, number, Record<string, number>, string][] = [
    [{ a: 5 }, 3, { a: 0 }, 'fewer hosts than partitions'],
    [{ a: 1, b: 1, c: 1, d: 1 }, 2, { a: 0, b: 1, c: 0, d: 1 }, 'equal hosts alternate, by name'],
    [{ a: 10, b: 3, c: 3, d: 3, e: 1 }, 2, { a: 0, b: 1, c: 1, d: 1, e: 1 }, 'one big host against the rest'],
    [{ a: 4, b: 3, c: 3, d: 2 }, 2, { a: 0, b: 1, c: 1, d: 0 }, 'balanced 6/6'],
    [{ x: 2, y: 7, z: 2 }, 1, { x: 0, y: 0, z: 0 }, 'one partition'],
  ];
  for (const [hosts, n, want, why] of table) assert.equal(Object.fromEntries(partitionByHost(new Map(Object.entries(hosts)), n)), want, why);
});

test('partitionByHost: the largest partition exceeds the average by less than the largest host', () => {
  const hosts = new Map<string, number>();
  for (let i = 0; i < 97; i++) hosts.set(`h${i}`, 1 + ((i * 37) % 23));
  const total = [...hosts.values()].reduce((a, b) => a + b, 0);
  for (const n of [2, 3, 4, 7]) {
    const load = new Array<number>(n).fill(0);
    for (const [h, p] of partitionByHost(hosts, n)) load[p]! += hosts.get(h)!;
    assert.is(load.reduce((a, b) => a + b, 0), total);
    assert.ok(Math.max(...load) - total / n < 23, `${n}: ${load.join(' ')}`);
  }
});

test.run();
