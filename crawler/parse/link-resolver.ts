/**
 * @module crawler/parse/link-resolver
 * A page's links made absolute: only http(s) URLs a crawler can follow (a
 * local file's links to other files too), and, as a page has hundreds of
 * links against one base, the plain relative ones joined to it without the
 * URL parser, which gives the same URL.
 */
import { KEPT_CHARS } from '../url/plain.js';

/**
 * An absolute http(s) URL, or null for anything a crawler cannot follow. A
 * page that is itself a local file (protocol-file) may link other files; a
 * web page may not, so no site can point the crawler at the local disk.
 */
export function resolveHttp(href: string, base: string): string | null {
  try {
    const u = new URL(href, base);
    return u.protocol === 'http:' || u.protocol === 'https:' || (u.protocol === 'file:' && base.startsWith('file:')) ? u.href : null;
  } catch {
    return null;
  }
}

/** An href that resolves by joining strings: a path of characters the URL parser keeps as they are (no scheme, no `//` start), a query, a fragment. */
const PLAIN_HREF = new RegExp(`^(?!//)[${KEPT_CHARS}/]*(?:\\?[${KEPT_CHARS}:/?]*)?(?:#[${KEPT_CHARS}:/?]*)?$`);
/** A `.` or `..` segment, which the parser removes (a false alarm in a query only costs the parse). */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:[/?#]|$)/;

/**
 * `resolveHttp` against one base, as a page's links all are. The base is
 * parsed once, and a plain relative link (most of them) is joined to it
 * without the parser; anything else goes through `resolveHttp`.
 */
export function linkResolver(base: string): (href: string) => string | null {
  let b: URL | null = null;
  try {
    b = new URL(base);
  } catch {
    // resolveHttp says what such a base makes of each link
  }
  if (!b || (b.protocol !== 'http:' && b.protocol !== 'https:') || b.username !== '' || b.password !== '') return (href) => resolveHttp(href, base);
  const origin = `${b.protocol}//${b.host}`;
  const path = origin + b.pathname;
  const dir = origin + b.pathname.slice(0, b.pathname.lastIndexOf('/') + 1);
  const query = path + b.search;
  return (href) => {
    if (href === '' || !PLAIN_HREF.test(href) || DOT_SEGMENT.test(href)) return resolveHttp(href, base);
    const first = href.charCodeAt(0);
    return first === 47 /* / */ ? origin + href : first === 63 /* ? */ ? path + href : first === 35 /* # */ ? query + href : dir + href;
  };
}
