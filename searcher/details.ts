/**
 * @module searcher/details
 * The segment side of a hit (NutchBean.getSummary / getContent /
 * getParseText): found by the stored `segment` and `url`, read from the
 * segment store, never from the crawler's databases.
 */
import { DEFAULT_CHARSET, decodeText } from '../shared/charset.js';
import type { StoredDoc } from '../shared/index/types.js';
import type { ContentRecord, FetchRecord, PageSection } from '../segments/segment.js';
import { typedWords } from './highlight.js';
import type { SearchResult } from './search.js';
import type { Snapshot } from './snapshot.js';
import { MAX_SUMMARY_TOKENS, summarize, type Summary } from './summary.js';
import { summaryTokens } from './summary-tokens.js';

/** Only the start of a long text is looked at for its summary. */
const SUMMARY_TEXT_CHARS = 60_000;

export interface HitDetails {
  summary: Summary;
  /** The section the summary's best passage is in. */
  section?: Pick<PageSection, 'heading' | 'id'>;
}

/** What a search needs to summarize its hits: the query as typed and as analyzed. */
export type SummaryQuery = Pick<SearchResult, 'raw' | 'query'>;

/**
 * The hit's summary from its parse text (furniture left out) and the section
 * it comes from. Only the parts of the text where a query term can stand are
 * analyzed (searcher/summary-tokens); the whole start of the text when that
 * scan cannot tell, or when `wholeText` asks for it (the benchmark's baseline).
 */
export function hitDetails(snap: Snapshot, doc: StoredDoc, q: SummaryQuery, opts: { wholeText?: boolean } = {}): HitDetails {
  const parse = snap.segments.getParse(doc.segment, doc.url);
  if (!parse?.text) return { summary: [] };
  const cut = parse.text.length > SUMMARY_TEXT_CHARS;
  const text = cut ? parse.text.slice(0, SUMMARY_TEXT_CHARS) : parse.text;
  const sections = Array.isArray(parse.meta.sections) ? parse.meta.sections : [];
  const furniture = Array.isArray(parse.meta.furniture) ? parse.meta.furniture : [];
  const offsets = sections.map((s) => s.offset);
  const parts = opts.wholeText ? undefined : summaryTokens(snap.analyzer, text, q.query.terms, snap.settings.summary, furniture);
  const plan = { furniture, accept: typedWords(snap.analyzer, q.raw) };
  const placed = parts
    ? summarize(text, parts.tokens, new Set(q.query.terms), snap.settings.summary, {
        ...plan,
        sections: [...offsets, ...parts.cuts].sort((a, b) => a - b),
        more: parts.more || cut,
      })
    : // One token past the summarizer's reach tells it that more text follows.
      summarize(text, snap.analyzer.tokens(text, MAX_SUMMARY_TOKENS + 1), new Set(q.query.terms), snap.settings.summary, { ...plan, sections: offsets });
  const at = placed.offset;
  let section: PageSection | undefined;
  if (at !== undefined) for (const s of sections) if (s.offset <= at) section = s;
  return { summary: placed.parts, section: section && { heading: section.heading, id: section.id } };
}

export function hitSummary(snap: Snapshot, doc: StoredDoc, q: SummaryQuery): Summary {
  return hitDetails(snap, doc, q).summary;
}

/** The indexed document for a URL, or undefined. */
export function docByUrl(snap: Snapshot, url: string): StoredDoc | undefined {
  const id = snap.reader.idOf(url);
  return id === undefined || snap.reader.isDeleted(id) ? undefined : snap.reader.doc(id);
}

export function parseText(snap: Snapshot, doc: StoredDoc): string | undefined {
  return snap.segments.getParse(doc.segment, doc.url)?.text;
}

export interface Cached {
  content: ContentRecord;
  fetch?: FetchRecord;
}

export function cachedContent(snap: Snapshot, doc: StoredDoc): Cached | undefined {
  const content = snap.segments.getContent(doc.segment, doc.url);
  return content && { content, fetch: snap.segments.getFetch(doc.segment, doc.url) };
}

/** Decodes stored bytes with the charset found at fetch time; windows-1252 when unknown (as Nutch's cached.jsp). */
export function decodeContent(c: ContentRecord): string {
  return decodeText(c.bytes, c.charset ?? DEFAULT_CHARSET);
}
