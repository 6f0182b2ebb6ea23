import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { domain, domainOfHost, host, reverseHost, reverseUrl, site } from '../../../crawler/url/keys.js';

test('host, site, domain', () => {
  // [url, host, domain]
  const table: [string, string, string][] = [
    ['http://www.example.com/a', 'www.example.com', 'example.com'],
    ['https://a.b.example.co.uk:8443/', 'a.b.example.co.uk', 'example.co.uk'],
    ['http://foo.github.io/', 'foo.github.io', 'foo.github.io'],
    ['http://127.0.2.5:8080/', '127.0.2.5', '127.0.2.5'],
    ['http://localhost/', 'localhost', 'localhost'],
    ['http://[::1]/', '[::1]', '[::1]'],
    ['http://wiki/', 'wiki', 'wiki'],
    ['http://WWW.Example.COM/', 'www.example.com', 'example.com'],
    ['not a url', '', ''],
  ];
  for (const [url, h, d] of table) {
    assert.is(host(url), h, `host ${url}`);
    assert.is(site(url), h, `site ${url}`);
    assert.is(domain(url), d, `domain ${url}`);
  }
  assert.is(domainOfHost(''), '');
});

test('reversed keys', () => {
  const table: [string, string | null][] = [
    ['http://bar.foo.com:8983/to/index.html?a=b', 'com.foo.bar:http:8983/to/index.html?a=b'],
    ['https://www.example.com/', 'com.example.www:https/'],
    ['http://www.example.com:80/p', 'com.example.www:http/p'],
    ['http://127.0.0.1:8080/', '127.0.0.1:http:8080/'],
    ['mailto:a@b', null],
    ['nope', null],
  ];
  for (const [url, key] of table) assert.is(reverseUrl(url), key, url);
  assert.is(reverseHost('a.b.c'), 'c.b.a');
});

test.run();
