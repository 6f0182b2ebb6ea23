import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergePage, modification, modifiedTimeOf, type MergeOptions } from '../../../crawler/updatedb/reducer.js';
import type { FetchDatum } from '../../../crawler/webdb/interface.js';
import { DAY_MS, type ScheduleOptions } from '../../../crawler/updatedb/schedule.js';
import { opicScoring } from '../../../crawler/scoring/opic.js';
import type { PageRow } from '../../../crawler/webdb/webdb.js';
import type { DbStatus, FetchStatus } from '../../../shared/page-status.js';

const NOW = Date.UTC(2024, 0, 10);
const FETCHED_AT = NOW - 600_000;
const URL = 'http://127.0.4.1/page';
const INTERVAL = 30 * 86400;
const MAX = 90 * 86400;

const SCHEDULES: Record<string, ScheduleOptions> = {
  default: { defaultInterval: INTERVAL, maxInterval: MAX },
  adaptive: {
    defaultInterval: INTERVAL,
    maxInterval: MAX,
    adaptive: { incRate: 0.4, decRate: 0.2, minInterval: 60, maxInterval: MAX, syncDelta: true, syncDeltaRate: 0.3 },
  },
};

const scoring = opicScoring({ internal: 1, external: 1, countFiltered: false, spendCash: true });
const opts = (schedule: ScheduleOptions, over: Partial<MergeOptions> = {}): MergeOptions => ({
  additionsAllowed: true,
  retryMax: 3,
  maxInlinks: 10000,
  schedule,
  scoring,
  ...over,
});

function oldRow(status: DbStatus, over: Partial<PageRow> = {}): PageRow {
  return {
    url: URL, host: '127.0.4.1', status, fetch_time: NOW - 3_600_000, fetch_interval: INTERVAL, retries: 0, score: 1,
    link_score: 0, signature: 'aaa', modified_time: NOW - 40 * DAY_MS, last_fetch_time: null, generate_time: NOW - 7_200_000,
    protocol_status: null, etag: '"old"', last_modified: null, metadata: '{"seed":"1"}', ...over,
  };
}

function fetchOf(status: FetchStatus, over: Partial<FetchDatum> = {}): FetchDatum {
  const content = status === 'fetch_success';
  return {
    status, fetchTime: FETCHED_AT, signature: content ? 'bbb' : null, modifiedTime: 0, protocolStatus: 'success',
    etag: content ? '"new"' : null, lastModified: null, ...over,
  };
}

const links = (n: number): number[] => Array.from({ length: n }, () => 0.5);

// Expected WebDB status for every (old status, fetch status) pair: the page's content changed,
// no retries before. '=' is the old row unchanged; '-' no row.
const OLD = ['none', 'db_unfetched', 'db_fetched', 'db_gone', 'db_redir_temp', 'db_redir_perm', 'db_notmodified'] as const;
const FETCH = ['none', 'fetch_success', 'fetch_retry', 'fetch_redir_temp', 'fetch_redir_perm', 'fetch_gone', 'fetch_notmodified'] as const;
const R = (s: string) => (s === '=' || s === '-' ? s : `db_${s}`);
const TABLE: Record<(typeof OLD)[number], string[]> = {
  //               none  success    retry          redir_temp    redir_perm    gone    notmodified
  none:           ['-', 'fetched', 'unfetched', 'redir_temp', 'redir_perm', 'gone', 'notmodified'],
  db_unfetched:   ['=', 'fetched', 'unfetched', 'redir_temp', 'redir_perm', 'gone', 'notmodified'],
  db_fetched:     ['=', 'fetched', 'fetched', 'redir_temp', 'redir_perm', 'gone', 'notmodified'],
  db_gone:        ['=', 'fetched', 'unfetched', 'redir_temp', 'redir_perm', 'gone', 'notmodified'],
  db_redir_temp:  ['=', 'fetched', 'unfetched', 'redir_temp', 'redir_perm', 'gone', 'notmodified'],
  db_redir_perm:  ['=', 'fetched', 'unfetched', 'redir_temp', 'redir_perm', 'gone', 'notmodified'],
  db_notmodified: ['=', 'fetched', 'notmodified', 'redir_temp', 'redir_perm', 'gone', 'notmodified'],
};

