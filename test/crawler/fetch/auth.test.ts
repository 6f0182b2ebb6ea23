/**
 * Pages behind a login: the auth file's rules, Digest by the RFC's own
 * example, and whole crawls against loopback hosts that demand Basic,
 * Digest and a form login — with credentials never sent to another host
 * (not even across a redirect) and never written to the crawl's log.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { digestAuthorization, digestChallenge, parseAuthFile, setCookiePairs } from '../../../crawler/fetch/auth.js';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { hz, tempConf } from '../checkers/run-cli.js';

test('the auth file: each problem names its line, never a value', () => {
  const good = parseAuthFile(
    `<auth-configuration>
  <credentials host="Wiki.Example.com" scheme="basic" username="crawler" password="pw1"/>
  <credentials host="docs.example.com:8080" scheme="digest" username="crawler" password="pw2"/>
  <credentials host="jira.example.com" scheme="cookie" cookie="JSESSIONID=x1"/>
  <credentials host="intranet.example.com" scheme="form" loginUrl="http://intranet.example.com/login">
    <field name="user" value="crawler"/><field name="pass" value="pw3"/>
  </credentials>
</auth-configuration>`,
    'auth.xml',
  );
  assert.equal(good.map((c) => [c.host, c.scheme, c.where]), [
    ['wiki.example.com', 'basic', 'auth.xml:2'],
    ['docs.example.com:8080', 'digest', 'auth.xml:3'],
    ['jira.example.com', 'cookie', 'auth.xml:4'],
    ['intranet.example.com', 'form', 'auth.xml:5'],
  ]);
  const cases: [string, RegExp][] = [
    ['<auth>', /auth.xml:1: .*<auth-configuration>|auth.xml:1:/],
    ['<auth-configuration><credentials scheme="basic" username="u" password="secret1"/></auth-configuration>', /auth.xml:1: host="…" must be/],
    ['<auth-configuration>\n<credentials host="a.test" scheme="ntlm" username="u" password="secret1"/></auth-configuration>', /auth.xml:2: scheme="…" must be one of/],
    ['<auth-configuration><credentials host="a.test" scheme="basic" username="u"/></auth-configuration>', /need username="…" and password="…"/],
    ['<auth-configuration><credentials host="a.test" scheme="form" loginUrl="http://b.test/login"/></auth-configuration>', /loginUrl must be on a.test/],
    ['<auth-configuration>\n<credentials host="a.test" scheme="cookie" cookie="secret1"/>\n<credentials host="a.test" scheme="cookie" cookie="secret1"/></auth-configuration>', /auth.xml:3: host a.test already has credentials at auth.xml:2/],
  ];
  for (const [src, want] of cases) {
    let msg = '';
    try {
      parseAuthFile(src, 'auth.xml');
    } catch (e) {
      msg = (e as Error).message;
    }
    assert.match(msg, want, src);
    assert.not.match(msg, /secret1/, 'a value never appears in a message');
  }
});

test('Digest: the RFC 2617 example; challenges and Set-Cookie headers as the client joins them', () => {
  const ch = digestChallenge('Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"')!;
  const h = digestAuthorization(ch, 'Mufasa', 'Circle Of Life', '/dir/index.html', 1, '0a4f113b');
  assert.match(h, /response="6629fae49393a05397450978507c4ef1"/);
  assert.match(h, /nc=00000001/);
  assert.match(h, /opaque="5ccc069c403ebaf9f0171e9517f40e41"/);
  assert.is(digestChallenge('Basic realm="x"'), undefined);
  assert.equal(setCookiePairs('sid=abc; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly, theme=dark; Path=/'), [
    ['sid', 'abc'],
    ['theme', 'dark'],
  ]);
});

interface Req {
  path: string;
  headers: http.IncomingHttpHeaders;
}
interface Site {
  origin: string;
  requests: Req[];
  close(): Promise<void>;
}

async function site(address: string, handle: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void): Promise<Site> {
  const requests: Req[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers });
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      handle(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, address, r));
  return {
    origin: `http://${address}:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const html = (title: string, links: string[] = []) => `<html><head><title>${title}</title></head><body><p>${title}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
const ok = (res: http.ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);

const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');
const SECRET = 'Tr0ub4dor-and-3';
let other: Site;
let basic: Site;
let digest: Site;
let form: Site;
let cookie: Site;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-auth-'));
const conf = tempConf();

test.before(async () => {
  other = await site('127.0.11.4', (_req, res) => ok(res, html('Elsewhere')));
  basic = await site('127.0.11.1', (req, res) => {
    if (req.headers.authorization !== `Basic ${Buffer.from(`crawler:${SECRET}`).toString('base64')}`)
      return void res.writeHead(401, { 'www-authenticate': 'Basic realm="wiki"' }).end('login first');
    if (req.url === '/go-elsewhere') return void res.writeHead(302, { location: `${other.origin}/landing` }).end();
    ok(res, html(req.url === '/' ? 'Basic home' : 'Basic secret page', req.url === '/' ? ['/page.html', '/go-elsewhere'] : []));
  });
  const nonce = crypto.randomBytes(8).toString('hex');
  digest = await site('127.0.11.2', (req, res) => {
    const a = digestChallenge((req.headers.authorization ?? '').replace(/^Digest/, 'Digest')) ?? {};
    const ha1 = md5(`crawler:docs:${SECRET}`);
    const want = md5(`${ha1}:${nonce}:${a.nc}:${a.cnonce}:auth:${md5(`GET:${a.uri}`)}`);
    if (a.response !== want || a.uri !== req.url || a.nonce !== nonce)
      return void res.writeHead(401, { 'www-authenticate': `Digest realm="docs", qop="auth", nonce="${nonce}"` }).end();
    ok(res, html(req.url === '/' ? 'Digest home' : 'Digest manual', req.url === '/' ? ['/manual.html'] : []));
  });
  cookie = await site('127.0.11.5', (req, res) => {
    if (req.headers.cookie !== `session=${SECRET}`) return void res.writeHead(403).end('no session');
    ok(res, html(req.url === '/' ? 'Cookie home' : 'Cookie page', req.url === '/' ? ['/c1.html'] : []));
  });
  // A session ends after three pages: the crawler must log in again.
  const sessions = new Map<string, number>();
  form = await site('127.0.11.3', (req, res, body) => {
    if (req.url === '/login' && req.method === 'POST') {
      const f = new URLSearchParams(body);
      if (f.get('user') !== 'crawler' || f.get('pass') !== SECRET) return void res.writeHead(403).end('bad login');
      const sid = crypto.randomBytes(6).toString('hex');
      sessions.set(sid, 3);
      return void res.writeHead(302, { location: '/', 'set-cookie': [`sid=${sid}; Path=/; HttpOnly`, 'theme=plain; Path=/'] }).end();
    }
    const sid = /sid=(\w+)/.exec(req.headers.cookie ?? '')?.[1];
    const left = sid ? sessions.get(sid) : undefined;
    if (!sid || !left) return void res.writeHead(302, { location: '/login' }).end();
    sessions.set(sid, left - 1);
    if (req.url === '/moved.html') return void res.writeHead(302, { location: 'http://[not-an-address/' }).end();
    const pages: Record<string, string[]> = { '/': ['/p1.html', '/p2.html', '/p3.html', '/p4.html', '/moved.html'] };
    ok(res, html(req.url === '/' ? 'Members home' : `Members page ${req.url}`, pages[req.url ?? ''] ?? []));
  });
});

test.after(async () => {
  await Promise.all([other, basic, digest, form, cookie].map((s) => s?.close()));
  conf.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('a crawl with Basic, Digest, cookie and form-login credentials; none leaves its host or reaches the log', async () => {
  const authFile = path.join(tmp, 'auth.xml');
  fs.writeFileSync(
    authFile,
    `<auth-configuration>
  <credentials host="${new URL(basic.origin).host}" scheme="basic" username="crawler" password="${SECRET}"/>
  <credentials host="127.0.11.2" scheme="digest" username="crawler" password="${SECRET}"/>
  <credentials host="127.0.11.5" scheme="cookie" cookie="session=${SECRET}"/>
  <credentials host="127.0.11.3" scheme="form" loginUrl="${form.origin}/login">
    <field name="user" value="crawler"/>
    <field name="pass" value="${SECRET}"/>
  </credentials>
</auth-configuration>`,
  );
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${basic.origin}/\n${digest.origin}/\n${form.origin}/\n${cookie.origin}/\n`);
  const dir = path.join(tmp, 'crawl');
  const r = await hz(
    ['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', '-D', `http.auth.file=${authFile}`, '-D', 'crawl.seed.hosts.only=false', '-D', 'crawl.sitemaps=false', 'crawl', seeds, '-dir', dir, '-depth', '3'],
    { confDir: conf.dir },
  );
  assert.is(r.code, 0, r.err);

  const db = openWebDb(path.join(dir, 'webdb'), { readonly: true });
  const status = (u: string) => db.page(u)?.status;
  try {
    assert.is(status(`${basic.origin}/page.html`), 'db_fetched');
    assert.is(status(`${digest.origin}/manual.html`), 'db_fetched');
    assert.is(status(`${cookie.origin}/c1.html`), 'db_fetched');
    for (const p of ['/p1.html', '/p2.html', '/p3.html', '/p4.html']) assert.is(status(`${form.origin}${p}`), 'db_fetched', p);
    assert.is(status(`${form.origin}/moved.html`), 'db_redir_temp', 'a redirect to no URL, from a host with a login, ends as a redirect without a target');
    assert.is(status(`${other.origin}/landing`), 'db_fetched', 'the redirect to another host was followed');
  } finally {
    db.close();
  }
  const logins = form.requests.filter((q) => q.path === '/login');
  assert.ok(logins.length >= 2, `the expired session was renewed (${logins.length} logins)`);
  assert.equal(
    other.requests.filter((q) => q.headers.authorization || q.headers.cookie),
    [],
    'nothing of the credentials reached the other host, even through the redirect',
  );
  const everything = [r.out, r.err, ...fs.readdirSync(path.join(dir, 'logs')).map((f) => fs.readFileSync(path.join(dir, 'logs', f), 'utf8'))].join('\n');
  assert.not.match(everything, SECRET);
  assert.not.match(everything, Buffer.from(`crawler:${SECRET}`).toString('base64'));
  assert.not.match(everything, /sid=/);
});

test('without credentials the protected pages are not fetched', async () => {
  const seeds = path.join(tmp, 'seeds-none.txt');
  fs.writeFileSync(seeds, `${basic.origin}/\n`);
  const dir = path.join(tmp, 'crawl-none');
  const r = await hz(['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', '-D', 'crawl.sitemaps=false', 'crawl', seeds, '-dir', dir, '-depth', '2'], { confDir: conf.dir });
  assert.is(r.code, 0, r.err);
  const db = openWebDb(path.join(dir, 'webdb'), { readonly: true });
  try {
    assert.is.not(db.page(`${basic.origin}/`)?.status, 'db_fetched');
    assert.is(db.page(`${basic.origin}/page.html`), undefined);
  } finally {
    db.close();
  }
});

test.run();
