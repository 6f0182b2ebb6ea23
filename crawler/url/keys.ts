/**
 * @module crawler/url/keys
 * The keys a URL is grouped by: its host (politeness queues, per-host counts,
 * the `site` field that search results are grouped and `site:` filtered on),
 * its registered domain (generate.count.mode=domain), and Nutch's reversed-URL
 * key, which sorts the pages of one site together. The public-suffix list
 * comes from tldts, used only here.
 */
import { getDomain } from 'tldts';
import { hostName, plainHost } from './plain.js';

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Lower-case host name without port (`[::1]` for IPv6); '' when the URL has none or does not parse. */
export function host(url: string): string {
  const plain = plainHost(url);
  if (plain !== null) return hostName(plain);
  return parse(url)?.hostname.toLowerCase() ?? '';
}

/**
 * Registered domain of a host or URL (`a.b.example.co.uk` → `example.co.uk`).
 * Private suffixes count (`foo.github.io` stays itself), and a name with no
 * public suffix — an IP address, `localhost`, an intranet `wiki` — is its own
 * domain.
 */
export function domainOfHost(h: string): string {
  if (!h) return '';
  return getDomain(h, { allowPrivateDomains: true }) ?? h;
}

export function domain(url: string): string {
  return domainOfHost(host(url));
}

/** The site a page belongs to: its host, as in Nutch's `site` field. */
export function site(url: string): string {
  return host(url);
}

/** `www.example.com` → `com.example.www`; IP addresses stay as they are. */
export function reverseHost(h: string): string {
  if (h.startsWith('[') || /^\d+(\.\d+){3}$/.test(h)) return h;
  return h.split('.').reverse().join('.');
}

/**
 * Nutch's reversed URL key (TableUtil.reverseUrl):
 * `http://www.example.com:8080/a?b` → `com.example.www:http:8080/a?b`.
 * The port appears only when the URL has a non-default one. Null when the
 * URL does not parse or has no host.
 */
export function reverseUrl(url: string): string | null {
  const u = parse(url);
  if (!u || !u.hostname) return null;
  const scheme = u.protocol.slice(0, -1);
  return `${reverseHost(u.hostname.toLowerCase())}:${scheme}${u.port ? ':' + u.port : ''}${u.pathname}${u.search}`;
}
