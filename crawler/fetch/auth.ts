/**
 * @module crawler/fetch/auth
 * Pages behind a login (Nutch's `http.auth.file`, httpclient-auth.xml):
 * per-host credentials in an XML file — HTTP Basic (sent with each request
 * to that host), Digest (answered when the host challenges), a fixed Cookie
 * header, or a form login whose session cookies are kept and refreshed, and
 * the login repeated once when the session has expired. Credentials go only
 * to the host (and port) they are configured for: each redirect hop is a
 * request of its own, so a redirect to another host never carries them.
 * Neither they nor the session cookies are logged or stored with the page.
 *
 * ```xml
 * <auth-configuration>
 *   <credentials host="wiki.example.com" scheme="basic" username="crawler" password="…"/>
 *   <credentials host="docs.example.com:8080" scheme="digest" username="crawler" password="…"/>
 *   <credentials host="jira.example.com" scheme="cookie" cookie="JSESSIONID=…"/>
 *   <credentials host="intranet.example.com" scheme="form" loginUrl="http://intranet.example.com/login">
 *     <field name="user" value="crawler"/>
 *     <field name="password" value="…"/>
 *   </credentials>
 * </auth-configuration>
 * ```
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import { parseConfXml } from '../../shared/xml.js';
import type { HttpClient, HttpRequest, HttpResponse } from './http.js';

export type Credential =
  | { scheme: 'basic'; host: string; where: string; username: string; password: string }
  | { scheme: 'digest'; host: string; where: string; username: string; password: string }
  | { scheme: 'cookie'; host: string; where: string; cookie: string }
  | { scheme: 'form'; host: string; where: string; loginUrl: string; fields: [string, string][] };

export type Getter = Pick<HttpClient, 'get'>;

const SCHEMES = ['basic', 'digest', 'cookie', 'form'];

/** Reads an auth file; every problem names the file and line (never a value). */
export function parseAuthFile(src: string, file: string): Credential[] {
  const root = parseConfXml(src, file, 'auth-configuration');
  const out: Credential[] = [];
  const seen = new Map<string, string>();
  for (const el of root.children) {
    const where = `${file}:${el.line}`;
    const bad = (why: string) => new HzError('HZ_ERR_CONF_XML', `${where}: ${why}`);
    if (el.name !== 'credentials') throw bad(`unexpected <${el.name}> (expected <credentials>)`);
    const a = el.attrs;
    const host = (a.host ?? '').trim().toLowerCase();
    if (!/^[a-z0-9.-]+(:\d+)?$|^\[[0-9a-f:.]+\](:\d+)?$/.test(host)) throw bad('host="…" must be a host name, optionally with :port');
    if (seen.has(host)) throw bad(`host ${host} already has credentials at ${seen.get(host)}`);
    seen.set(host, where);
    const scheme = (a.scheme ?? '').toLowerCase();
    if (!SCHEMES.includes(scheme)) throw bad(`scheme="…" must be one of ${SCHEMES.join(', ')}`);
    if (scheme === 'basic' || scheme === 'digest') {
      if (!a.username || a.password === undefined) throw bad(`${scheme} credentials need username="…" and password="…"`);
      out.push({ scheme, host, where, username: a.username, password: a.password });
    } else if (scheme === 'cookie') {
      if (!a.cookie) throw bad('cookie credentials need cookie="name=value; …"');
      out.push({ scheme, host, where, cookie: a.cookie });
    } else {
      let login: URL;
      try {
        login = new URL(a.loginUrl ?? '');
      } catch {
        throw bad('form credentials need loginUrl="http://…" (an absolute URL)');
      }
      if (!matchesHost(host, login)) throw bad(`loginUrl must be on ${host}: credentials never go to another host`);
      const fields = el.children.map((f): [string, string] => {
        if (f.name !== 'field' || !f.attrs.name || f.attrs.value === undefined) throw new HzError('HZ_ERR_CONF_XML', `${file}:${f.line}: expected <field name="…" value="…"/>`);
        return [f.attrs.name, f.attrs.value];
      });
      out.push({ scheme: 'form', host, where, loginUrl: login.href, fields });
    }
  }
  return out;
}

