import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dayOf, parseDay } from '../../shared/day.js';
import { parseQuery } from '../../searcher/query/parse.js';

test('parseDay: real UTC days only', () => {
  const table: [string, string | undefined][] = [
    ['20240101', '2024-01-01T00:00:00.000Z'],
    ['20240229', '2024-02-29T00:00:00.000Z'],
    ['20230229', undefined],
    ['20240230', undefined],
    ['20241301', undefined],
    ['20240100', undefined],
    ['2024011', undefined],
    ['2024-01-01', undefined],
    ['yesterday', undefined],
  ];
  for (const [s, iso] of table) assert.is(parseDay(s)?.toISOString(), iso, s);
});

test('dayOf is the UTC day and round-trips with parseDay', () => {
  assert.is(dayOf(Date.UTC(2024, 11, 31, 23, 59, 59)), '20241231');
  assert.is(dayOf(parseDay('20240315')!.getTime()), '20240315');
});

test('a date: query accepts only real days', () => {
  assert.throws(() => parseQuery('date:20240230 x'), /not a date range/);
  assert.ok(parseQuery('date:20240229 x'));
});

test.run();