for (const [schedName, sched] of Object.entries(SCHEDULES))
  for (const o of OLD)
    FETCH.forEach((f, col) => {
      for (const n of [0, 1, 3]) {
        test(`${schedName}: ${o} × ${f} × ${n} inlinks`, () => {
          const old = o === 'none' ? undefined : oldRow(o);
          const fetch = f === 'none' ? undefined : fetchOf(f);
          const row = mergePage(URL, old, fetch, links(n), opts(sched), NOW);
          let want = R(TABLE[o][col]!);
          if (f === 'none' && n > 0) want = old ? old.status : 'db_unfetched';
          if (want === '-') return assert.is(row, undefined);
          if (want === '=') return assert.is(row, old);
          assert.ok(row);
          assert.is(row.status, want);
          assert.is(row.url, URL);
          const cash = n * 0.5;
          if (!fetch) {
            assert.is(row.score, (old ? 1 : 0) + cash, 'linked cash is added to the score');
            if (!old) assert.is(row.fetch_time, NOW, 'a new page is due now');
            return;
          }
          assert.is(row.generate_time, null, 'generate mark cleared');
          assert.is(row.last_fetch_time, FETCHED_AT);
          assert.ok(row.fetch_time > FETCHED_AT, 'next fetch is after this one');
          assert.is(row.score, (old ? 1 : 0) + cash);
          if (f === 'fetch_success') assert.is(row.signature, 'bbb');
          if (f === 'fetch_notmodified' || f === 'fetch_retry' || f === 'fetch_gone') assert.is(row.signature, old ? 'aaa' : null);
          if (f === 'fetch_retry') {
            assert.is(row.retries, 1);
            assert.is(row.fetch_time, FETCHED_AT + DAY_MS);
          }
          if (f === 'fetch_gone') {
            assert.is(row.fetch_interval, INTERVAL * 1.5);
            assert.is(row.etag, null);
          }
          if (old) assert.is(row.metadata, old.metadata, 'metadata kept');
        });
      }
    });

test('an unchanged signature makes a successful fetch db_notmodified and keeps the modified time', () => {
  const old = oldRow('db_fetched');
  const row = mergePage(URL, old, fetchOf('fetch_success', { signature: 'aaa' }), [], opts(SCHEDULES.default!), NOW)!;
  assert.is(row.status, 'db_notmodified');
  assert.is(row.modified_time, old.modified_time);
  assert.is(row.fetch_time, FETCHED_AT + INTERVAL * 1000);
});

test('a changed page gets the fetch time (or its Last-Modified) as modified time', () => {
  const lm = FETCHED_AT - 5 * DAY_MS;
  const a = mergePage(URL, oldRow('db_fetched'), fetchOf('fetch_success'), [], opts(SCHEDULES.default!), NOW)!;
  assert.is(a.modified_time, FETCHED_AT);
  const b = mergePage(URL, oldRow('db_fetched'), fetchOf('fetch_success', { modifiedTime: lm }), [], opts(SCHEDULES.default!), NOW)!;
  assert.is(b.modified_time, lm);
});

test('retries: db_unfetched below db.fetch.retry.max, then db_gone on the gone schedule', () => {
  const o = opts(SCHEDULES.default!);
  const second = mergePage(URL, oldRow('db_unfetched', { retries: 1 }), fetchOf('fetch_retry'), [], o, NOW)!;
  assert.is(second.status, 'db_unfetched');
  assert.is(second.retries, 2);
  const third = mergePage(URL, oldRow('db_unfetched', { retries: 2 }), fetchOf('fetch_retry'), [], o, NOW)!;
  assert.is(third.status, 'db_gone');
  assert.is(third.retries, 3);
  assert.is(third.fetch_time, FETCHED_AT + INTERVAL * 1.5 * 1000);
});

test('a page the fetcher deferred (protocol blocked) keeps its status and retries and is due again', () => {
  const o = opts(SCHEDULES.default!);
  for (const status of ['db_unfetched', 'db_fetched'] as const) {
    const old = oldRow(status, { retries: 2, last_fetch_time: FETCHED_AT - DAY_MS });
    const row = mergePage(URL, old, fetchOf('fetch_retry', { protocolStatus: 'blocked' }), [], o, NOW)!;
    assert.is(row.status, status);
    assert.is(row.retries, 2, 'no retry counted: no request was made');
    assert.is(row.fetch_time, FETCHED_AT);
    assert.is(row.last_fetch_time, FETCHED_AT - DAY_MS);
    assert.is(row.protocol_status, 'blocked');
  }
});

test('NUTCH-1245 fixed: a gone page past db.fetch.interval.max stays db_gone, interval capped at 0.9 × max', () => {
  const old = oldRow('db_gone', { fetch_interval: 80 * 86400 });
  const row = mergePage(URL, old, fetchOf('fetch_gone'), [], opts(SCHEDULES.default!), NOW)!;
  assert.is(row.status, 'db_gone');
  assert.is(row.fetch_interval, Math.round(MAX * 0.9));
});

test('an interval grown past db.fetch.interval.max forces a full refetch (db_unfetched, signature dropped)', () => {
  const old = oldRow('db_fetched', { fetch_interval: 80 * 86400, signature: 'aaa' });
  const yearly: ScheduleOptions = { ...SCHEDULES.adaptive!, adaptive: { ...SCHEDULES.adaptive!.adaptive!, maxInterval: 365 * 86400 } };
  const row = mergePage(URL, old, fetchOf('fetch_success', { signature: 'aaa' }), [], opts(yearly), NOW)!;
  assert.is(row.status, 'db_unfetched');
  assert.is(row.signature, null);
  assert.is(row.modified_time, 0);
  assert.ok(row.fetch_interval <= MAX);
});

