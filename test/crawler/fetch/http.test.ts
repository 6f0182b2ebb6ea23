/** The transport against the test web: encodings, the decoded-size cap, truncation, timeouts, conditional GETs. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpClient, HttpFailure, MAX_DECODED_BYTES } from '../../../crawler/fetch/http.js';
import { gzipBomb, startTestWeb, type TestWeb } from '../../fixtures/testweb.js';

const LOOPBACK = new Set(['loopback'] as const);

let web: TestWeb;
let client: HttpClient;
const page = '<html><body>' + 'hello world '.repeat(500) + '</body></html>';

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.3',
    hosts: {
      a: {
        pages: {
          '/gz': { body: page, encoding: 'gzip' },
          '/br': { body: page, encoding: 'br' },
          '/deflate': { body: page, encoding: 'deflate' },
          '/bomb': gzipBomb(50 << 20),
          '/hugebomb': gzipBomb(MAX_DECODED_BYTES + (1 << 20)),
          '/big': { size: 300_000 },
          '/slowhead': { headerDelayMs: 2000, body: 'late' },
          '/drip': { body: 'x'.repeat(100), chunks: 3, chunkDelayMs: 1500 },
          '/badgz': { body: Buffer.from('not gzip at all'), encoding: 'gzip', preEncoded: true },
          '/cond': { body: 'v1', etag: '"e1"', lastModified: new Date('2020-01-01T00:00:00Z') },
        },
      },
    },
  });
  client = new HttpClient({ userAgent: 'HzTest/1.0', timeoutMs: 300, deadlineMs: 5000, contentLimit: 65536, connectionsPerOrigin: 2, allowAddresses: LOOPBACK });
});
test.after(async () => {
  await client.close();
  await web.stop();
});

for (const enc of ['gz', 'br', 'deflate']) {
  test(`decodes ${enc}`, async () => {
    const r = await client.get({ url: web.url('a', `/${enc}`) });
    assert.is(r.body.toString(), page);
    assert.is(r.truncated, false);
    assert.ok(r.wireBytes < page.length);
  });
}

test('a compression bomb stops at the content limit, flagged truncated', async () => {
  const r = await client.get({ url: web.url('a', '/bomb') });
  assert.is(r.body.length, 65536);
  assert.is(r.truncated, true);
  assert.ok(r.wireBytes < 1 << 20, `read ${r.wireBytes} wire bytes`);
});

test('with no content limit the bomb still stops at MAX_DECODED_BYTES', async () => {
  const c = new HttpClient({ userAgent: 'HzTest/1.0', timeoutMs: 2000, deadlineMs: 10000, contentLimit: -1, connectionsPerOrigin: 1, allowAddresses: LOOPBACK });
  try {
    const r = await c.get({ url: web.url('a', '/hugebomb') });
    assert.is(r.truncated, true);
    assert.is(r.body.length, MAX_DECODED_BYTES);
  } finally {
    await c.close();
  }
});

test('an oversized page keeps the first http.content.limit bytes', async () => {
  const r = await client.get({ url: web.url('a', '/big') });
  assert.is(r.body.length, 65536);
  assert.is(r.truncated, true);
  assert.ok(r.body.toString().startsWith('<html><body>'));
});

test('slow headers and a stalled body time out', async () => {
  for (const p of ['/slowhead', '/drip']) {
    const e = await client.get({ url: web.url('a', p) }).catch((x: unknown) => x);
    assert.instance(e, HttpFailure, p);
    assert.match((e as HttpFailure).message, /http\.timeout/);
  }
});

test('the total deadline ends a body that trickles within the idle timeout', async () => {
  const c = new HttpClient({ userAgent: 'HzTest/1.0', timeoutMs: 5000, deadlineMs: 1000, contentLimit: 65536, connectionsPerOrigin: 1, allowAddresses: LOOPBACK });
  try {
    const e = await c.get({ url: web.url('a', '/drip') }).catch((x: unknown) => x);
    assert.instance(e, HttpFailure);
    assert.match((e as HttpFailure).message, /http\.timeout\.total/);
  } finally {
    await c.close();
  }
});

test('a corrupt gzip body is a failure, not garbage content', async () => {
  const e = await client.get({ url: web.url('a', '/badgz') }).catch((x: unknown) => x);
  assert.instance(e, HttpFailure);
});

test('conditional requests send the validators and get 304', async () => {
  const r = await client.get({ url: web.url('a', '/cond'), ifNoneMatch: '"e1"' });
  assert.is(r.status, 304);
  const r2 = await client.get({ url: web.url('a', '/cond'), ifModifiedSince: new Date('2021-01-01').toUTCString() });
  assert.is(r2.status, 304);
  const last = web.requestsTo('a', '/cond').at(-1)!;
  assert.is(last.headers['user-agent'], 'HzTest/1.0');
  assert.ok(last.headers['if-modified-since']);
});

test('the address policy: loopback is refused unless allowed, on literals and on names that resolve there; a name that does not resolve fails', async () => {
  const opts = { userAgent: 'HzTest/1.0', timeoutMs: 1000, deadlineMs: 3000, contentLimit: 65536, connectionsPerOrigin: 1 };
  // A name mapped inside the test, as a hosts file would: no real DNS query is made.
  const resolve = async (h: string) => {
    if (h === 'sneaky.test') return [{ address: new URL(web.origin('a')).hostname, family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' });
  };
  const closed = new HttpClient({ ...opts, resolve });
  const open = new HttpClient({ ...opts, resolve, allowAddresses: LOOPBACK });
  try {
    const before = web.requests.length;
    for (const url of [web.url('a', '/big'), `http://sneaky.test:${new URL(web.origin('a')).port}/big`]) {
      const e = await closed.get({ url }).catch((x: unknown) => x);
      assert.instance(e, HttpFailure, url);
      assert.is((e as HttpFailure).code, 'BLOCKED_ADDRESS');
      assert.match((e as Error).message, /127\.0\.3\.\d+ is a loopback address; not connecting \(allow it with http\.allow\.addresses=loopback\)/);
    }
    assert.is(web.requests.length, before, 'no request reached the server');
    const gone = await open.get({ url: 'http://nowhere.test/' }).catch((x: unknown) => x);
    assert.instance(gone, HttpFailure, 'a host that does not resolve');
    assert.is((gone as HttpFailure).code, 'ENOTFOUND');
    assert.is((await open.get({ url: `http://sneaky.test:${new URL(web.origin('a')).port}/big` })).status, 200);
  } finally {
    await closed.close();
    await open.close();
  }
});

test('http.bind.address: connections come from the local address asked for', async () => {
  const http = await import('node:http');
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.socket.remoteAddress ?? '');
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.92.1', r));
  const url = `http://127.0.92.1:${(server.address() as import('node:net').AddressInfo).port}/`;
  const opts = { userAgent: 'HzTest/1.0', timeoutMs: 2000, deadlineMs: 5000, contentLimit: 65536, connectionsPerOrigin: 1, allowAddresses: LOOPBACK };
  const bound = new HttpClient({ ...opts, localAddress: '127.0.92.7' });
  const free = new HttpClient(opts);
  try {
    assert.is((await bound.get({ url })).status, 200);
    assert.is((await free.get({ url })).status, 200);
    assert.equal(seen, ['127.0.92.7', '127.0.0.1']);
  } finally {
    await bound.close();
    await free.close();
    server.close();
  }
});

test.run();
