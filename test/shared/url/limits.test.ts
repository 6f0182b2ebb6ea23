/** URL limits: a table of URLs against the defaults, and the crawler's chains dropping what breaks them before any rule runs. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filterChain, normalizerChain } from '../../../crawler/plugins.js';
import { urlLimitBreach, type UrlLimits } from '../../../shared/url/limits.js';

const LIMITS: UrlLimits = { maxLength: 2048, maxPathDepth: 32, maxSegmentRepeats: 2 };

test('limits: a table of URLs', () => {
  const deep = `http://x/${Array.from({ length: 33 }, (_, i) => `d${i}`).join('/')}`;
  const table: [string, RegExp | null][] = [
    ['http://x/', null],
    ['http://x', null],
    ['http://x/a/b/a/c/', null],
    ['http://x/a/b/a/c/a/', /segment "a" occurs more than 2 times \(url\.max\.segment\.repeats\)/],
    ['http://x/cal/2026/01/01/01/', /segment "01" occurs more than 2/],
    ['http://x/p?a/a/a/a', null], // the query is not the path
    ['http://x/p#/a/a/a/a', null],
    [deep, /path of 33 segments is deeper than 32 \(url\.max\.path\.depth\)/],
    [deep.replace('/d32', ''), null],
    [`http://x/${'y'.repeat(2040)}`, /URL of 2049 characters is longer than 2048 \(url\.max\.length\)/],
    [`http://x/${'y'.repeat(65536)}`, /longer than 2048/],
    ['mailto:a@b', null],
  ];
  for (const [url, why] of table) {
    const got = urlLimitBreach(url, LIMITS);
    if (why === null) assert.is(got, null, url.slice(0, 60));
    else assert.match(got ?? '', why, url.slice(0, 60));
  }
  const off: UrlLimits = { maxLength: -1, maxPathDepth: -1, maxSegmentRepeats: -1 };
  assert.is(urlLimitBreach(deep + '/a/a/a' + 'z'.repeat(5000), off), null, '-1 switches every limit off');
});

test('limits: the chains drop a breaking URL before any normalizer or filter sees it', () => {
  const seen: string[] = [];
  const spy = { normalize: (u: string) => (seen.push(u), u), filter: (u: string) => (seen.push(u), u) };
  const huge = `http://x/${'y'.repeat(65536)}`;
  assert.is(normalizerChain([spy], 1, LIMITS).normalize(huge, 'outlink'), null);
  assert.is(filterChain([spy], LIMITS).filter(huge), null);
  assert.is(filterChain([spy], LIMITS).filter('http://x/a/a/a/'), null);
  assert.equal(seen, []);
  assert.is(filterChain([spy], LIMITS).filter('http://x/ok/'), 'http://x/ok/');
  assert.equal(seen, ['http://x/ok/']);
});

test.run();
