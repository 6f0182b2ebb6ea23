/** URL limits: a table of URLs against the defaults, the crawler's chains dropping what breaks them before any rule runs, and the filter chain keeping web pages from leading to local files. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filterChain, normalizerChain } from '../../../crawler/plugin/chains.js';
import { urlLimitBreach, type UrlLimits } from '../../../crawler/url/limits.js';

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

test('the filter chain: a web page never leads to a local file, whatever the filters say', () => {
  const chain = filterChain([{ filter: (u: string) => (u.includes('blocked') ? null : u) }]);
  const table: [string, string | undefined, string | null, string | null][] = [
    ['file:///etc/passwd', 'http://a.test/', null, 'is a local file: a web page never leads the crawler there'],
    ['FILE:///etc/passwd', 'https://a.test/', null, 'is a local file: a web page never leads the crawler there'],
    ['file:///srv/b.html', 'file:///srv/a.html', 'file:///srv/b.html', null],
    ['file:///srv/seed.html', undefined, 'file:///srv/seed.html', null],
    ['http://a.test/blocked', 'http://a.test/', null, 'rejected by the URL filters'],
    ['http://a.test/ok', 'http://a.test/', 'http://a.test/ok', null],
  ];
  for (const [url, from, passed, why] of table) {
    assert.is(chain.filter(url, from), passed, `${from} -> ${url}`);
    assert.is(chain.rejection(url, from), why, `${from} -> ${url}`);
  }
});

test.run();
