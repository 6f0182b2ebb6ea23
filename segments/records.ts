/**
 * @module segments/records
 * What a segment holds, as its readers and writers see it: the records of
 * Nutch's crawl_generate, crawl_fetch, content, parse_text and parse_data,
 * and what a summary reads of a page. segments/rows.ts maps them to the
 * segment file's rows.
 */
import type { Outlink, ParseMeta } from '../shared/plugin/extension-points.js';
import type { FetchStatus, ProtocolStatus } from '../shared/page-status.js';
import type { Checkpoints } from './checkpoints.js';
import type { SummaryMeta } from './offsets.js';
import type { PageText } from './summary-text.js';

/**
 * A line break of preformatted text (code) in a parse text: U+2028 LINE
 * SEPARATOR, whitespace to every reader of the text, where any other line
 * break is a space, so a summary can show code's lines.
 */
export const LINE_BREAK = '\u2028';

export interface FetchlistEntry {
  url: string;
  host: string;
  score: number;
  /** The WebDB row at generate time (status, interval, etag, …), as plain JSON. */
  datum: Record<string, unknown>;
}

export interface FetchRecord {
  url: string;
  status: FetchStatus;
  protocolStatus: ProtocolStatus;
  httpStatus: number | null;
  fetchTime: number;
  headers: Record<string, string>;
  redirectTo?: string | null;
  contentType?: string | null;
  message?: string | null;
  meta?: Record<string, unknown>;
}

export interface ContentRecord {
  url: string;
  contentType: string | null;
  charset: string | null;
  bytes: Buffer;
  truncated: boolean;
}

export interface ParseRecord {
  url: string;
  status: 'success' | 'failed' | 'notparsed';
  message?: string | null;
  title: string;
  text: string;
  lang?: string | null;
  signature?: string | null;
  outlinks: Outlink[];
  meta: ParseMeta;
}

/** A parse record without its outlinks: what the indexer reads. */
export type ParseText = Omit<ParseRecord, 'outlinks'>;

/** A parse record without its text, title and language. */
export type ParseLinks = Pick<ParseRecord, 'status' | 'signature' | 'outlinks' | 'meta'>;

/** A fetch record with what updatedb reads beside it (Segment.fetchUpdates). */
export interface FetchUpdate {
  fetch: FetchRecord;
  /** A successful fetch's parse links. */
  parse: ParseLinks | undefined;
  gen: (FetchlistEntry & { pos: number }) | undefined;
}

/** Where the words of a page's parse text stand, stored for summaries at index time (the text is the segment's). */
export interface SummaryText {
  url: string;
  /** Of the whole parse text. */
  length: number;
  /** Where summaries resume analyzing the text (segments/checkpoints.ts encodeCheckpoints). */
  checkpoints: Uint8Array;
  /** What summaries read of the parse meta (segments/offsets.ts summaryMeta). */
  meta: ParseMeta;
}

/** The parts of a parse record a summary needs (Segment.getSummarySource). */
export interface SummarySource {
  /** The start of the parse text summaries read (segments/offsets.ts summaryPart); when older hazelnut stored it for summaries, decoded a span at a time. */
  text: PageText;
  /** Of the whole parse text. */
  length: number;
  meta: SummaryMeta;
  /** segments/offsets.ts's encoding, when older hazelnut stored it for summaries. */
  offsets?: Uint8Array;
  /** Where summaries resume analyzing the text (segments/checkpoints.ts), when stored for summaries, with the whole parse text they analyze. */
  checkpoints?: Checkpoints & { readonly text: string };
}
