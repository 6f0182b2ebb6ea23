/**
 * @module searcher/details
 * The segment side of a hit (NutchBean.getSummary / getContent /
 * getParseText): found by the stored `segment` and `url`, read from the
 * segment store, never from the crawler's databases.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { DEFAULT_CHARSET, decodeText } from '../shared/charset.js';
import type { StoredDoc } from '../shared/index/types.js';
import type { ContentRecord, FetchRecord, PageSection, SummarySource } from '../segments/segment.js';
import { typedWords, type TypedWords } from './highlight.js';
import type { SearchResult } from './search.js';
import type { Snapshot } from './snapshot.js';
import { readOffsets, sectionOf, SUMMARY_TEXT_CHARS, type TokenOffsets } from '../segments/offsets.js';
import { WholeText } from '../segments/summary-text.js';
import { MAX_SUMMARY_TOKENS, summarize, summarizeRanges, type PlacedSummary, type Summary, type SummaryPlan } from './summary.js';
import { indexedHits, indexedTerms, markedHits, offsetWords, type IndexedTerms } from './summary-offsets.js';
import { summaryTokens } from './summary-tokens.js';
import { readHitParts, ScannedOffsets } from './summary-checkpoints.js';

export interface HitDetails {
  summary: Summary;
  /** The section the summary's best passage is in. */
  section?: Pick<PageSection, 'heading' | 'id'>;
}

/** What a search needs to summarize its hits: the query as typed and as analyzed. */
export type SummaryQuery = Pick<SearchResult, 'raw' | 'query'>;

/** The document a summary is for: its id in the snapshot's index and its stored fields. */
export type SummaryDoc = { id: number; doc: StoredDoc };

/**
 * What a search's summaries share, made once for all its hits: the test for
 * marked words and the analyzer's terms of words (both remember the words
 * they judged: a page of hits repeats its words), and the query terms'
 * numbers in the index.
 */
interface Shared {
  accept: TypedWords;
  words: Pick<Analyzer, 'terms'>;
  terms: IndexedTerms;
}
const shared = new WeakMap<SummaryQuery, Shared>();
function sharedFor(snap: Snapshot, q: SummaryQuery): Shared {
  let s = shared.get(q);
  if (!s) {
    const seen = new Map<string, string[]>();
    const terms = (word: string) => {
      let t = seen.get(word);
      if (!t) seen.set(word, (t = snap.analyzer.terms(word)));
      return t;
    };
    shared.set(q, (s = { accept: typedWords(snap.analyzer, q.raw), words: { terms }, terms: indexedTerms(snap.reader, q.query.terms) }));
  }
  return s;
}

/** How a summary finds its words (the benchmark compares them): stored offsets when the segment has them, else a scan, else the whole text. */
export type SummaryWords = 'stored' | 'scanned' | 'whole';

/**
 * The summary from the index's positions and the offsets stored at index
 * time, or read from the text from its stored checkpoints; undefined when
 * there are none to trust. Of the text, only the words
 * that decide which hits are marked and the windows shown are decoded.
 */
function storedSummary(snap: Snapshot, hit: SummaryDoc, src: SummarySource, q: SummaryQuery, furniture: readonly (readonly [number, number])[], sections: readonly number[]): PlacedSummary | undefined {
  const offsets: TokenOffsets | undefined = src.checkpoints ? new ScannedOffsets(snap.analyzer, src.checkpoints) : src.offsets && readOffsets(src.offsets);
  if (!offsets) return undefined;
  // Without classes (offsets read from the text, or a record of older hazelnut) every hit's word is judged: the text is decoded once.
  const text = offsets.classes ? src.text : new WholeText(src.text.whole());
  // The index keeps only the first indexer.max.tokens words of a page: past them it knows no hits.
  const limit = Math.min(offsets.count, snap.reader.fieldLength(hit.id, 'content'));
  const { words, accept, terms } = sharedFor(snap, q);
  const hits = indexedHits(snap.reader, hit.id, terms, limit);
  const opt = snap.settings.summary;
  if (offsets instanceof ScannedOffsets && !readHitParts(offsets, hits, Math.max(0, opt.context), limit)) return undefined;
  const marked = markedHits(words, text, offsets, hits, accept);
  if (!marked) return undefined;
  const stored = offsetWords(offsets, hits, opt, furniture, limit, marked);
  if (offsets instanceof ScannedOffsets && offsets.broken) return undefined;
  return summarizeRanges(text, stored.words, opt, { furniture, sections: mergeSorted(sections, stored.cuts), more: stored.more || src.length > SUMMARY_TEXT_CHARS, headings: headingsOf(src) });
}

