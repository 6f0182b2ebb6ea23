/**
 * @module crawler/index/fetch-document
 * The document a segment's fetch record makes, Nutch's IndexerMapReduce for
 * one page: a successful fetch, parsed successfully, not noindex, through the
 * indexing filters with its inlinks and scores from the WebDB; or why it
 * makes none, which the index tool counts.
 */
import { summaryMeta } from '../../segments/offsets.js';
import type { Segment, SummaryText } from '../../segments/segment.js';
import type { FetchRecord } from '../../segments/records.js';
import type { IndexInputDoc } from '../../shared/index/types.js';
import type { IndexDocument, IndexingInput } from '../../shared/plugin/extension-points.js';
import type { CrawlerPlugins } from '../plugin/chains.js';
import { host } from '../url/keys.js';
import type { WebDb } from '../webdb/webdb.js';
import { indexesText } from './page-terms.js';
import { stripTitleSuffix, type SiteTitles } from './title.js';
import { copiedRanges, proseWeight, titleKey } from '../parse/page-shape.js';

/** Turns the filters' field map into the writer's document, with the core fields. */
function toInputDoc(d: IndexDocument, core: { segment: string; digest: string; boost: number }): IndexInputDoc {
  const str = (k: string, dflt = '') => (typeof d[k] === 'string' ? (d[k] as string) : dflt);
  const num = (k: string) => (typeof d[k] === 'number' ? (d[k] as number) : Number(d[k] ?? 0) || 0);
  const list = (k: string) => (Array.isArray(d[k]) ? (d[k] as string[]) : typeof d[k] === 'string' ? [d[k] as string] : []);
  return {
    url: str('url'),
    title: str('title'),
    host: str('host'),
    site: str('site'),
    domain: str('domain'),
    type: str('type', 'text/html'),
    lang: str('lang', 'unknown'),
    date: str('date'),
    tstamp: num('tstamp'),
    digest: core.digest,
    boost: core.boost,
    segment: core.segment,
    contentLength: num('contentLength'),
    anchors: list('anchor'),
    ...(d.noarchive === 'true' ? { noarchive: true } : {}),
    content: str('content'),
    headings: list('heading'),
  };
}

/** Why a fetch record makes no document: the index summary's count it adds to. */
export type NoDocument = 'notFetched' | 'notParsed' | 'noindex' | 'filtered';

/** A page's document, the parse text its positions count (when the content starts with it) and what its summaries need. */
export interface FetchDocument {
  doc: IndexInputDoc;
  text: string | undefined;
  summaryText: Omit<SummaryText, 'checkpoints'> | undefined;
}

/** The document of fetch record `f` of `seg`, or why it has none; `titles`: each host's site title suffix, stripped from titles, and its pages' titles. */
export function documentOf(
  seg: Segment,
  f: FetchRecord,
  ctx: { db: WebDb; plugins: CrawlerPlugins; titles: SiteTitles },
): FetchDocument | NoDocument {
  const { db, plugins, titles } = ctx;
  if (f.status !== 'fetch_success') return 'notFetched';
  const read = seg.getParseTextAndSize(f.url);
  if (!read || read.parse.status !== 'success') return 'notParsed';
  const parse = read.parse;
  if (parse.meta.noindex) return 'noindex';
  const page = db.page(f.url);
  const input: IndexingInput = {
    url: f.url,
    segment: seg.name,
    fetchTime: f.fetchTime,
    headers: f.headers,
    contentType: f.contentType ?? null,
    // Content in another of the segment's files than its parse (a fetch partition's) is looked up there.
    contentLength: read.contentSize ?? seg.contentSize(f.url) ?? parse.text.length,
    parse: { title: stripTitleSuffix(parse.title, titles.suffixes.get(host(f.url))), text: parse.text, lang: parse.lang, meta: parse.meta },
    signature: parse.signature ?? null,
    inlinks: db.inlinks(f.url, 'source'),
    linkScore: page?.link_score ?? 0,
  };
  let fields: IndexDocument | null = {};
  for (const filter of plugins.indexingFilters) {
    fields = filter.filter(fields, input);
    if (!fields) break;
  }
  if (!fields) return 'filtered';
  const boost = plugins.scoring.indexerScore(f.url, page?.score ?? 1, input.linkScore);
  const doc = toInputDoc(fields, { segment: seg.name, digest: parse.signature ?? '', boost });
  // A page's own text: neither furniture, nor sections headed by another page's title, nor a source listing's code.
  const own = titleKey(input.parse.title);
  const others = titles.keys.get(host(f.url));
  const copies = copiedRanges(parse.text.length, parse.meta.sections, (k) => k !== own && others?.has(k) === true);
  const prose = proseWeight(parse.text.length, [...(parse.meta.furniture ?? []), ...copies, ...(parse.meta.listing ?? [])]);
  if (prose < 1) doc.prose = prose;
  // The index's positions count the words of the content: they are the text's words only when the content starts with the text.
  const text = indexesText(doc.content, parse.text) ? parse.text : undefined;
  // Section offsets are the parse text's: they hold in the content only where it starts with the text.
  if (text !== undefined && Array.isArray(parse.meta.sections)) doc.sections = parse.meta.sections.map((s) => s.offset);
  const summaryText = text === undefined ? undefined : { url: f.url, length: text.length, meta: summaryMeta(parse.meta) };
  return { doc, text, summaryText };
}
