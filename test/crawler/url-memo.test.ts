import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { memoByUrl } from '../../crawler/url-memo.js';

test('memoByUrl: the work is done once per distinct URL, a null answer included', () => {
  const calls: string[] = [];
  const key = memoByUrl((u) => {
    calls.push(u);
    return u.includes('drop') ? null : u.toLowerCase();
  });
  const cases: [string, string | null][] = [
    ['http://A.test/', 'http://a.test/'],
    ['http://a.test/drop', null],
    ['http://A.test/', 'http://a.test/'],
    ['http://a.test/drop', null],
    ['http://B.test/', 'http://b.test/'],
  ];
  for (const [u, want] of cases) assert.is(key(u), want, u);
  assert.equal(calls, ['http://A.test/', 'http://a.test/drop', 'http://B.test/']);
});

test.run();
