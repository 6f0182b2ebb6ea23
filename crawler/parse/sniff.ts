/**
 * @module crawler/parse/sniff
 * Which parser a page goes to: the Content-Type the server sent, unless it is
 * missing, generic (`application/octet-stream`) or plainly wrong — a PNG
 * labelled text/html must not become a page of mojibake in the index. The
 * first bytes decide then, as Nutch's `mime.type.magic` did: well-known
 * binary signatures, NUL bytes, HTML tags at the start, else plain text. A
 * declared text type is plainly wrong only for a known binary signature:
 * control bytes alone do not overrule it, as they do not in a browser.
 */

/** Bytes looked at: the WHATWG sniffing algorithm reads no more than this. */
const SNIFF_BYTES = 1024;

const MAGIC: [number[], string][] = [
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 'application/pdf'],
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
  [[0x1f, 0x8b], 'application/gzip'],
  [[0x52, 0x49, 0x46, 0x46], 'application/octet-stream'],
  [[0x4f, 0x67, 0x67, 0x53], 'application/ogg'],
  [[0x7f, 0x45, 0x4c, 0x46], 'application/octet-stream'],
];

const HTML_START =
  /^\s*(<!doctype\s+html|<html|<head|<body|<title|<script|<iframe|<h1|<div|<font|<table|<a\s|<style|<br|<p[\s>]|<!--)/i;

/** The media type without parameters, lower case; null when absent. */
export function mediaType(contentType: string | null | undefined): string | null {
  const t = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return t === '' ? null : t;
}

function magicType(head: Buffer): string | undefined {
  for (const [sig, type] of MAGIC) if (sig.every((b, i) => head[i] === b)) return type;
  return undefined;
}

function hasBom(head: Buffer): boolean {
  return (head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xef && head[1] === 0xbb);
}

/**
 * True when the start of the content looks like binary data rather than text
 * in some charset. A known binary signature always says so. Otherwise, with a
 * declared text type (`declaredText`) the declaration wins, as in a browser:
 * a page sent as `text/html; charset=utf-8` with runs of NUL bytes is shown,
 * and its links followed, all the same. Without one, one NUL byte or many
 * control bytes are enough.
 */
export function looksBinary(bytes: Buffer, declaredText = false): boolean {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (magicType(head)) return true;
  if (declaredText || hasBom(head)) return false;
  let control = 0;
  // Indexed: a Buffer's iterator costs several times the test, on every page parsed.
  for (let i = 0; i < head.length; i++) {
    const b = head[i]!;
    if (b === 0) return true;
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) control++;
  }
  return head.length > 0 && control / head.length > 0.1;
}

/**
 * The media type to parse the content as. A textual declared type is kept
 * unless the bytes begin with a known binary signature; a missing or generic
 * one is replaced by what the bytes say.
 */
export function sniffContentType(declared: string | null | undefined, bytes: Buffer): string {
  const type = mediaType(declared);
  const head = bytes.subarray(0, SNIFF_BYTES);
  const generic = type === null || type === 'application/octet-stream' || type === 'unknown/unknown' || type === 'application/unknown';
  const textual = type !== null && (type.startsWith('text/') || /[+/](xml|html|json)$/.test(type));
  if (!generic && !textual) return type!;
  if (looksBinary(bytes, !generic)) return magicType(head) ?? 'application/octet-stream';
  if (!generic) return type!;
  const start = head.toString('latin1');
  if (HTML_START.test(start)) return 'text/html';
  if (/^\s*<\?xml/i.test(start)) return /<html[\s>]/i.test(start) ? 'application/xhtml+xml' : 'application/xml';
  return 'text/plain';
}
