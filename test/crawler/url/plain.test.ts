import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HostURLFilter } from '../../../crawler/url/host-filter.js';
import { host } from '../../../crawler/url/keys.js';
import { normalizeParsed, normalizeUrl } from '../../../crawler/url/normalize.js';
import { hostName, plainHost } from '../../../crawler/url/plain.js';
import { rng } from '../../fixtures/rng.js';

/** What a plain URL must be: given back unchanged by the parser and the normalizer, with the host the parser reads. */
function checkPlain(url: string): void {
  const h = plainHost(url);
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // not a URL: must not be plain
  }
  if (h === null) return;
  assert.ok(parsed, `${url} is called plain but does not parse`);
  assert.is(parsed!.href, url, `the parser changes ${url}`);
  assert.is(normalizeParsed(url), url, `the normalizer changes ${url}`);
  assert.is(h, parsed!.host, `host of ${url}`);
  assert.is(hostName(h), parsed!.hostname, `host name of ${url}`);
}

test('plain URLs: the common forms are plain, the rest go to the parser', () => {
  const plain = ['http://127.0.4.1:8950/lang.html', 'https://docs.example.com/a/b-c_d.html?x=1&y=2', 'http://a.b/', 'http://x-y.example/p;q=1/@:~!$*+,', 'http://1.2.3.com/'];
  for (const u of plain) {
    assert.ok(plainHost(u) !== null, u);
    checkPlain(u);
  }
  const notPlain = [
    'http://Example.com/', 'http://example.com', 'http://example.com./', 'http://example.com:80/', 'https://example.com:443/', 'http://example.com:08/',
    'http://example.com:99999/', 'http://127.1/', 'http://0x7f.0.0.1/', 'http://127.000.0.1/', 'http://1.2.3.4.5/', 'http://256.1.1.1/', 'http://xn--bcher-kva.example/',
    'http://a.xn--zz/', 'http://user@example.com/', 'http://[::1]/', 'http://example.com/a//b', 'http://example.com/./a', 'http://example.com/a/..', 'http://example.com/a/../b',
    'http://example.com/%41', 'http://example.com/a b', 'http://example.com/#f', 'http://example.com/a#', "http://example.com/?q='x'", 'http://example.com/a\\b',
    'ftp://example.com/', 'HTTP://example.com/', 'http://example.com/é', 'http://a..b/', 'http://a.1/', ' http://example.com/',
  ];
  for (const u of notPlain) assert.is(plainHost(u), null, u);
});

test('plain URLs: never one the parser or the normalizer would change (random URLs)', () => {
  const rnd = rng(20);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const hosts = ['a.com', 'x-1.example', '127.0.4.1', '10.0.0.255', '1.2.3.4', 'b', '-a.com', 'a-.com', 'xn--bcher-kva.ch', 'c.xn--p1ai', '0.0.0.0', '1e2.com', 'a.0x1', '01.2.3.4', 'a.b1', '1.com', '255.255.255.255', '300.1.1.1'];
  const ports = ['', '', ':8000', ':80', ':443', ':65535', ':65536', ':1', ':0'];
  const chars = ['a', 'Z', '0', '-', '.', '_', '~', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', ':', '@', '/', '/', '?', '%', '%2e', '%41', '#', '^', '|', '`', '{', '"', ' ', '\\', 'é', '[', ']', '..', '//'];
  let plainSeen = 0;
  for (let n = 0; n < 20000; n++) {
    let path = '/';
    for (let k = Math.floor(rnd() * 12); k > 0; k--) path += pick(chars);
    const url = `${pick(['http', 'https'])}://${pick(hosts)}${pick(ports)}${path}`;
    checkPlain(url);
    if (plainHost(url) !== null) plainSeen++;
  }
  assert.ok(plainSeen > 1000, `only ${plainSeen} plain URLs tried`);
});

test('normalizeUrl, host() and the host filter answer as through the parser', () => {
  const urls = ['http://127.0.4.1:8950/a.html', 'http://Example.COM:80/a/../b', 'http://example.com/x?y=1', 'https://h.example:8443/p', 'http://127.0.4.2:8950/'];
  const filter = new HostURLFilter(['127.0.4.1:8950', 'example.com', 'h.example']);
  for (const u of urls) {
    assert.is(normalizeUrl(u), normalizeParsed(u), u);
    assert.is(host(u), new URL(u).hostname.toLowerCase(), u);
    const p = new URL(u);
    assert.is(filter.filter(u), ['127.0.4.1:8950', 'example.com', 'h.example'].some((h) => h === p.host || h === p.hostname) ? u : null, u);
  }
});

test.run();
