/**
 * @module crawler/url/normalize
 * The basic URL normalizer (Nutch's urlnormalizer-basic), rebuilt on the
 * WHATWG URL parser so that two spellings of one address become one key in
 * the WebDB. Compared with Nutch's BasicURLNormalizer it:
 *
 * - lowercases scheme and host for every scheme (Nutch did http and ftp only,
 *   not https), turns IDN hosts into punycode and drops a trailing dot
 *   (`Example.COM.` → `example.com`);
 * - removes default ports, resolves `.` and `..` segments (also `%2e`),
 *   collapses duplicate slashes in the path, makes an empty path `/`;
 * - normalises percent-encoding: hex digits upper case, unreserved characters
 *   (A–Z a–z 0–9 - . _ ~) decoded, characters that may not appear raw
 *   (spaces, non-ASCII, a `%` not starting an escape) encoded;
 * - drops the fragment, and leaves the query's order alone (reordering would
 *   change what some servers answer).
 *
 * It returns null, which drops the URL, for input that is not an absolute URL
 * and for schemes that never name a fetchable document (`javascript:`,
 * `data:`, `about:`, `blob:`, `vbscript:`). Other schemes (mailto:, ftp:,
 * file:) are normalized and kept: whether to crawl them is the URL filters'
 * decision, which the user can change.
 */
import type { NormalizerScope, PluginDescriptor, URLNormalizer } from '../../shared/plugin/extension-points.js';
import { plainHost } from './plain.js';

const NOT_DOCUMENTS = new Set(['javascript:', 'data:', 'about:', 'blob:', 'vbscript:']);
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Upper-cases escapes, decodes unreserved characters, escapes a stray `%`. */
export function normalizeEscapes(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})?/g, (_m, hex: string | undefined) => {
    if (hex === undefined) return '%25';
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/** Normalizes one URL; null when it is unparsable or cannot name a document. A plain URL (see `plain`) is already normal. */
export function normalizeUrl(raw: string): string | null {
  return plainHost(raw) !== null ? raw : normalizeParsed(raw);
}

/** `normalizeUrl` through the WHATWG parser, for any URL. */
export function normalizeParsed(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (NOT_DOCUMENTS.has(url.protocol)) return null;
  url.hash = '';
  if (url.host) {
    const host = url.hostname.toLowerCase().replace(/\.$/, '');
    if (!host) return null;
    if (host !== url.hostname) url.hostname = host;
  }
  // An opaque path (mailto:x@y) has no segments to clean.
  const hierarchical = url.pathname.startsWith('/') || url.host !== '';
  if (hierarchical) {
    const path = normalizeEscapes(url.pathname.replace(/\/{2,}/g, '/')) || '/';
    if (path !== url.pathname) url.pathname = path;
  }
  if (url.search) {
    const search = normalizeEscapes(url.search);
    if (search !== url.search) url.search = search;
  }
  let href = url.href;
  // WHATWG keeps `#` when the fragment is set to empty on some schemes.
  if (href.endsWith('#')) href = href.slice(0, -1);
  return href;
}

export class BasicURLNormalizer implements URLNormalizer {
  normalize(url: string, _scope: NormalizerScope): string | null {
    return normalizeUrl(url);
  }
}

export const urlnormalizerBasic: PluginDescriptor<'url-normalizer'> = {
  id: 'urlnormalizer-basic',
  point: 'url-normalizer',
  description: 'WHATWG parsing; lower-case scheme and host, punycode, default ports, dot segments, slashes, escapes, no fragment',
  create: () => new BasicURLNormalizer(),
};
