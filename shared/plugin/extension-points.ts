/**
 * @module shared/plugin/extension-points
 * Nutch's extension points as TypeScript interfaces. A plugin is a descriptor
 * `{ id, point, create(conf) }` (its stand-in for plugin.xml); `create` returns
 * the implementation, or null when its properties switch it off. Built-ins
 * register under Nutch's plugin ids; `plugin.includes` selects the active ones
 * and `plugin.folders` adds a user's own ESM modules exporting descriptors.
 * Every point here is called by the crawler; Nutch's query filters and
 * summarizer are not points: the searcher's query language and summaries are
 * its own.
 */
import type { Conf } from '../conf.js';
import type { PropertyType } from '../property-types.js';

/** Where in the pipeline a URL is being normalized (Nutch's URLNormalizers scopes). */
export type NormalizerScope =
  | 'default'
  | 'inject'
  | 'generate_host_count'
  | 'fetcher'
  | 'crawldb'
  | 'linkdb'
  | 'outlink'
  | 'indexer';

/** Returns the normalized URL, or null when the URL cannot be normalized (it is then dropped). */
export interface URLNormalizer {
  normalize(url: string, scope: NormalizerScope): string | null;
}

/** Returns the URL to accept it (possibly unchanged), or null to reject it. */
export interface URLFilter {
  filter(url: string): string | null;
}

/** What a parser gets: the fetched bytes, their decoded text and what the fetch learnt. */
export interface ParseInput {
  url: string;
  contentType: string | null;
  charset: string | null;
  bytes: Buffer;
  headers: Record<string, string>;
  truncated: boolean;
}

export interface Outlink {
  url: string;
  anchor: string;
  /** A navigation link (inside nav, header or footer): crawled, but kept out of link scores and anchors. */
  nav?: boolean;
}

/** A heading of a page: where its section starts in the parse text, and the id a link can point at. */
export interface PageSection {
  heading: string;
  /** h1 = 1 … h6 = 6; 7 for a definition entry (a `<dt>` with an id). */
  level: number;
  /** Character offset of the heading in the parse text. */
  offset: number;
  /** The heading's own id, one inside it, or its enclosing section's: `page.html#id`. */
  id?: string;
}

export interface ParseMeta {
  /** The page's headings in document order (HTML pages). */
  sections?: PageSection[];
  /** Parse-text ranges [start, end) that are page furniture (menus, link lists, the title repeated): not summary material. */
  furniture?: [number, number][];
  /** Parse-text ranges of code on a page that is almost all code (crawler/parse/page-shape's source listing). */
  listing?: [number, number][];
  noindex?: boolean;
  nofollow?: boolean;
  noarchive?: boolean;
  canonical?: string;
  refresh?: { url: string; delay: number };
  /** Anything a parser plugin wants to pass on (description, keywords, …). */
  [key: string]: unknown;
}

export interface ParseOutput {
  status: 'success' | 'failed';
  message?: string;
  title: string;
  text: string;
  lang?: string | null;
  /**
   * Absolute, not yet normalized or filtered outlinks, in document order.
   * `nav` marks a link in the page's navigation (menus, headers, footers):
   * crawled like any other, but left out of link scores and anchor text.
   */
  outlinks: Outlink[];
  meta: ParseMeta;
}

/**
 * Parses one content type family; chosen by `contentTypes` (exact types or
 * `text/*`-style prefixes). A parser that hands the work to another thread
 * (PDF, office files) returns a promise.
 */
export interface Parser {
  contentTypes: string[];
  parse(input: ParseInput): ParseOutput | Promise<ParseOutput>;
}

/** The document handed to indexing filters: field name → value(s). */
export type IndexDocument = Record<string, string | number | string[] | undefined>;

export interface IndexingInput {
  url: string;
  segment: string;
  fetchTime: number;
  headers: Record<string, string>;
  contentType: string | null;
  contentLength: number;
  parse: { title: string; text: string; lang?: string | null; meta: Record<string, unknown> };
  signature: string | null;
  inlinks: { source: string; anchor: string }[];
  linkScore: number;
}

/** Adds fields to a document, or returns null to keep the page out of the index. */
export interface IndexingFilter {
  filter(doc: IndexDocument, input: IndexingInput): IndexDocument | null;
}

/** Scoring hooks of Nutch's ScoringFilter, on plain numbers. */
export interface ScoringFilter {
  /** Score of a URL added by inject (`nutch.score` metadata already applied). */
  injectedScore(url: string, score: number): number;
  /** Score of a URL first seen as an outlink. */
  initialScore(url: string): number;
  /** Sort key in generate: higher is fetched first. */
  generatorSortValue(url: string, score: number): number;
  /** Cash each outlink receives from a page with this score. */
  distributeScoreToOutlinks(fromUrl: string, score: number, outlinks: string[], allCount: number): Map<string, number>;
  /** New WebDB score from the old one and the cash of this batch's inlinks. */
  updateDbScore(url: string, oldScore: number | undefined, inlinkCash: number[]): number;
  /** Document boost in the index. */
  indexerScore(url: string, dbScore: number, linkScore: number): number;
}

/** One request to a protocol plugin. */
export interface ProtocolRequest {
  url: string;
  /** If-Modified-Since value (an HTTP date), from the WebDB on a refetch. */
  ifModifiedSince?: string | null;
  /** If-None-Match value (an entity tag), from the WebDB on a refetch. */
  ifNoneMatch?: string | null;
  /** Bytes of body to keep at most, overriding the plugin's own limit (robots.txt has its own). */
  limit?: number;
  /** Ends the request early (an interrupted fetch). */
  signal?: AbortSignal;
}

/**
 * A protocol's answer in HTTP's terms, as Nutch's protocol plugins gave it:
 * 200 with the body, 304 not modified, 3xx with a `location` header, 404 …
 */
export interface ProtocolResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  /** Bytes read from the source. */
  wireBytes: number;
}

/**
 * Fetches the URLs of its schemes (`http`, `file`, …). A request that gets
 * no answer at all (timeout, refused) throws a ProtocolFailure
 * (shared/plugin/protocol-failure.ts); the page is then retried later.
 */
export interface Protocol {
  schemes: string[];
  get(req: ProtocolRequest): Promise<ProtocolResponse>;
  /** Releases connections when the fetch ends. */
  close?(): Promise<void>;
}

export interface ExtensionPoints {
  'url-normalizer': URLNormalizer;
  'url-filter': URLFilter;
  parser: Parser;
  'indexing-filter': IndexingFilter;
  'scoring-filter': ScoringFilter;
  protocol: Protocol;
}
export type ExtensionPoint = keyof ExtensionPoints;

/**
 * A property a plugin from plugin.folders reads (Nutch declared them in the
 * plugin's own files): while the plugin is active, a site file or -D may set
 * it, and its value is checked against its type when the configuration loads.
 */
export interface PluginProperty {
  /** Letters, digits and - . _; not a name hazelnut-default.xml or another plugin declares. */
  name: string;
  /** `string` (the default) takes any value. */
  type?: PropertyType | 'string';
  /** Its value when nothing sets it. */
  default: string;
  description: string;
}

export interface PluginDescriptor<P extends ExtensionPoint = ExtensionPoint> {
  /** Nutch's plugin id, e.g. `urlfilter-regex`. */
  id: string;
  point: P;
  description: string;
  /** The plugin's own properties (user plugins; the built-ins' are in hazelnut-default.xml). */
  properties?: PluginProperty[];
  create(conf: Conf): ExtensionPoints[P] | null;
}
