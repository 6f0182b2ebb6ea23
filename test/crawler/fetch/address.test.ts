/** Which addresses the fetcher connects to: a table of addresses, the policy property, and a redirect to the metadata service. */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressKind, addressPolicy, blockedReason, isLoopbackHost, withLoopback } from '../../../crawler/fetch/address.js';
import { fetch } from '../../../crawler/fetch/tool.js';
import { Segment } from '../../../segments/segment.js';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { makeSegment, tempCrawl, testConf } from './helpers.js';

test('address kinds: a table', () => {
  const table: [string, string | undefined][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.3.4', 'loopback'],
    ['0.0.0.0', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['FD00:EC2:0:0:0:0:0:254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', undefined],
    ['10.0.0.1', undefined],
    ['192.168.1.1', undefined],
    ['172.16.0.1', undefined],
    ['fd12::1', undefined],
    ['8.8.8.8', undefined],
    ['2001:db8::1', undefined],
    ['not an address', undefined],
  ];
  for (const [ip, kind] of table) assert.is(addressKind(ip), kind, ip);
});

test('the policy: nothing special by default, each kind allowed by name, loopback with a loopback seed', () => {
  const none = addressPolicy([]);
  const loopbackSeed = addressPolicy(withLoopback(testConf(), true).getList('http.allow.addresses'));
  assert.match(blockedReason('169.254.169.254', none)!, /cloud metadata address; not connecting \(allow it with http\.allow\.addresses=metadata\)/);
  assert.is(blockedReason('10.1.2.3', none), null);
  assert.ok(blockedReason('127.0.0.1', none));
  assert.is(blockedReason('127.0.0.1', loopbackSeed), null);
  assert.ok(blockedReason('169.254.169.254', loopbackSeed), 'a loopback seed allows loopback only');
  assert.is(blockedReason('fe80::1', addressPolicy(['link-local'])), null);
  assert.throws(() => addressPolicy(['intranet']), /http\.allow\.addresses: unknown kind "intranet"/);
  for (const [h, yes] of [['localhost', true], ['a.localhost', true], ['127.0.4.1', true], ['[::1]', true], ['example.com', false], ['10.0.0.1', false]] as const)
    assert.is(isLoopbackHost(h), yes, h);
});

let web: TestWeb;
test('a redirect to the metadata service (IPv4 and IPv6) or to link-local is recorded as refused; no connection is made', async () => {
  web = await startTestWeb({
    block: '127.0.3',
    hosts: {
      a: {
        pages: {
          '/meta': { status: 302, location: 'http://169.254.169.254/latest/meta-data/' },
          '/meta6': { status: 302, location: 'http://[fd00:ec2::254]/latest/meta-data/' },
          '/ll': { status: 301, location: 'http://[fe80::1]/' },
          '/ok': 'fine',
        },
      },
    },
  });
  const crawl = tempCrawl();
  try {
    const seg = makeSegment(crawl, ['/meta', '/meta6', '/ll', '/ok'].map((p) => web.url('a', p)));
    const s = await fetch(testConf({ 'http.redirect.max': '2' }), seg);
    assert.ok(s.complete);
    const r = Segment.open(seg);
    try {
      for (const [url, why] of [
        ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a cloud metadata address; not connecting/],
        ['http://[fd00:ec2::254]/latest/meta-data/', /fd00:ec2::254 is a cloud metadata address/],
        ['http://[fe80::1]/', /fe80::1 is a link-local address/],
      ] as const) {
        const rec = r.getFetch(url);
        assert.ok(rec, `a record for ${url}`);
        assert.is(rec!.httpStatus, null);
        assert.match(rec!.message ?? '', why, url);
      }
      assert.is(r.getFetch(web.url('a', '/ok'))!.status, 'fetch_success', 'the loopback seed host is fetched');
    } finally {
      r.close();
    }
  } finally {
    await web.stop();
    fs.rmSync(crawl, { recursive: true, force: true });
  }
});

test.run();