/**
 * The hit's summary from its parse text (furniture left out) and the section
 * it comes from. No text is analyzed when the segment stored where its words
 * stand (searcher/summary-offsets), and only the text shown is read; else only
 * the parts of the text where a query term can stand (searcher/summary-tokens);
 * the whole start of the text when that scan cannot tell. `words` forces a way
 * (the benchmark's baselines).
 */
export function hitDetails(snap: Snapshot, hit: SummaryDoc, q: SummaryQuery, opts: { words?: SummaryWords } = {}): HitDetails {
  const { doc } = hit;
  return snap.segments.withSummarySource(doc.segment, doc.url, (src) => detailsOf(snap, hit, src, q, opts)) ?? { summary: [] };
}

function detailsOf(snap: Snapshot, hit: SummaryDoc, src: SummarySource, q: SummaryQuery, opts: { words?: SummaryWords }): HitDetails {
  if (!src.text.length) return { summary: [] };
  const cut = src.length > SUMMARY_TEXT_CHARS;
  const { furniture } = src.meta;
  // Sections come in text order; a parser that gave them otherwise is put right.
  let offsets = src.meta.sections;
  if (offsets.some((o, i) => i > 0 && o < offsets[i - 1]!)) offsets = [...offsets].sort((a, b) => a - b);
  const words = opts.words ?? 'stored';
  const plan = { furniture, accept: sharedFor(snap, q).accept, headings: headingsOf(src) };
  const opt = snap.settings.summary;
  const stored = words === 'stored' ? storedSummary(snap, hit, src, q, furniture, offsets) : undefined;
  const text = stored ? '' : src.text.whole();
  const scanned = stored || words === 'whole' ? undefined : summaryTokens(snap.analyzer, text, q.query.terms, opt, furniture);
  const placed =
    stored ??
    (scanned
      ? // Parts of the text are summarized with a cut wherever words were skipped.
        summarize(text, scanned.tokens, new Set(q.query.terms), opt, { ...plan, sections: mergeSorted(offsets, scanned.cuts), more: scanned.more || cut })
      : // One token past the summarizer's reach tells it that more text follows.
        summarize(text, snap.analyzer.tokens(text, MAX_SUMMARY_TOKENS + 1), new Set(q.query.terms), opt, { ...plan, sections: offsets }));
  const at = placed.offset;
  // The last section, in the parser's order, that starts by the best passage.
  let k = -1;
  if (at !== undefined) src.meta.sections.forEach((o, i) => o <= at && (k = i));
  return { summary: placed.parts, ...(k >= 0 ? { section: sectionOf(src.meta, k) } : {}) };
}

/** Where the page's headings start and end: a heading's text starts its section, and its end is read only for the headings a summary shows. */
function headingsOf(src: SummarySource): SummaryPlan['headings'] {
  const { meta } = src;
  return { starts: meta.sections, end: (k) => meta.sections[k]! + sectionOf(meta, k).heading.length };
}

/** Two ascending lists as one. */
function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(a.length + b.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) out[k] = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
  return out;
}

export function hitSummary(snap: Snapshot, hit: SummaryDoc, q: SummaryQuery): Summary {
  return hitDetails(snap, hit, q).summary;
}

/** The indexed document for a URL, or undefined. */
export function docByUrl(snap: Snapshot, url: string): StoredDoc | undefined {
  const id = snap.reader.idOf(url);
  return id === undefined || snap.reader.isDeleted(id) ? undefined : snap.reader.doc(id);
}

/** A page's parse text; its outlinks, which cost as much again to inflate and parse, are not read. */
export function parseText(snap: Snapshot, doc: StoredDoc): string | undefined {
  return snap.segments.getParseText(doc.segment, doc.url)?.text;
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
