/** What changed, the host that ended a round, the age unit: the report's rules as tables of cases. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseSince, textDiff, verdicts, type UrlState } from '../../../crawler/report/changes.js';
import { boundingHost } from '../../../crawler/report/collect.js';
import { ageUnit } from '../../../crawler/report/html-report.js';

const SINCE: [value: string, iso: string][] = [
  ['20261203120603', '2026-12-03T12:06:03.000Z'],
  ['2026-12-01', '2026-12-01T00:00:00.000Z'],
  ['20261201', '2026-12-01T00:00:00.000Z'],
  ['2026-12-01T08:30:00Z', '2026-12-01T08:30:00.000Z'],
];
for (const [value, iso] of SINCE) test(`-since ${value}`, () => assert.is(new Date(parseSince(value)).toISOString(), iso));
for (const bad of ['yesterday', '2026-13-45', '2026-02-00', '', '2026120312060'])
  test(`-since ${JSON.stringify(bad)} is refused, named`, () => assert.throws(() => parseSince(bad), (e: Error) => e.message.includes(JSON.stringify(bad))));

const DIFFS: [old: string, now: string, diff: ReturnType<typeof textDiff>][] = [
  ['same words here', 'same  words\nhere', null],
  ['Trains for trips under four hours.', 'Trains for trips under six hours.', { before: 'Trains for trips under', removed: 'four', added: 'six' }],
  ['a b c d e f g h', 'a b c d e f X g h', { before: '… c d e f', removed: '', added: 'X' }],
  ['one two three', 'one', { before: 'one', removed: 'two three', added: '' }],
  ['x', `${'y '.repeat(30)}`, { before: '', removed: 'x', added: `${'y '.repeat(25).trim()} …` }],
];
for (const [old, now, diff] of DIFFS) test(`diff ${JSON.stringify(old)} → ${JSON.stringify(now)}`, () => assert.equal(textDiff(old, now), diff));

const st = (segment: string, status: UrlState['status'], httpStatus: number | null = 200, redirectTo: string | null = null, content: string | null = status === 'fetch_success' ? segment : null): UrlState => ({
  segment,
  status,
  httpStatus,
  redirectTo,
  content,
});

test('verdicts: added, removed, re-fetched, newly missing, new redirects', () => {
  const before = new Map([
    ['http://a/kept', st('s1', 'fetch_success')],
    ['http://a/now-404', st('s1', 'fetch_success')],
    ['http://a/was-404', st('s1', 'fetch_gone', 404)],
    ['http://a/moved', st('s1', 'fetch_success')],
    ['http://a/same-redirect', st('s1', 'fetch_redir_perm', 301, 'http://a/kept')],
    ['http://a/304', st('s1', 'fetch_success')],
    ['http://a/read-then-304', st('s1', 'fetch_success')],
  ]);
  const since = new Map([
    ['http://a/kept', st('s2', 'fetch_success')],
    ['http://a/now-404', st('s2', 'fetch_gone', 404)],
    ['http://a/was-404', st('s2', 'fetch_gone', 404)],
    ['http://a/moved', st('s2', 'fetch_redir_perm', 301, 'http://a/new')],
    ['http://a/same-redirect', st('s2', 'fetch_redir_perm', 301, 'http://a/kept')],
    ['http://a/304', st('s2', 'fetch_notmodified', 304)],
    ['http://a/read-then-304', st('s3', 'fetch_notmodified', 304, null, 's2')],
    ['http://a/new', st('s3', 'fetch_success')],
    ['http://a/never', st('s3', 'fetch_gone', 410)],
  ]);
  assert.equal(verdicts(before, since), {
    added: [{ url: 'http://a/new', segment: 's3' }],
    removed: [
      { url: 'http://a/now-404', why: 'HTTP 404' },
      { url: 'http://a/moved', why: 'moved to http://a/new' },
    ],
    refetched: [
      { url: 'http://a/kept', was: 's1', now: 's2' },
      { url: 'http://a/read-then-304', was: 's1', now: 's2' },
    ],
    missing: [
      { url: 'http://a/now-404', httpStatus: 404 },
      { url: 'http://a/never', httpStatus: 410 },
    ],
    redirects: [['http://a/moved', 'http://a/new']],
  });
});

test('the host that ended a round, and how long it fetched alone', () => {
  assert.equal(
    boundingHost(new Map([['a', { last: 5000, pages: 3 }], ['b', { last: 65_000, pages: 40 }], ['c', { last: 20_000, pages: 9 }]])),
    { host: 'b', pages: 40, aloneMs: 45_000 },
  );
  assert.equal(boundingHost(new Map([['only', { last: 1, pages: 1 }]])), { host: 'only', pages: 1, aloneMs: null });
  assert.is(boundingHost(new Map()), null);
});

const AGES: [ms: number, unit: string][] = [
  [0, 'seconds'],
  [90_000, 'seconds'],
  [10 * 60_000, 'minutes'],
  [5 * 3_600_000, 'hours'],
  [3 * 86_400_000, 'days'],
];
for (const [ms, unit] of AGES) test(`segments ${ms} ms old are charted in ${unit}`, () => assert.is(ageUnit(ms).name, unit));

test.run();
