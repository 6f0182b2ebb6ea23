import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DAY_MS,
  forceRefetch,
  initializeSchedule,
  scheduleFromConf,
  setFetchSchedule,
  setPageGoneSchedule,
  setPageRetrySchedule,
  shouldFetch,
  type Modification,
  type ScheduleOptions,
} from '../../../crawler/updatedb/schedule.js';
import { Conf } from '../../../shared/conf.js';

const F = Date.UTC(2024, 0, 1);
const MAX = 90 * 86400;
const plain: ScheduleOptions = { defaultInterval: 1000, maxInterval: MAX };
const adaptive = (syncDelta: boolean): ScheduleOptions => ({
  defaultInterval: 1000,
  maxInterval: MAX,
  adaptive: { incRate: 0.4, decRate: 0.2, minInterval: 60, maxInterval: 10_000, syncDelta, syncDeltaRate: 0.3 },
});
const state = (interval: number, modifiedTime = 0) => ({ fetchTime: F - 5000, fetchInterval: interval, retries: 2, modifiedTime });

// [schedule, interval before, modification, modified time, interval after, next fetch time]
const CASES: [string, ScheduleOptions, number, Modification, number, number, number][] = [
  ['default keeps the interval', plain, 1000, 'modified', 0, 1000, F + 1_000_000],
  ['default: interval 0 means the default (NUTCH-774)', plain, 0, 'unknown', 0, 1000, F + 1_000_000],
  ['adaptive: changed → shorter', adaptive(false), 1000, 'modified', 0, 800, F + 800_000],
  ['adaptive: unchanged → longer', adaptive(false), 1000, 'notmodified', 0, 1400, F + 1_400_000],
  ['adaptive: unknown → same', adaptive(false), 1000, 'unknown', 0, 1000, F + 1_000_000],
  ['adaptive: clamped to min_interval', adaptive(false), 70, 'modified', 0, 60, F + 60_000],
  ['adaptive: clamped to max_interval', adaptive(false), 9000, 'notmodified', 0, 10_000, F + 10_000_000],
  // delta = 5000 s since the change > 800: interval 5000; reference moved back 0.3 × delta.
  ['adaptive: synchronised with the last change', adaptive(true), 1000, 'modified', F - 5_000_000, 5000, F - 1_500_000 + 5_000_000],
  // delta = 100 s < 800: interval 800, reference moved back 30 s.
  ['adaptive: recent change only moves the reference', adaptive(true), 1000, 'modified', F - 100_000, 800, F - 30_000 + 800_000],
];

for (const [name, o, before, m, modTime, after, next] of CASES)
  test(`setFetchSchedule: ${name}`, () => {
    const s = setFetchSchedule(o, state(before), F, modTime, m);
    assert.ok(Math.abs(s.fetchInterval - after) < 1e-9, `interval ${s.fetchInterval} ≠ ${after}`);
    assert.is(s.fetchTime, next);
    assert.is(s.retries, 0, 'a successful fetch clears retries');
  });

test('adaptive without a modified time takes the fetch time', () => {
  assert.is(setFetchSchedule(adaptive(true), state(1000), F, 0, 'modified').modifiedTime, F);
});

test('retry: a day later (ms, not 86.4 s as in Nutch 1.0), one more retry', () => {
  const s = setPageRetrySchedule(plain, state(1000), F);
  assert.is(s.fetchTime, F + DAY_MS);
  assert.is(s.retries, 3);
  assert.is(s.fetchInterval, 1000);
});

test('gone: interval × 1.5, capped at 0.9 × db.fetch.interval.max', () => {
  assert.is(setPageGoneSchedule(plain, state(1000), F).fetchInterval, 1500);
  assert.is(setPageGoneSchedule(plain, state(1000), F).fetchTime, F + 1_500_000);
  assert.is(setPageGoneSchedule(plain, state(MAX), F).fetchInterval, MAX * 0.9);
});

test('forceRefetch and initializeSchedule', () => {
  const s = forceRefetch(plain, { ...state(MAX * 2, F - 10), fetchTime: F + 99 }, F, true);
  assert.equal(s, { fetchTime: F, fetchInterval: MAX * 0.9, retries: 0, modifiedTime: 0 });
  assert.is(forceRefetch(plain, state(10), F, false).fetchTime, F - 5000);
  assert.equal(initializeSchedule(plain, F), { fetchTime: F, fetchInterval: 1000, retries: 0, modifiedTime: 0 });
});

test('shouldFetch: due, not due, pulled in from beyond db.fetch.interval.max', () => {
  assert.is(shouldFetch(plain, { ...state(1000), fetchTime: F }, F).fetch, true);
  assert.is(shouldFetch(plain, { ...state(1000), fetchTime: F + 1 }, F).fetch, false);
  const far = shouldFetch(plain, { ...state(MAX * 2), fetchTime: F + MAX * 1000 + 1 }, F);
  assert.is(far.fetch, true);
  assert.is(far.state.fetchTime, F);
  assert.is(far.state.fetchInterval, MAX * 0.9);
});

test('scheduleFromConf: short and Nutch class names, float min/max intervals, bad names refused', () => {
  const base = Conf.load();
  assert.is(scheduleFromConf(base).adaptive, undefined);
  const a = scheduleFromConf(base.with({ 'db.fetch.schedule.class': 'org.apache.nutch.crawl.AdaptiveFetchSchedule' }));
  assert.is(a.adaptive?.minInterval, 60);
  assert.is(a.adaptive?.maxInterval, 31536000);
  assert.is(a.defaultInterval, 2592000);
  assert.is(a.maxInterval, 7776000);
  assert.throws(() => scheduleFromConf(base.with({ 'db.fetch.schedule.class': 'Weekly' })), /db.fetch.schedule.class/);
});

test.run();
