/** The crawl summary counts each URL once, under one outcome, and says when the index was left unchanged. */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { emptySummary, formatSummary, outcomes, phaseTimes, type CrawlSummary } from '../../crawler/crawl-summary.js';

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

const base: CrawlSummary = { ...emptySummary('/c'), documents: 1146 };

test('a re-crawl that changed nothing says the index is unchanged', () => {
  const idle = formatSummary({ ...base, indexUnchanged: true });
  assert.match(idle, /\n {2}index unchanged {4}1146 documents\n/);
  assert.not.match(idle, /documents indexed|duplicates removed/);
  assert.match(formatSummary(base), /\n {2}documents indexed {2}1146\n {2}duplicates removed 0\n/);
});

test('the README shows the summary lines the crawl prints, and its counts add up to the URLs of its rounds', () => {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const rounds = /crawl: details in[\s\S]*?```/.exec(readme)![0];
  const sample = /It ends with a summary[\s\S]*?```\n([\s\S]*?)```/.exec(readme)![1]!;
  const label = /^ +([a-z][a-z-]*(?: [a-z-]+)*) +(\d+)?/;
  const shown = sample.split('\n').slice(1).map((l) => label.exec(l)).filter((m) => m !== null);
  const printed = formatSummary({ ...base, byStatus: { fetch_retry: 1 }, deferred: 1 })
    .split('\n')
    .slice(1)
    .map((l) => label.exec(l)?.[1]);
  assert.equal(shown.map((m) => m[1]), printed);
  const count = (name: string) => Number(shown.find((m) => m[1] === name)![2]);
  const tried = [...rounds.matchAll(/fetching (\d+) URLs/g)].reduce((n, m) => n + Number(m[1]), 0);
  assert.ok(tried > 0);
  assert.is(['pages fetched', 'failed', 'gone', 'redirected', 'robots-denied', 'deferred'].reduce((n, k) => n + count(k), 0), tried);
});

test("a round's time: what each phase added since the round began, in the order the phases first ran", () => {
  // [phase totals before, after, expected]
  const table: [Record<string, number>, Record<string, number>, string][] = [
    [{}, { inject: 12, generate: 40, fetch: 1830, updatedb: 440 }, '2.32 s: inject 0.01 s, generate 0.04 s, fetch 1.83 s, updatedb 0.44 s'],
    [{ inject: 12, generate: 40, fetch: 1830, updatedb: 440 }, { inject: 12, generate: 96, fetch: 2830, updatedb: 500 }, '1.12 s: generate 0.06 s, fetch 1.00 s, updatedb 0.06 s'],
    [{ generate: 40, fetch: 100 }, { generate: 40, fetch: 100, parse: 300 }, '0.30 s: parse 0.30 s'],
  ];
  for (const [before, after, want] of table) assert.is(phaseTimes(before, after), want);
});

test.run();