/** `host` alone matches any port of that host name; `host:port` that port only. */
function matchesHost(host: string, u: URL): boolean {
  return host === u.host.toLowerCase() || (!/:\d+$/.test(host) && host === u.hostname.toLowerCase());
}

/** The parameters of a `WWW-Authenticate: Digest …` challenge, or undefined. */
export function digestChallenge(header: string | undefined): Record<string, string> | undefined {
  const m = /(?:^|,\s*)Digest\s+(.*)$/i.exec(header ?? '');
  if (!m) return undefined;
  const params: Record<string, string> = {};
  for (const p of m[1]!.matchAll(/([a-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/gi)) params[p[1]!.toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : p[3]!;
  return params.nonce && params.realm !== undefined ? params : undefined;
}

/** RFC 7616 response for a GET of `uri` (MD5 or SHA-256, qop auth or none). */
export function digestAuthorization(ch: Record<string, string>, user: string, password: string, uri: string, nc: number, cnonce: string): string {
  const alg = (ch.algorithm ?? 'MD5').toUpperCase();
  const hashName = alg.startsWith('SHA-256') ? 'sha256' : 'md5';
  const h = (s: string) => crypto.createHash(hashName).update(s).digest('hex');
  let ha1 = h(`${user}:${ch.realm}:${password}`);
  if (alg.endsWith('-SESS')) ha1 = h(`${ha1}:${ch.nonce}:${cnonce}`);
  const ha2 = h(`GET:${uri}`);
  const qop = ch.qop?.split(',').map((q) => q.trim()).includes('auth') ? 'auth' : undefined;
  const ncHex = nc.toString(16).padStart(8, '0');
  const response = qop ? h(`${ha1}:${ch.nonce}:${ncHex}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${ch.nonce}:${ha2}`);
  const q = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;
  const parts = [`username=${q(user)}`, `realm=${q(ch.realm!)}`, `nonce=${q(ch.nonce!)}`, `uri=${q(uri)}`, `algorithm=${alg}`, `response=${q(response)}`];
  if (qop) parts.push(`qop=${qop}`, `nc=${ncHex}`, `cnonce=${q(cnonce)}`);
  if (ch.opaque !== undefined) parts.push(`opaque=${q(ch.opaque)}`);
  return `Digest ${parts.join(', ')}`;
}

/** name=value pairs of a Set-Cookie header as the HTTP client joins repeated ones (", "). */
export function setCookiePairs(header: string | undefined): [string, string][] {
  if (!header) return [];
  // A comma starts a new cookie only when a name= follows (Expires dates have commas too).
  return header
    .split(/,\s*(?=[^;,=\s]+=)/)
    .map((c) => c.split(';', 1)[0]!.trim())
    .filter((c) => c.includes('='))
    .map((c) => [c.slice(0, c.indexOf('=')).trim(), c.slice(c.indexOf('=') + 1).trim()]);
}

/** An HTTP client that adds each host's credentials to its requests. */
export class Authenticator implements Getter {
  private readonly digest = new Map<Credential, { challenge: Record<string, string>; nc: number }>();
  private readonly jars = new Map<Credential, Map<string, string>>();
  private readonly logins = new Map<Credential, Promise<void>>();

  constructor(
    private readonly http: Getter,
    private readonly credentials: Credential[],
  ) {}

  private credentialFor(url: string): Credential | undefined {
    const u = new URL(url);
    return this.credentials.find((c) => matchesHost(c.host, u));
  }

  async get(req: HttpRequest): Promise<HttpResponse> {
    const cred = this.credentialFor(req.url);
    if (!cred) return this.http.get(req);
    if (cred.scheme === 'basic') return this.send(req, cred, { authorization: `Basic ${Buffer.from(`${cred.username}:${cred.password}`).toString('base64')}` });
    if (cred.scheme === 'cookie') return this.send(req, cred, { cookie: cred.cookie });
    if (cred.scheme === 'digest') return this.getDigest(req, cred);
    return this.getForm(req, cred);
  }

  /** One request with the credential's headers; session cookies it sets are kept, not stored with the page. */
  private async send(req: HttpRequest, cred: Credential, headers: Record<string, string>): Promise<HttpResponse> {
    const res = await this.http.get({ ...req, headers: { ...req.headers, ...headers } });
    const pairs = setCookiePairs(res.headers['set-cookie']);
    if (pairs.length && cred.scheme === 'form') {
      const jar = this.jars.get(cred) ?? new Map<string, string>();
      for (const [k, v] of pairs) jar.set(k, v);
      this.jars.set(cred, jar);
    }
    delete res.headers['set-cookie'];
    return res;
  }

  private async getDigest(req: HttpRequest, cred: Extract<Credential, { scheme: 'digest' }>): Promise<HttpResponse> {
    const authorize = (): Record<string, string> => {
      const s = this.digest.get(cred);
      if (!s) return {};
      const u = new URL(req.url);
      return { authorization: digestAuthorization(s.challenge, cred.username, cred.password, u.pathname + u.search, ++s.nc, crypto.randomBytes(8).toString('hex')) };
    };
    const res = await this.send(req, cred, authorize());
    const challenge = res.status === 401 ? digestChallenge(res.headers['www-authenticate']) : undefined;
    if (!challenge) return res;
    this.digest.set(cred, { challenge, nc: 0 });
    return this.send(req, cred, authorize());
  }

  private cookieHeader(cred: Credential): Record<string, string> {
    const jar = this.jars.get(cred);
    return jar?.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  private login(cred: Extract<Credential, { scheme: 'form' }>, again: boolean): Promise<void> {
    let p = this.logins.get(cred);
    if (!p || again) {
      p = (async () => {
        // A failed login shows in the pages: they answer with the login page's redirect or 401/403.
        await this.send({ url: cred.loginUrl, post: new URLSearchParams(cred.fields).toString(), limit: 256 * 1024 }, cred, this.cookieHeader(cred));
      })();
      this.logins.set(cred, p);
    }
    return p;
  }

  private async getForm(req: HttpRequest, cred: Extract<Credential, { scheme: 'form' }>): Promise<HttpResponse> {
    await this.login(cred, false);
    const res = await this.send(req, cred, this.cookieHeader(cred));
    if (!this.sentToLogin(res, req.url, cred)) return res;
    // The session expired: log in once more and try again.
    await this.login(cred, true);
    return this.send(req, cred, this.cookieHeader(cred));
  }

  private sentToLogin(res: HttpResponse, url: string, cred: Extract<Credential, { scheme: 'form' }>): boolean {
    if (res.status === 401 || res.status === 403) return true;
    // A Location that is no URL leads nowhere, the login page included; the redirect step records it.
    if (res.status < 300 || res.status >= 400 || !res.headers.location || !URL.canParse(res.headers.location, url)) return false;
    const to = new URL(res.headers.location, url);
    const login = new URL(cred.loginUrl);
    return to.origin === login.origin && to.pathname === login.pathname;
  }
}

/** The credentials of `http.auth.file`, or none when it is empty. */
export function loadCredentials(conf: Conf): Credential[] {
  const name = conf.get('http.auth.file');
  if (!name) return [];
  const file = conf.resolveFile(name, { optional: true });
  if (!file) throw new HzError('HZ_ERR_CONF_FILE', `http.auth.file names ${name}, which does not exist (looked in ${conf.confDir})`);
  return parseAuthFile(fs.readFileSync(file, 'utf8'), file);
}

/** `http` with the configured credentials added per host, or `http` itself when there are none. */
export function withCredentials(conf: Conf, http: Getter): Getter {
  const creds = loadCredentials(conf);
  return creds.length ? new Authenticator(http, creds) : http;
}
