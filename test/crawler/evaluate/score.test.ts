/** Judged queries: the file format (bad lines named by file:line) and the scores, as tables of cases. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseJudgments } from '../../../crawler/evaluate/judgments.js';
import { explainPath, firstHitChanges, outcome, scores } from '../../../crawler/evaluate/metrics.js';

test('judgments: queries with one or more URLs; comments and blank lines skipped; URLs normalized', () => {
  const text = '# our queries\n\nvacation days\thttp://hr.test/leave\n  # indented comment\nexpense report\thttp://HR.test/expenses\thttp://hr.test/expenses-old\t\n';
  assert.equal(parseJudgments(text, 'j.tsv'), [
    { query: 'vacation days', expected: ['http://hr.test/leave'], where: 'j.tsv:3' },
    { query: 'expense report', expected: ['http://hr.test/expenses', 'http://hr.test/expenses-old'], where: 'j.tsv:5' },
  ]);
});

const BAD: [text: string, message: RegExp][] = [
  ['ok\thttp://a.test/\nno tab here\n', /^j\.tsv:2: expected a query, a tab and the URL it should find, not "no tab here"$/],
  ['\thttp://a.test/\n', /^j\.tsv:1: expected a query/],
  ['query\t\t\n', /^j\.tsv:1: expected a query/],
  ['query\tnot a url\n', /^j\.tsv:1: "not a url" is not a URL$/],
  ['a\tb\nc\td\n', /^j\.tsv:1: "b" is not a URL\nj\.tsv:2: "d" is not a URL$/],
  ['# only comments\n\n', /^j\.tsv: no judged query in it/],
];
for (const [text, message] of BAD)
  test(`refused: ${JSON.stringify(text)}`, () => {
    assert.throws(() => parseJudgments(text, 'j.tsv'), (e: Error) => message.test(e.message));
  });

const J = { query: 'q', expected: ['http://a.test/x', 'http://a.test/y'] };
const OUTCOMES: [hits: string[], rank: number | null][] = [
  [['http://a.test/x', 'http://a.test/z'], 1],
  [['http://a.test/z', 'http://a.test/y'], 2],
  [[], null],
  [[...Array.from({ length: 10 }, (_, i) => `http://a.test/${i}`), 'http://a.test/x'], null],
];
for (const [hits, rank] of OUTCOMES) test(`rank ${rank} of ${hits.length} hits`, () => assert.is(outcome(J, hits).rank, rank));

test('MRR@10 and P@1', () => {
  const q = (rank: number | null) => ({ query: '', expected: [], top: [], rank });
  assert.equal(scores([q(1), q(2), q(null), q(4)]), { mrr: (1 + 0.5 + 0 + 0.25) / 4, p1: 0.25 });
  assert.equal(scores([]), { mrr: 0, p1: 0 });
});

test('first hits changed since the last run: only queries asked both times whose first hit differs', () => {
  const o = (query: string, first: string | undefined, rank: number | null) => ({ query, expected: [], top: first ? [first] : [], rank });
  const last = [o('same', 'http://a/', 1), o('moved', 'http://a/', 1), o('gone', 'http://b/', 2), o('dropped query', 'http://c/', 1)];
  const now = [o('same', 'http://a/', 1), o('moved', 'http://b/', 3), o('gone', undefined, null), o('new query', 'http://d/', 1)];
  assert.equal(firstHitChanges(last, now), [
    { query: 'moved', was: 'http://a/', now: 'http://b/', wasRank: 1, nowRank: 3 },
    { query: 'gone', was: 'http://b/', now: null, wasRank: 2, nowRank: null },
  ]);
});

test('the explain link names the expected page and the query', () => {
  assert.is(explainPath({ query: 'a&b c', expected: ['http://h.test/p?x=1'] }), '/explain?url=http%3A%2F%2Fh.test%2Fp%3Fx%3D1&query=a%26b%20c');
});

test.run();