test('db.update.additions.allowed=false: unknown URLs are never added, known ones still updated', () => {
  const o = opts(SCHEDULES.default!, { additionsAllowed: false });
  assert.is(mergePage(URL, undefined, undefined, links(2), o, NOW), undefined);
  assert.is(mergePage(URL, undefined, fetchOf('fetch_success'), [], o, NOW), undefined);
  assert.is(mergePage(URL, oldRow('db_unfetched'), fetchOf('fetch_success'), [], o, NOW)!.status, 'db_fetched');
});

test('OPIC: a fetched page spends the cash it handed on; inlinks beyond db.update.max.inlinks are ignored, best first', () => {
  const row = mergePage(URL, oldRow('db_unfetched', { score: 2 }), fetchOf('fetch_success', { scoreAdjust: -2 }), links(3), opts(SCHEDULES.default!), NOW)!;
  assert.is(row.score, 1.5);
  const linked = [0.1, 0.7, 0.2];
  const capped = mergePage(URL, undefined, undefined, linked, opts(SCHEDULES.default!, { maxInlinks: 2 }), NOW)!;
  assert.ok(Math.abs(capped.score - 0.9) < 1e-12);
});

test('etag and Last-Modified come from the fetch; a 304 keeps the old ones', () => {
  const old = oldRow('db_fetched', { etag: '"e1"', last_modified: 'Mon, 01 Jan 2024 00:00:00 GMT' });
  const nm = mergePage(URL, old, fetchOf('fetch_notmodified'), [], opts(SCHEDULES.default!), NOW)!;
  assert.is(nm.etag, '"e1"');
  assert.is(nm.last_modified, old.last_modified);
  const ok = mergePage(URL, old, fetchOf('fetch_success', { etag: '"e2"', lastModified: 'Tue, 02 Jan 2024 00:00:00 GMT' }), [], opts(SCHEDULES.default!), NOW)!;
  assert.is(ok.etag, '"e2"');
  assert.is(ok.last_modified, 'Tue, 02 Jan 2024 00:00:00 GMT');
  assert.is(ok.protocol_status, 'success');
});

test('a fetched page no longer in the WebDB is rebuilt from its fetchlist copy', () => {
  const row = mergePage(URL, undefined, fetchOf('fetch_success', { generated: { fetch_interval: 3600, score: 0.25 } }), [], opts(SCHEDULES.default!), NOW)!;
  assert.is(row.fetch_interval, 3600);
  assert.is(row.score, 0.25);
  assert.is(row.host, '127.0.4.1');
});

test('the content changed: a 304 says not, equal signatures say not, a missing signature cannot tell', () => {
  const cases: [string, PageRow | undefined, FetchDatum, string][] = [
    ['304', oldRow('db_fetched'), fetchOf('fetch_notmodified'), 'notmodified'],
    ['304, new page', undefined, fetchOf('fetch_notmodified'), 'notmodified'],
    ['same signature', oldRow('db_fetched', { signature: 'bbb' }), fetchOf('fetch_success'), 'notmodified'],
    ['other signature', oldRow('db_fetched'), fetchOf('fetch_success'), 'modified'],
    ['no old signature', oldRow('db_unfetched', { signature: null }), fetchOf('fetch_success'), 'unknown'],
    ['no new signature', oldRow('db_fetched'), fetchOf('fetch_redir_temp'), 'unknown'],
    ['new page', undefined, fetchOf('fetch_success'), 'unknown'],
  ];
  for (const [name, old, fetch, want] of cases) assert.is(modification(old, fetch), want, name);
});

test('when the content last changed: kept unless a success says otherwise, a Last-Modified in the future not believed', () => {
  const base = oldRow('db_fetched');
  const cases: [string, 'notmodified' | 'modified' | 'unknown', PageRow, FetchDatum, number][] = [
    ['not modified keeps it', 'notmodified', base, fetchOf('fetch_success', { modifiedTime: NOW - DAY_MS }), base.modified_time],
    ['not modified, none kept: the header', 'notmodified', oldRow('db_fetched', { modified_time: 0 }), fetchOf('fetch_notmodified', { modifiedTime: NOW - DAY_MS }), NOW - DAY_MS],
    ['success with Last-Modified', 'modified', base, fetchOf('fetch_success', { modifiedTime: NOW - DAY_MS }), NOW - DAY_MS],
    ['success, Last-Modified after the fetch', 'modified', base, fetchOf('fetch_success', { modifiedTime: NOW + DAY_MS }), FETCHED_AT],
    ['success without Last-Modified', 'unknown', base, fetchOf('fetch_success'), FETCHED_AT],
    ['a redirect keeps it', 'modified', base, fetchOf('fetch_redir_perm', { modifiedTime: NOW - DAY_MS }), base.modified_time],
  ];
  for (const [name, m, b, fetch, want] of cases) assert.is(modifiedTimeOf(m, b, fetch), want, name);
});

test.run();
