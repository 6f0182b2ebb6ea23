/** Table tests of generate's rules: due pages, the updatedb wait, per-host caps over segments, host interleaving. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assignSegments, awaitingUpdate, interleaveHosts, isDue } from '../../crawler/fetchlist.js';

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

test.run();
