/** Table tests of the fetcher's pure rules: status mapping, redirect decisions, charset choice, robots answers. */
import iconv from 'iconv-lite';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeText, detectCharset } from '../../../crawler/encoding.js';
import { decideRedirect, type RedirectInput } from '../../../crawler/fetch/redirect.js';
import { chooseAgent, isFresh, robotsStateFor, rulesFor, ROBOTS_MAX_AGE_MS } from '../../../crawler/fetch/robots.js';
import { httpOutcome } from '../../../crawler/fetch/status.js';
import { compose, conditionalHeaders, type FetchCall } from '../../../crawler/fetch/step.js';
import { filterChain } from '../../../crawler/plugin/chains.js';

test('HTTP status → fetch status (reference §4.8)', () => {
  const table: [number, string, string][] = [
    [200, 'fetch_success', 'success'],
    [203, 'fetch_success', 'success'],
    [204, 'fetch_success', 'success'],
    [300, 'fetch_redir_perm', 'moved'],
    [301, 'fetch_redir_perm', 'moved'],
    [308, 'fetch_redir_perm', 'moved'],
    [302, 'fetch_redir_temp', 'temp_moved'],
    [303, 'fetch_redir_temp', 'temp_moved'],
    [307, 'fetch_redir_temp', 'temp_moved'],
    [304, 'fetch_notmodified', 'notmodified'],
    [400, 'fetch_gone', 'gone'],
    [401, 'fetch_gone', 'access_denied'],
    [404, 'fetch_gone', 'notfound'],
    [410, 'fetch_gone', 'gone'],
    [403, 'fetch_retry', 'exception'],
    [429, 'fetch_retry', 'exception'],
    [500, 'fetch_retry', 'exception'],
    [503, 'fetch_retry', 'exception'],
  ];
  for (const [code, status, proto] of table) assert.equal(httpOutcome(code), { status, protocolStatus: proto }, String(code));
});

const base: RedirectInput = {
  from: 'http://a/x',
  location: '/y',
  hop: 0,
  chain: ['http://a/x'],
  maxRedirects: 3,
  ignoreExternal: false,
  normalize: (u) => u,
  filters: filterChain([{ filter: (u) => (u.includes('blocked') ? null : u) }]),
};

test('redirect decisions', () => {
  const table: [Partial<RedirectInput>, ReturnType<typeof decideRedirect>['kind'], string?][] = [
    [{}, 'follow', 'http://a/y'],
    [{ maxRedirects: 0 }, 'record', 'http://a/y'],
    [{ hop: 3, chain: ['http://a/0', 'http://a/1', 'http://a/2', 'http://a/x'] }, 'record', 'http://a/y'],
    [{ location: null }, 'drop'],
    [{ location: 'http://[bad' }, 'drop'],
    [{ location: '/blocked' }, 'drop'],
    [{ normalize: () => null }, 'drop'],
    [{ location: 'http://b/y', ignoreExternal: true }, 'drop'],
    [{ location: 'http://b/y', ignoreExternal: false }, 'follow', 'http://b/y'],
    [{ location: '/x' }, 'loop', 'http://a/x'],
    [{ location: '/w', chain: ['http://a/w', 'http://a/x'], hop: 1 }, 'loop', 'http://a/w'],
    [{ location: '/x', maxRedirects: 0 }, 'loop', 'http://a/x'],
    [{ location: 'file:///etc/passwd' }, 'drop'], // even when the filters let file: through
    [{ location: 'FILE:///etc/passwd' }, 'drop'],
    [{ from: 'file:///srv/a.html', chain: ['file:///srv/a.html'], location: 'file:///srv/b.html' }, 'follow', 'file:///srv/b.html'],
  ];
  for (const [patch, kind, url] of table) {
    const d = decideRedirect({ ...base, ...patch });
    assert.is(d.kind, kind, JSON.stringify(patch));
    if (url) assert.is((d as { url: string }).url, url);
  }
  assert.match((decideRedirect({ ...base, location: 'file:///etc/passwd' }) as { reason: string }).reason, /is a local file: a web page never leads the crawler there/);
  const f = decideRedirect({ ...base, hop: 1, chain: ['http://a/w', 'http://a/x'] });
  assert.equal(f, { kind: 'follow', url: 'http://a/y', hop: 2 });
});

