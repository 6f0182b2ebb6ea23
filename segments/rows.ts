/**
 * @module segments/rows
 * Records to the segment file's rows and back: JSON for the structured
 * columns, bodies compressed.
 */
import zlib from 'node:zlib';
import type { ContentRecord, FetchlistEntry, FetchRecord, ParseLinks, ParseRecord } from './records.js';
import type { FetchStatus, ProtocolStatus } from '../shared/status.js';

const inflate = (b: Buffer) => zlib.inflateSync(b);
/** A stored body: brotli, whose first byte the writer thread keeps odd, or zlib (first byte even) in segments written before. */
const unpackBody = (b: Buffer) => (b[0]! & 1 ? zlib.brotliDecompressSync(b) : inflate(b));
export const parseText = (t: string | Buffer | null) => (typeof t === 'string' ? t : t ? inflate(t).toString('utf8') : '');

export interface FetchRow {
  url: string;
  status: FetchStatus;
  protocol_status: ProtocolStatus;
  http_status: number | null;
  fetch_time: number;
  headers: string;
  redirect_to: string | null;
  content_type: string | null;
  message: string | null;
  meta: string | null;
}
export interface ContentRow {
  url: string;
  content_type: string | null;
  charset: string | null;
  size: number;
  truncated: number;
  data: Buffer;
}
export interface ParseRow {
  url: string;
  status: ParseRecord['status'];
  message: string | null;
  title: string;
  /** A string, or deflated UTF-8 in a segment written before the text was stored as it is. */
  text: string | Buffer | null;
  lang: string | null;
  signature: string | null;
  outlinks: string;
  meta: string;
}

export function fetchToRow(rec: FetchRecord) {
  return {
    url: rec.url,
    status: rec.status,
    protocolStatus: rec.protocolStatus,
    httpStatus: rec.httpStatus,
    fetchTime: rec.fetchTime,
    headers: JSON.stringify(rec.headers),
    redirectTo: rec.redirectTo ?? null,
    contentType: rec.contentType ?? null,
    message: rec.message ?? null,
    meta: rec.meta ? JSON.stringify(rec.meta) : null,
  };
}

/** The content statement's parameters but the last, the compressed body. */
export function contentParams(c: ContentRecord): [string, string | null, string | null, number, number] {
  return [c.url, c.contentType, c.charset, c.bytes.length, c.truncated ? 1 : 0];
}

export type ParseLinksRow = Pick<ParseRow, 'status' | 'signature' | 'outlinks' | 'meta'>;
export type FetchlistRow = { url: string; pos: number; host: string; score: number; datum: string };
export function parseLinksFromRow(r: ParseLinksRow): ParseLinks {
  return { status: r.status, signature: r.signature, outlinks: JSON.parse(r.outlinks), meta: JSON.parse(r.meta) };
}

export function fetchlistFromRow(r: FetchlistRow): FetchlistEntry & { pos: number } {
  return { url: r.url, pos: r.pos, host: r.host, score: r.score, datum: JSON.parse(r.datum) };
}

export function fetchFromRow(r: FetchRow): FetchRecord {
  return {
    url: r.url,
    status: r.status,
    protocolStatus: r.protocol_status,
    httpStatus: r.http_status,
    fetchTime: r.fetch_time,
    headers: JSON.parse(r.headers),
    redirectTo: r.redirect_to,
    contentType: r.content_type,
    message: r.message,
    meta: r.meta ? JSON.parse(r.meta) : undefined,
  };
}

export function contentFromRow(r: ContentRow): ContentRecord {
  return { url: r.url, contentType: r.content_type, charset: r.charset, truncated: r.truncated === 1, bytes: unpackBody(r.data) };
}

/**
 * The parse statement's parameters. The text is stored as it is: deflating
 * it took an eighth of the fetch phase's CPU (and the index inflated it again)
 * to save about 8 KB a page on disk.
 */
export function parseParams(rec: ParseRecord) {
  return {
    url: rec.url,
    status: rec.status,
    message: rec.message ?? null,
    title: rec.title,
    text: rec.text,
    lang: rec.lang ?? null,
    signature: rec.signature ?? null,
    outlinks: JSON.stringify(rec.outlinks),
    meta: JSON.stringify(rec.meta),
  };
}

export function parseFromRow(r: ParseRow): ParseRecord {
  return {
    url: r.url,
    status: r.status,
    message: r.message,
    title: r.title,
    text: parseText(r.text),
    lang: r.lang,
    signature: r.signature,
    outlinks: JSON.parse(r.outlinks),
    meta: JSON.parse(r.meta),
  };
}
