/**
 * @module crawler/url/plain
 * A way past the WHATWG URL parser for the URLs a crawl meets most: http(s)
 * URLs already written as the parser and the basic normalizer write them — a
 * lower-case host name whose last label starts with a letter, or a dotted
 * IPv4 address; no user, no default port; a path of characters the parser
 * keeps as they are, without dot segments, `//` or escapes; a query of such
 * characters; no fragment. Parsing and normalizing such a URL changes
 * nothing, so its host can be read off the string. Anything else goes
 * through the parser: the check only ever says "plain" for a URL the parser
 * would give back unchanged (test/crawler/url/plain.test.ts compares the two).
 */
import { isIPv4 } from 'node:net';

/** Characters the WHATWG parser keeps as they are in a path, a query and a fragment (with `/`, `:` and `?` where each may stand). */
export const KEPT_CHARS = 'A-Za-z0-9\\-._~!$&()*+,;=@';
const PLAIN = new RegExp(`^(https?)://((?:[a-z0-9-]+\\.)*[a-z0-9-]+)(?::([1-9][0-9]{0,4}))?(/[${KEPT_CHARS}:/]*(?:\\?[${KEPT_CHARS}:/?]*)?)$`);
/** A label of punycode, which the parser would check. */
const PUNYCODE = /(?:^|\.)xn--/;
/** `//`, or a `.` or `..` segment (the query is not told apart: a false alarm only costs the full parse). */
const UNCLEAN_PATH = /\/\/|\/\.\.?(?:[/?]|$)/;
const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };

/** The host (with its port, if any) of a plain URL, or null when the URL is not plain and must go through the parser. */
export function plainHost(url: string): string | null {
  const m = PLAIN.exec(url);
  if (!m) return null;
  const [, scheme, name, port, path] = m as unknown as [string, string, string, string | undefined, string];
  // A last label that starts with a digit makes the parser read the name as an IPv4 address, which only a canonical one survives.
  const last = name.charCodeAt(name.lastIndexOf('.') + 1);
  if (last >= 97 && last <= 122 ? PUNYCODE.test(name) : !isIPv4(name)) return null;
  if (port !== undefined && (port === DEFAULT_PORT[scheme] || Number(port) > 65535)) return null;
  if (UNCLEAN_PATH.test(path)) return null;
  return port === undefined ? name : `${name}:${port}`;
}

/** The host name of a plain URL's host: without the port. */
export function hostName(plain: string): string {
  const colon = plain.indexOf(':');
  return colon < 0 ? plain : plain.slice(0, colon);
}
