/**
 * @module crawler/encoding
 * Which character encoding a fetched text page is in, in the order browsers
 * and the HTML spec use: the Content-Type charset, a byte-order mark, a
 * `<meta>` prescan of the first 1024 bytes, then a strict UTF-8 check, then
 * windows-1252 (the web's default for unlabeled pages). The name found is
 * stored with the content so the parser (and the searcher's cached copy)
 * decode exactly as the fetcher decided, through shared/charset.
 */
import { canonicalCharset, DEFAULT_CHARSET, decodeText } from '../shared/charset.js';

export { DEFAULT_CHARSET, decodeText } from '../shared/charset.js';

/** The WHATWG prescan looks at no more than this many bytes. */
export const PRESCAN_BYTES = 1024;

/** The charset parameter of a Content-Type header value. */
export function headerCharset(contentType: string | null | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? '');
  return m ? m[2] : undefined;
}

export function bomCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** `<meta charset=…>` or `<meta http-equiv="Content-Type" content="…; charset=…">` in the first 1024 bytes. */
export function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PRESCAN_BYTES)).toString('latin1');
  for (const m of head.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = m[0];
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag);
    if (direct && (!/\bcontent\s*=/i.test(tag) || /http-equiv\s*=\s*["']?content-type/i.test(tag))) return direct[1];
  }
  return undefined;
}

export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Content types whose bytes are text and so have a charset. */
export function isTextType(contentType: string | null | undefined): boolean {
  const t = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return t === '' || t.startsWith('text/') || /[+/](xml|html|json|javascript)$/.test(t);
}

export interface CharsetChoice {
  charset: string;
  source: 'header' | 'bom' | 'meta' | 'utf8' | 'default';
}

/** Decides the charset of a text page. A BOM wins over the header, as in the WHATWG decode algorithm. */
export function detectCharset(bytes: Uint8Array, contentType: string | null | undefined, fallback = DEFAULT_CHARSET): CharsetChoice {
  const bom = bomCharset(bytes);
  if (bom) return { charset: bom, source: 'bom' };
  const fromHeader = canonicalCharset(headerCharset(contentType));
  if (fromHeader) return { charset: fromHeader, source: 'header' };
  const fromMeta = canonicalCharset(metaCharset(bytes));
  // A page cannot really be UTF-16 if its meta tag was readable as ASCII.
  if (fromMeta) return { charset: fromMeta.startsWith('utf-16') ? 'utf-8' : fromMeta, source: 'meta' };
  if (isUtf8(bytes)) return { charset: 'utf-8', source: 'utf8' };
  return { charset: canonicalCharset(fallback) ?? DEFAULT_CHARSET, source: 'default' };
}

/** A page's text: in the charset the fetcher stored with it, else in the one detected now. */
export function decodePage(page: { bytes: Uint8Array; contentType: string | null; charset?: string | null }, fallback = DEFAULT_CHARSET): string {
  return decodeText(page.bytes, page.charset ?? detectCharset(page.bytes, page.contentType, fallback).charset);
}
