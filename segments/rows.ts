/**
 * @module segments/rows
 * Records to the segment file's rows and back: JSON for the structured
 * columns, bodies and parse text compressed (segments/packing.ts).
 */
import type { ContentRecord, FetchlistEntry, FetchRecord, ParseLinks, ParseRecord, ParseText } from './records.js';
import type { FetchStatus, ProtocolStatus } from '../shared/page-status.js';
import { packText, unpackBody, unpackText } from './packing.js';


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
  /** Compressed (segments/packing.ts); a string or deflated UTF-8 in segments written before. */
  text: string | Buffer | null;
  lang: string | null;
  signature: string | null;
  /** JSON, compressed when long (segments/packing.ts); always as it is in segments written before. */
  outlinks: string | Buffer;
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
  return { status: r.status, signature: r.signature, outlinks: JSON.parse(unpackText(r.outlinks)), meta: JSON.parse(r.meta) };
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
 * The parse statement's parameters, the text compressed (segments/packing.ts:
 * brotli at quality 1 costs a quarter of the CPU deflate did, when deflating
 * took an eighth of the fetch phase's; where the parse runs in the writer
 * thread, so does this).
 */
export function parseParams(rec: ParseRecord) {
  return {
    url: rec.url,
    status: rec.status,
    message: rec.message ?? null,
    title: rec.title,
    text: packText(rec.text),
    lang: rec.lang ?? null,
    signature: rec.signature ?? null,
    outlinks: packText(JSON.stringify(rec.outlinks)),
    meta: JSON.stringify(rec.meta),
  };
}

export function parseFromRow(r: ParseRow): ParseRecord {
  return { ...parseTextFromRow(r), outlinks: JSON.parse(unpackText(r.outlinks)) };
}

export type ParseTextRow = Omit<ParseRow, 'outlinks'>;
export function parseTextFromRow(r: ParseTextRow): ParseText {
  return { url: r.url, status: r.status, message: r.message, title: r.title, text: unpackText(r.text), lang: r.lang, signature: r.signature, meta: JSON.parse(r.meta) };
}
