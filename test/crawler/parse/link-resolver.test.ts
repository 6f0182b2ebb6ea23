import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { linkResolver, resolveHttp } from '../../../crawler/parse/link-resolver.js';
import { rng } from '../../fixtures/rng.js';

const BASES = [
  'http://127.0.4.1:8950/dir/page.html',
  'http://127.0.4.1:8950/dir/',
  'http://127.0.4.1:8950/',
  'https://docs.example.com/a/b/c.html?q=1#frag',
  'http://[::1]:8000/x/y',
  'http://user:pw@example.com/p/q.html',
  'file:///srv/share/index.html',
  'mailto:x@example.com',
  'not a url',
];

test('linkResolver: what resolveHttp gives, for hand-picked links', () => {
  const hrefs = ['a.html', 'sub/b.html', '/abs.html', '//other.example/x', '?q=2', '#top', 'a.html#f', 'a.html?x=1#f', '', '.', '..', './a', '../a', 'a/./b', 'a/../b',
    'a:b', 'mailto:x@y', 'javascript:void(0)', 'http://example.com/x', 'a b', 'a%20b', '%2e%2e/x', 'é.html', 'a\\b', "it's", 'a"b', '<x>', '?a=./b', '#..', 'a//b', '/', '?', '#'];
  for (const base of BASES) {
    const resolve = linkResolver(base);
    for (const href of hrefs) assert.is(resolve(href), resolveHttp(href, base), `${href} against ${base}`);
  }
});

test('linkResolver: what resolveHttp gives, for random links', () => {
  const rnd = rng(30);
  const chars = ['a', 'Z', '0', '-', '.', '_', '~', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', ':', '@', '/', '?', '#', '%', '%2e', '^', '`', '{', '|', '"', ' ', '\t', '\\', 'é', '[', '..', './', '../', '//'];
  for (const base of BASES) {
    const resolve = linkResolver(base);
    for (let n = 0; n < 5000; n++) {
      let href = '';
      for (let k = Math.floor(rnd() * 10); k > 0; k--) href += chars[Math.floor(rnd() * chars.length)];
      assert.is(resolve(href), resolveHttp(href, base), `${JSON.stringify(href)} against ${base}`);
    }
  }
});

test.run();
