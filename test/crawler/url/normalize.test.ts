import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normalizeEscapes, normalizeUrl } from '../../../crawler/url/normalize.js';

// [input, expected] — expected null means the URL is dropped.
const CASES: [string, string | null][] = [
  // case of scheme and host, for every scheme
  ['HTTP://WWW.EXAMPLE.COM/', 'http://www.example.com/'],
  ['HTTPS://Example.Com/Path', 'https://example.com/Path'],
  ['FTP://Files.Example.com/a', 'ftp://files.example.com/a'],
  ['Foo://User@Host.Example:80/A', 'foo://User@host.example:80/A'],
  ['MAILTO:Someone@Example.com', 'mailto:Someone@Example.com'],
  ['http://example.com/CaseKept/Path', 'http://example.com/CaseKept/Path'],
  // IDN
  ['http://münchen.de/', 'http://xn--mnchen-3ya.de/'],
  ['https://BÜCHER.example/x', 'https://xn--bcher-kva.example/x'],
  ['http://例え.テスト/', 'http://xn--r8jz45g.xn--zckzah/'],
  // ports
  ['http://example.com:80/', 'http://example.com/'],
  ['https://example.com:443/', 'https://example.com/'],
  ['ftp://example.com:21/', 'ftp://example.com/'],
  ['http://example.com:8080/', 'http://example.com:8080/'],
  ['https://example.com:80/', 'https://example.com:80/'],
  ['http://example.com:/', 'http://example.com/'],
  // empty path and trailing dot of the host
  ['http://example.com', 'http://example.com/'],
  ['http://example.com?q=1', 'http://example.com/?q=1'],
  ['http://example.com./a', 'http://example.com/a'],
  // dot segments
  ['http://example.com/a/./b', 'http://example.com/a/b'],
  ['http://example.com/a/../b', 'http://example.com/b'],
  ['http://example.com/../../a', 'http://example.com/a'],
  ['http://example.com/a/b/..', 'http://example.com/a/'],
  ['http://example.com/a/%2e%2E/b', 'http://example.com/b'],
  ['http://example.com/a/.', 'http://example.com/a/'],
  // duplicate slashes
  ['http://example.com//a///b', 'http://example.com/a/b'],
  ['http://example.com/a//', 'http://example.com/a/'],
  ['http://example.com/x?u=http://a//b', 'http://example.com/x?u=http://a//b'],
  // percent-encoding
  ['http://example.com/%7euser', 'http://example.com/~user'],
  ['http://example.com/%41%62%2D%5f', 'http://example.com/Ab-_'],
  ['http://example.com/a%2fb', 'http://example.com/a%2Fb'],
  ['http://example.com/a%3fb', 'http://example.com/a%3Fb'],
  ['http://example.com/a b', 'http://example.com/a%20b'],
  ['http://example.com/ü', 'http://example.com/%C3%BC'],
  ['http://example.com/%c3%bc', 'http://example.com/%C3%BC'],
  ['http://example.com/100%', 'http://example.com/100%25'],
  ['http://example.com/%zz', 'http://example.com/%25zz'],
  ['http://example.com/?q=%7e%2b+x', 'http://example.com/?q=~%2B+x'],
  ['http://example.com/?q=a b', 'http://example.com/?q=a%20b'],
  // fragments
  ['http://example.com/a#frag', 'http://example.com/a'],
  ['http://example.com/a?b=1#f?g', 'http://example.com/a?b=1'],
  ['http://example.com/#', 'http://example.com/'],
  // query order and content untouched
  ['http://example.com/?b=2&a=1', 'http://example.com/?b=2&a=1'],
  ['http://example.com/?a=1&a=0&A=2', 'http://example.com/?a=1&a=0&A=2'],
  ['http://example.com/p?', 'http://example.com/p?'],
  // IP addresses
  ['http://0x7F.1/', 'http://127.0.0.1/'],
  ['http://[::1]:80/a', 'http://[::1]/a'],
  ['http://[0:0:0:0:0:0:0:1]/', 'http://[::1]/'],
  // whitespace, userinfo
  ['  http://example.com/a  ', 'http://example.com/a'],
  ['http://User:Pw@Example.com/', 'http://User:Pw@example.com/'],
  // dropped
  ['not a url', null],
  ['/relative/path', null],
  ['', null],
  ['http://', null],
  ['javascript:alert(1)', null],
  ['data:text/html,hi', null],
  ['about:blank', null],
  ['http://exa mple.com/', null],
];

test('normalizeUrl: table', () => {
  assert.ok(CASES.length >= 40);
  for (const [input, expected] of CASES) assert.is(normalizeUrl(input), expected, `normalizeUrl(${JSON.stringify(input)})`);
});

test('normalizeUrl is idempotent', () => {
  for (const [input] of CASES) {
    const once = normalizeUrl(input);
    if (once !== null) assert.is(normalizeUrl(once), once, `twice ${JSON.stringify(input)}`);
  }
});

test('normalizeEscapes', () => {
  const table: [string, string][] = [
    ['%7e', '~'],
    ['%2f', '%2F'],
    ['%', '%25'],
    ['%4', '%254'],
    ['a%20b', 'a%20b'],
    ['%30%39', '09'],
  ];
  for (const [i, o] of table) assert.is(normalizeEscapes(i), o, i);
});

test.run();
