/** The crawl summary counts each URL once, under one outcome, and says when the index was left unchanged. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatSummary, outcomes, type CrawlSummary } from '../../crawler/crawl.js';

test('each URL is counted once', () => {
  // [byStatus, robotsDenied, deferred, expected]
  const table: [CrawlSummary['byStatus'], number, number, ReturnType<typeof outcomes>][] = [
    [
      { fetch_success: 279, fetch_gone: 5, fetch_redir_perm: 2, fetch_retry: 0 },
      4,
      0,
      { fetched: 279, ok: 279, notModified: 0, failed: 0, gone: 1, redirected: 2, robotsDenied: 4, deferred: 0 },
    ],
    [
      { fetch_success: 3, fetch_notmodified: 7, fetch_retry: 12, fetch_redir_temp: 1 },
      0,
      10,
      { fetched: 10, ok: 3, notModified: 7, failed: 2, gone: 0, redirected: 1, robotsDenied: 0, deferred: 10 },
    ],
    [{}, 0, 0, { fetched: 0, ok: 0, notModified: 0, failed: 0, gone: 0, redirected: 0, robotsDenied: 0, deferred: 0 }],
  ];
  for (const [byStatus, robotsDenied, deferred, want] of table) {
    const o = outcomes({ byStatus, robotsDenied, deferred });
    assert.equal(o, want);
    const tried = Object.values(byStatus).reduce((a, b) => a + (b ?? 0), 0);
    assert.is(o.fetched + o.failed + o.gone + o.redirected + o.robotsDenied + o.deferred, tried, 'the outcomes add up to the URLs tried');
  }
});

const base: CrawlSummary = {
  dir: '/c',
  injected: 0,
  segments: [],
  byStatus: {},
  robotsDenied: 0,
  linksDropped: { cap: 0, filtered: 0, external: 0 },
  deferred: 0,
  documents: 1146,
  duplicates: 0,
  interrupted: false,
  phases: {},
};

test('a re-crawl that changed nothing says the index is unchanged', () => {
  const idle = formatSummary({ ...base, indexUnchanged: true });
  assert.match(idle, /\n {2}index unchanged {4}1146 documents\n/);
  assert.not.match(idle, /documents indexed|duplicates removed/);
  assert.match(formatSummary(base), /\n {2}documents indexed {2}1146\n {2}duplicates removed 0\n/);
});

test.run();