test('charset: BOM, header, meta prescan, strict UTF-8, windows-1252', () => {
  const cp = iconv.encode('café', 'windows-1252');
  const sj = iconv.encode('<meta charset="shift_jis">日本語', 'shift_jis');
  const table: [Buffer, string | null, string, string][] = [
    [Buffer.from('\ufeffhello'), 'text/html; charset=iso-8859-1', 'utf-8', 'bom'],
    [cp, 'text/html; charset=windows-1252', 'windows-1252', 'header'],
    [cp, 'text/html; charset="ISO-8859-1"', 'windows-1252', 'header'], // WHATWG: latin1 is windows-1252
    [sj, 'text/html', 'shift_jis', 'meta'],
    [Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=euc-jp">'), null, 'euc-jp', 'meta'],
    [Buffer.from('<meta charset="utf-16">abc'), null, 'utf-8', 'meta'],
    [Buffer.from('naïve'), 'text/html', 'utf-8', 'utf8'],
    [cp, 'text/html', 'windows-1252', 'default'],
    [cp, 'text/html; charset=bogus', 'windows-1252', 'default'],
    [Buffer.from('x'), 'text/html; charset=iso-8859-16', 'iso-8859-16', 'header'], // only iconv-lite knows it
  ];
  for (const [bytes, ct, charset, source] of table) assert.equal(detectCharset(bytes, ct), { charset, source }, `${ct} ${charset}`);
  assert.is(decodeText(cp, 'windows-1252'), 'café');
  assert.ok(decodeText(sj, 'shift_jis').endsWith('日本語'));
  assert.is(decodeText(iconv.encode('Ș', 'iso-8859-16'), 'iso-8859-16'), 'Ș');
});

test('robots.txt answer → state (RFC 9309 §2.3.1)', () => {
  const table: [Parameters<typeof robotsStateFor>[0], string][] = [
    [{ status: 200, body: 'User-agent: *' }, 'parsed'],
    [{ status: 401, body: '' }, 'allow_all'],
    [{ status: 403, body: '' }, 'allow_all'],
    [{ status: 404, body: '' }, 'allow_all'],
    [{ status: 410, body: '' }, 'allow_all'],
    [{ status: 429, body: '' }, 'disallow_all'],
    [{ status: 500, body: '' }, 'disallow_all'],
    [{ status: 503, body: '' }, 'disallow_all'],
    [{ error: 'timeout' }, 'disallow_all'],
    [{ unavailable: 'more than 5 redirects' }, 'allow_all'],
  ];
  for (const [answer, status] of table) assert.is(robotsStateFor(answer, 1000).status, status, JSON.stringify(answer));
  assert.is(robotsStateFor({ status: 503, body: '' }, 0, 2).failures, 3);
  const parsed = robotsStateFor({ status: 200, body: '' }, 0);
  assert.ok(isFresh(parsed, ROBOTS_MAX_AGE_MS - 1));
  assert.not.ok(isFresh(parsed, ROBOTS_MAX_AGE_MS));
  assert.not.ok(isFresh(robotsStateFor({ status: 500, body: '' }, 0), 1), 'an unreachable answer is asked again');
});

test('robots rules: product token precedence, longest match, Crawl-delay', () => {
  const txt = 'User-agent: OtherBot\nDisallow: /\n\nUser-agent: hztest\nDisallow: /a\nAllow: /a/ok\nCrawl-delay: 2\n\nUser-agent: *\nDisallow: /private\n';
  assert.is(chooseAgent(txt, ['HzTest', 'OtherBot']), 'HzTest');
  assert.is(chooseAgent(txt, ['Nobody', 'OtherBot']), 'OtherBot');
  assert.is(chooseAgent(txt, ['Nobody']), 'Nobody');
  const r = rulesFor('http://h', robotsStateFor({ status: 200, body: txt }, 0), ['HzTest']);
  assert.is(r.allowed('http://h/a/x'), false);
  assert.is(r.allowed('http://h/a/ok/1'), true);
  assert.is(r.allowed('http://h/private'), true, 'its own group, not *');
  assert.is(r.allowed('http://other/b'), false, 'rules never apply to another origin');
  assert.is(r.crawlDelayMs, 2000);
  const star = rulesFor('http://h', robotsStateFor({ status: 200, body: txt }, 0), ['Nobody']);
  assert.is(star.allowed('http://h/private'), false);
  assert.is(star.crawlDelayMs, undefined);
});

test('compose runs steps outermost first and checks them', async () => {
  const seen: string[] = [];
  const inner: FetchCall = async (item) => {
    seen.push('inner');
    return { record: { url: item.url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: {} } };
  };
  const step = (name: string) => (next: FetchCall): FetchCall => async (item) => {
    seen.push(name);
    return next(item);
  };
  await compose(inner, step('a'), step('b'))({ url: 'http://h/', datum: {}, hop: 0, chain: [] });
  assert.equal(seen, ['a', 'b', 'inner']);
  assert.throws(() => compose(inner, (() => undefined) as never), /did not return a function/);
});

test('conditional headers from the WebDB datum', () => {
  assert.equal(conditionalHeaders({}), {});
  assert.equal(conditionalHeaders({ etag: '"x"', last_modified: 'Wed, 01 Jan 2020 00:00:00 GMT' }), {
    ifNoneMatch: '"x"',
    ifModifiedSince: 'Wed, 01 Jan 2020 00:00:00 GMT',
  });
  assert.equal(conditionalHeaders({ modified_time: Date.UTC(2021, 0, 1) }), { ifModifiedSince: 'Fri, 01 Jan 2021 00:00:00 GMT' });
});

test.run();
