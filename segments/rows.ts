/**
 * @module segments/rows
 * Records to the segment file's rows and back: JSON for the structured
 * columns, bodies and parse text compressed (segments/packing.ts).
 */
import type { ContentRecord, FetchlistEntry, FetchRecord, ParseLinks, ParseRecord, ParseText } from './records.js';
import type { FetchStatus, ProtocolStatus } from '../shared/page-status.js';
import { packText, unpackBody, unpackText, type StoredBody } from './packing.js';


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
  /** The host's dictionary the body was deflated against (CONTENT), else null. */
  dict: Buffer | null;
}
export interface ParseRow {
  url: string;
  status: ParseRecord['status'];
  message: string | null;
  title: string;
  /** Compressed (segments/packing.ts), maybe against the page's body; a string or deflated UTF-8 in segments written before. */
  text: string | Buffer | null;
  lang: string | null;
  signature: string | null;
  /** JSON, compressed when long (segments/packing.ts); always as it is in segments written before. */
  outlinks: string | Buffer;
  /** JSON ParseMeta, compressed when long as the outlinks are; always as it is in segments written before format 6. */
  meta: string | Buffer;
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
/** datum: JSON, compressed when long as the outlinks are; always as it is in segments written before format 6. */
export type FetchlistRow = { url: string; pos: number; host: string; score: number; datum: string | Buffer };
export function parseLinksFromRow(r: ParseLinksRow): ParseLinks {
  return { status: r.status, signature: r.signature, outlinks: JSON.parse(unpackText(r.outlinks)), meta: parseMetaOf(r.meta) };
}

/** A parse row's meta: compressed JSON (segment format 6), or JSON as it is. */
export const parseMetaOf = (meta: string | Buffer): ParseRecord['meta'] => JSON.parse(unpackText(meta));

export function fetchlistFromRow(r: FetchlistRow): FetchlistEntry & { pos: number } {
  return { url: r.url, pos: r.pos, host: r.host, score: r.score, datum: datumOf(r.datum) };
}

/** A fetchlist row's datum, the WebDB row at generate time. */
export const datumOf = (datum: string | Buffer): FetchlistEntry['datum'] => JSON.parse(unpackText(datum));

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
  return { url: r.url, contentType: r.content_type, charset: r.charset, truncated: r.truncated === 1, bytes: unpackBody(r.data, r.dict, r.url) };
}

/**
 * The dictionary a stored body `data` was deflated against: the row its zlib
 * header names (bytes 2–5: SQL counts from 1); null for other bodies, and
 * harmless when the first bytes of a brotli stream happen to match one.
 */
const dictOf = (data: string) => `(SELECT d.data FROM dictionary d WHERE d.id = substr(${data}, 3, 4))`;

/** The content row's columns (as `c`) and its body's dictionary. */
export const CONTENT = `SELECT c.*, ${dictOf('c.data')} AS dict FROM content c`;

/**
 * The parse statement's parameters, the text compressed (segments/packing.ts:
 * against `body`, the page's body as the segment stores it beside the parse,
 * when given; where the parse runs in the writer thread, so does this).
 */
export function parseParams(rec: ParseRecord, body?: Uint8Array) {
  return {
    url: rec.url,
    status: rec.status,
    message: rec.message ?? null,
    title: rec.title,
    text: packText(rec.text, body),
    lang: rec.lang ?? null,
    signature: rec.signature ?? null,
    outlinks: packText(JSON.stringify(rec.outlinks)),
    meta: packText(JSON.stringify(rec.meta)),
  };
}

/** The columns of a parse row with its page's stored body and the body's dictionary, which a text deflated against the body needs (PARSE_WITH_BODY). */
export type ParseRowWithBody = ParseRow & StoredBody;

/** The stored body (and its dictionary) of the parse row `p`'s page, from the same file. */
export const BODY = `(SELECT c.data FROM content c WHERE c.url = p.url) AS body, (SELECT ${dictOf('c.data')} FROM content c WHERE c.url = p.url) AS dict`;
/**
 * A page's parse text and its body (with the body's dictionary), which a text deflated against it needs, from
 * the same file, the URL bound as @url: `byFetch` for a file whose parse rows are keyed by the fetch row
 * (format 8: one lookup of the URL, and a parse stored by URL has no content in its file), `view` for one before.
 */
export const TEXT_WITH_BODY = {
  byFetch: `SELECT p.text, c.data AS body, ${dictOf('c.data')} AS dict FROM fetch f JOIN parse_rows p ON p.id = f.rowid
            LEFT JOIN content_rows c ON c.id = f.rowid WHERE f.url = @url UNION ALL SELECT text, NULL, NULL FROM parse_urls WHERE url = @url`,
  view: `SELECT p.text, ${BODY} FROM parse p WHERE p.url = @url`,
};
/** The parse row's columns and its page's body from the same file. */
export const PARSE_WITH_BODY = `SELECT p.*, ${BODY} FROM parse p`;
const PARSE_TEXT_COLUMNS = 'p.status, p.message, p.title, p.text, p.lang, p.signature, p.meta, c.data AS body, c.size AS content_size, substr(c.data, 3, 4) AS dict_id';
/**
 * The same without the outlinks, which the indexer neither reads nor inflates, the content row joined once
 * (not once a column): its body, its size and the id of the host dictionary the body names (its zlib
 * header's bytes 2–5; dictOf), which the reader looks up itself (segments/parse-records.ts), once for many pages;
 * the URL bound as @url. `byFetch` for a file whose parse and content rows are keyed by the fetch row (format 8:
 * one lookup of the URL, and a parse stored by URL has no content in its file), `keyed` for one whose content
 * rows only are (format 7: SQLite would copy the whole content view to join it on the right of a LEFT JOIN),
 * `byUrl` for one written before.
 */
export const PARSE_TEXT_WITH_BODY = {
  byFetch: `SELECT f.url, ${PARSE_TEXT_COLUMNS} FROM fetch f JOIN parse_rows p ON p.id = f.rowid LEFT JOIN content_rows c ON c.id = f.rowid WHERE f.url = @url
            UNION ALL SELECT url, status, message, title, text, lang, signature, meta, NULL, NULL, NULL FROM parse_urls WHERE url = @url`,
  keyed: `SELECT p.url, ${PARSE_TEXT_COLUMNS} FROM parse p LEFT JOIN fetch f ON f.url = p.url LEFT JOIN content_rows c ON c.id = f.rowid WHERE p.url = @url`,
  byUrl: `SELECT p.url, ${PARSE_TEXT_COLUMNS} FROM parse p LEFT JOIN content c ON c.url = p.url WHERE p.url = @url`,
};

export function parseFromRow(r: ParseRowWithBody): ParseRecord {
  return { ...parseTextFromRow(r), outlinks: JSON.parse(unpackText(r.outlinks)) };
}

export type ParseTextRow = Omit<ParseRowWithBody, 'outlinks'>;
/** A row of PARSE_TEXT_WITH_BODY, before its dictionary is looked up by `dict_id`. */
export type ParseTextJoinRow = Omit<ParseTextRow, 'dict'> & { content_size: number | null; dict_id: Buffer | null };
export function parseTextFromRow(r: ParseTextRow): ParseText {
  return { url: r.url, status: r.status, message: r.message, title: r.title, text: unpackText(r.text, r, r.url), lang: r.lang, signature: r.signature, meta: parseMetaOf(r.meta) };
}
