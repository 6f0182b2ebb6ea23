/** The progress rules as tables, and the display on a terminal and off one, with a fake clock. */
import { PassThrough } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchEta, formatDuration, politeEta, progressLine, ProgressDisplay, rateEta, RecentRate, recentRate, type HostBacklog } from '../../crawler/progress.js';

test('durations read as people read them', () => {
  const table: [number, string][] = [
    [0, '0 ms'],
    [850, '850 ms'],
    [1000, '1 s'],
    [45_400, '45 s'],
    [60_000, '1 min'],
    [200_000, '3 min 20 s'],
    [3_900_000, '1 h 05 min'],
    [-1, '?'],
    [Infinity, '?'],
  ];
  for (const [ms, text] of table) assert.is(formatDuration(ms), text, String(ms));
});

test('ETA at the rate so far', () => {
  // [done, total, elapsed ms, eta]
  const table: [number, number | undefined, number, number | undefined][] = [
    [0, 100, 5000, undefined],
    [10, 100, 5000, 45_000],
    [100, 100, 5000, 0],
    [10, undefined, 5000, undefined],
  ];
  for (const [done, total, elapsed, eta] of table) assert.is(rateEta(done, total, elapsed), eta, `${done}/${total}`);
});

test('ETA of a polite fetch: the slowest host or the thread limit', () => {
  const host = (waiting: number, delayMs: number, slots = 1): HostBacklog => ({ waiting, delayMs, slots });
  // [hosts, threads, response ms, eta ms, why, tail options]
  const table: [HostBacklog[], number, number, number, string, { tailMaxMs?: number; tailLeftMs?: number }?][] = [
    [[host(1146, 1000)], 10, 0, 1_146_000, 'one host at 1 s: about 19 min however many threads'],
    [[host(1146, 1000)], 10, 50, 1_203_300, 'answer time adds to the delay'],
    [[host(100, 1000), host(10, 1000)], 10, 0, 100_000, 'the slowest host decides'],
    [[host(100, 0, 4)], 10, 100, 2_500, 'four at a time without delay'],
    [[host(100, 0), host(100, 0), host(100, 0), host(100, 0)], 2, 100, 20_000, 'two threads for four hosts: the thread limit decides'],
    [[host(0, 5000)], 10, 0, 0, 'nothing waiting'],
    [[], 10, 0, 0, 'no hosts'],
    [[host(572, 1000), host(40, 1000)], 20, 0, 340_000, 'the last host stops 300 s after the other is done', { tailMaxMs: 300_000 }],
    [[host(572, 1000), host(40, 1000)], 20, 0, 572_000, 'no tail bound', { tailMaxMs: -1 }],
    [[host(100, 1000)], 20, 0, 100_000, 'one host alone has no tail', { tailMaxMs: 300_000 }],
    [[host(500, 1000)], 20, 0, 120_000, 'already in the tail: what is left of it', { tailMaxMs: 300_000, tailLeftMs: 120_000 }],
  ];
  for (const [hosts, threads, responseMs, eta, why, tail] of table) assert.is(politeEta(hosts, { threads, responseMs, ...tail }), eta, why);
});

test('the recent rate: the last window of samples, none until they span a second', () => {
  const at = (...pairs: [number, number][]) => pairs.map(([t, done]) => ({ at: t, done }));
  // [samples, window ms, rate, why]
  const table: [ReturnType<typeof at>, number, number | undefined, string][] = [
    [[], 10_000, undefined, 'no samples'],
    [at([0, 0], [500, 100]), 10_000, undefined, 'half a second is too little to tell'],
    [at([0, 0], [1000, 100]), 10_000, 100, 'a second'],
    [at([0, 0], [10_000, 1000], [20_000, 13_000]), 10_000, 1200, 'only the last 10 s: a slow start forgotten'],
    [at([0, 0], [10_000, 12_000], [20_000, 13_000]), 10_000, 100, 'a fetch slowing down (one host left) is seen at its new pace'],
    [at([0, 0], [5000, 500], [20_000, 13_000]), 30_000, 650, 'a longer window averages more'],
    [at([0, 0], [20_000, 0]), 30_000, 0, 'nothing answered'],
  ];
  for (const [samples, windowMs, rate, why] of table) assert.is(recentRate(samples, windowMs), rate, why);
  const r = new RecentRate(10_000);
  for (let t = 0; t <= 60_000; t += 200) r.add(t, t < 30_000 ? t / 100 : 300 + ((t - 30_000) * 12) / 10);
  assert.is(Math.round(r.rate()!), 1200, 'the samples kept are the window’s');
});

test('the fetch ETA: runnable work left at the recent rate, never under what politeness takes', () => {
  // [remaining, rate, polite ms, eta ms, why]
  const table: [number, number | undefined, number, number, string][] = [
    [13_000, 1200, 5000, 10_833, 'at scale: 13,000 pages at 1,200/s is about 11 s, not the 5 s the answer times alone gave'],
    [1000, 500, 100_000, 100_000, 'one host at 1 s a page: politeness decides, however fast the last seconds went'],
    [1000, undefined, 20_000, 20_000, 'no rate yet: politeness alone'],
    [1000, 0, 20_000, 20_000, 'nothing answered lately: politeness alone'],
    [0, 1200, 0, 0, 'nothing waiting'],
    [600, 300, 0, 2000, 'deferred URLs are not in the remaining work'],
  ];
  for (const [remaining, rate, politeMs, eta, why] of table) assert.is(Math.round(fetchEta({ remaining, rate, politeMs })), eta, why);
});

test('the progress line: counts, rate, errors, ETA', () => {
  const table: [Parameters<typeof progressLine>[0], string][] = [
    [{ step: 'fetch', done: 120, total: 1146, unit: 'pages', elapsedMs: 120_000, errors: 0, etaMs: 1_026_000 }, 'fetch 120/1146 pages · 1.0/s · 0 errors · ETA 17 min 6 s'],
    [{ step: 'updatedb', done: 500, total: 1000, unit: 'URLs', elapsedMs: 1000 }, 'updatedb 500/1000 URLs · 500/s · ETA 1 s'],
    [{ step: 'merge', done: 7, unit: 'documents', elapsedMs: 0, extra: '2 segments' }, 'merge 7 documents · 0.0/s · 2 segments'],
    [{ step: 'fetch', done: 50, total: 60, unit: 'pages', elapsedMs: 10_000, errors: 1, rate: 2 }, 'fetch 50/60 pages · 2.0/s · 1 error · ETA 2 s'],
  ];
  for (const [state, line] of table) assert.is(progressLine(state), line);
});

function capture() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  return { out, text: () => text };
}

test('on a terminal one line is redrawn, at most ten times a second; elsewhere a plain line every interval', () => {
  let now = 0;
  const tty = capture();
  const t = new ProgressDisplay({ err: tty.out, tty: true, now: () => now });
  t.show('a');
  now = 50;
  t.show('b');
  now = 150;
  t.show('c');
  t.show('d', true);
  t.clear();
  assert.is(tty.text(), '\r\x1b[2Ka\r\x1b[2Kc\r\x1b[2Kd\r\x1b[2K');

  now = 0;
  const plain = capture();
  const p = new ProgressDisplay({ err: plain.out, tty: false, intervalMs: 5000, now: () => now });
  for (now = 0; now <= 12_000; now += 1000) p.show(`at ${now}`, true);
  p.clear();
  assert.is(plain.text(), 'at 5000\nat 10000\n', 'no redraws, no escape codes; nothing before the first interval');
});

test.run();
