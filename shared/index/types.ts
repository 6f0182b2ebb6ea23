/**
 * @module shared/index/types
 * The contract between the indexer (crawler side) and the searcher: what a
 * document holds, and what an index reader answers. Per-segment indexes and
 * the merged index share one format; the searcher only ever reads.
 */
import type { Analyzer, AnalyzerOptions } from '../analysis/analyzer.js';
import type { DecodedBlock } from './postings-codec.js';
import type { CacheBudget } from './cache-budget.js';
import type { MatchCounts, MatchWeights } from './match-counts.js';

/** The fields BM25F scores, each with its own length statistics. */
export const FIELDS = ['title', 'anchor', 'url', 'heading', 'content'] as const;
export type Field = (typeof FIELDS)[number];

/** Stored fields of one document (Nutch's index fields, reference §3.7). */
export interface StoredDoc {
  url: string;
  title: string;
  host: string;
  site: string;
  domain: string;
  /** Content type without parameters, e.g. `text/html`. */
  type: string;
  lang: string;
  /** `yyyyMMdd` (UTC) of Last-Modified, else of the fetch time. */
  date: string;
  /** Fetch time, ms. */
  tstamp: number;
  digest: string;
  /** Link score handed over by the indexer (the document boost). */
  boost: number;
  segment: string;
  contentLength: number;
  /** Anchor texts of inlinks, each distinct text repeated 1 + ⌊log2 n⌋ times for n links. */
  anchors: string[];
  /** The page asked not to be cached (meta robots noarchive). */
  noarchive?: boolean;
  /** The weight of a navigation page's text, 0–1 in hundredths (crawler/parse/page-shape); absent for an ordinary page, whose weight is 1. */
  prose?: number;
}

/** What the indexer hands the writer: the stored fields plus the text to index. */
export interface IndexInputDoc extends StoredDoc {
  content: string;
  /** The page's headings (their words are in `content` too). */
  headings?: string[];
  /** Where the page's sections start in `content` (character offsets of its headings, ascending). */
  sections?: number[];
}

export interface IndexMeta {
  version: number;
  createdAt: number;
  docCount: number;
  /** Documents deleted by dedup (per-segment indexes only; a merged index has none). */
  deletedCount: number;
  segments: string[];
  termCount: number;
  avgFieldLength: Record<Field, number>;
  /** Average length in terms of a section, over the documents with two sections or more (0 when none has). */
  avgSectionLength: number;
  /** The sections of those documents. */
  sectionCount: number;
  /** How the index was analyzed; queries must be analyzed the same way (IndexReader.analyzer). */
  analyzer: AnalyzerOptions;
  /**
   * False for an index kept without postings (a segment's own index before
   * merge merged postings: merge inverts its documents again); no query
   * searches it.
   */
  postings: boolean;
}

export interface CandidateOptions {
  limit: number;
  /** Filters on exact tag values (`site:`, `type:`, `lang:`). */
  tags?: Partial<Record<'host' | 'site' | 'type' | 'lang', string>>;
  /**
   * A weight for each posting of a term, a block at a time: among documents
   * holding as many of the terms, those of the highest sum are taken first.
   * Without it, the lowest ids.
   */
  weigh?: (termId: number) => BlockWeights;
  /** A weight of a document's own, added to its postings' weights (the link prior). */
  docWeight?: (id: number) => number;
  /** The largest `docWeight` of a document whose boost is at most `boost` (a block keeps its documents' largest); without it, none is passed over. */
  docWeightBound?: (boost: number) => number;
  /** A factor of a document's own, at most 1, on its postings' weights' sum when positive (the text weight). */
  docScale?: (id: number) => number;
  /** Counts the postings blocks decoded and passed over, when given. */
  stats?: { decoded: number; skipped: number };
  /** Ranks by weight alone, however many of the terms a document holds. */
  byWeight?: boolean;
  /** Set, when `limit` documents were taken, to the worst taken: none left out ranks above it. */
  floor?: { count: number; weight: number };
}

/** A term's posting weights by block (`TermBlocks`): a bound of a block's, and each of its postings' when it is decoded. */
export interface BlockWeights {
  /** At least every weight in block `b`. */
  bound(b: number): number;
  /**
   * The weights of block `b`'s postings, in its order; valid until the next
   * call. `decoded`: the block decoded with its frequencies, when the caller
   * decoded it as `needsTf` asked, so it is not decoded again.
   */
  of(b: number, decoded?: DecodedBlock): ArrayLike<number>;
  /** Whether the weights of block `b` are worked out from its frequencies: a caller decoding it anyway decodes them too and gives it to `of`. */
  needsTf?(b: number): boolean;
  /**
   * Kept from one query to the next, when given: the largest posting weight
   * plus its document's own in each block seen decoded (NaN for the others),
   * a bound far below `bound` plus the block's largest own weight when the
   * two largest are not one document's.
   */
  withOwn?: Float64Array;
}

/**
 * A term's postings in blocks of 128 (shared/index/postings-codec) with
 * skip data and a bound of the score of each: a query decodes only the
 * blocks whose bound can still rank.
 */
export interface TermBlocks {
  count: number;
  blocks: number;
  /** Each block's last document. */
  last: Uint32Array;
  /** Per field: each block's largest frequency, and the shortest length of a field holding the term (0xffffffff when none). */
  maxTf: Uint16Array[];
  minLength: Uint32Array[];
  /** Each block's documents' largest link score. */
  maxBoost: Float64Array;
  /** Decodes block `b` into `out` (its frequencies only with `withTf`, by default); returns its postings. */
  decode(b: number, out: DecodedBlock, withTf?: boolean): number;
  /** The frequencies of block `b`'s postings at `places` (the first `k`, ascending) into `out` (the j-th place's at j), the block not decoded whole (postings-codec decodePlaces). */
  decodePlaces(b: number, places: ArrayLike<number>, k: number, out: DecodedBlock): void;
}

/** A term's documents, ascending (a document's forward-index entry of the term: IndexReader.entry). */
export interface Postings {
  docs: Uint32Array;
}

export interface IndexReader {
  readonly dir: string;
  readonly meta: IndexMeta;
  /** The analyzer the index was built with: analyze queries with this one. */
  readonly analyzer: Analyzer;
  /** What the reader and the searcher's caches of it may keep, in bytes each (searcher.cache.mb). */
  readonly cacheBudget: CacheBudget;
  /** Document ids are 0..meta.docCount-1. */
  doc(id: number): StoredDoc;
  idOf(url: string): number | undefined;
  isDeleted(id: number): boolean;
  /** The link score the indexer stored (StoredDoc.boost), without reading the stored fields. */
  boost(id: number): number;
  /** The weight of the document's text (StoredDoc.prose, 1 when absent), without reading the stored fields. */
  prose(id: number): number;
  /** A tag the indexer stored (StoredDoc's host, site, type or lang), without reading the stored fields. */
  tag(id: number, field: 'host' | 'site' | 'type' | 'lang'): string;
  /**
   * Candidate documents for analyzed terms: those holding every term first,
   * then the best partial matches, up to `limit`. Order carries no score.
   */
  candidates(terms: string[], opts: CandidateOptions): number[];
  /**
   * How many documents hold every one of `terms` and how many some, by site, type and language, none scored; with the candidate stage's `weights`, each weighed too (its `pool`, to be released).
   * With `groups` (each a word's alternatives, its terms among `terms`; at most 8), a document holds a word when it holds any of its group's terms, and "every" counts the groups.
   */
  countMatches(terms: string[], weights?: MatchWeights, stats?: CandidateOptions['stats'], groups?: readonly (readonly string[])[]): MatchCounts;
  /** Documents holding the term in this field. */
  docFreq(field: Field, term: string): number;
  /** Documents holding the term of this id in this field (no lookup by string). */
  docFreqOf(field: Field, termId: number): number;
  /** Each term's document frequency in this field, by term id (no lookup by string). */
  docFreqs(field: Field): ArrayLike<number>;
  /** The term dictionary, sorted, made into strings on each call: for walks of a whole index (merge), not for queries. */
  terms(): readonly string[];
  /** The term of a dictionary id (0 ≤ id < meta.termCount): the vocabulary "did you mean" corrects against, read a term at a time. */
  term(termId: number): string;
  termFreq(id: number, field: Field, term: string): number;
  /** Number of tokens in the field. */
  fieldLength(id: number, field: Field): number;
  /**
   * Every document's field lengths, `[id * FIELDS.length + k]` for field `FIELDS[k]`, as the reader holds
   * them (not to be written to): for a pass over every document, which a call a document and field made
   * some 25 ms of a searcher's start at 100k pages.
   */
  fieldLengths(): Uint32Array;
  /** Token positions of a term in the document's title + content stream (title first). */
  positions(id: number, term: string): readonly number[];
  /**
   * The per-query path: a term's dictionary id (-1 when absent), looked up
   * once per query, then the (document, term) entry of the forward index
   * (-1 when the document lacks the term), whose frequencies and positions
   * are read without a string lookup per document.
   */
  termId(term: string): number;
  entry(id: number, termId: number): number;
  /** A document's forward-index entries, one a term it holds: [first, end), in term-id order. */
  entryRange(id: number): [number, number];
  /** The term id of an entry. */
  entryTerm(entry: number): number;
  /** Each entry's count in title and body (its positions) of entries [first, end), into `out` from 0. */
  entryCounts(first: number, end: number, out: Uint32Array): void;
  /** Term frequency at an entry; `field` is an index into FIELDS. */
  entryTf(entry: number, field: number): number;
  /** Positions at an entry, ascending; only the first `max` when given. `count`, the entry's count of positions when the caller knows it (its title and body frequencies), is trusted: fewer pages are read. */
  entryPositions(entry: number, max?: number, count?: number): readonly number[];
  /**
   * The lengths in terms of a document's sections, over its whole text (past
   * indexer.max.tokens too); empty for a document with fewer than two.
   */
  sectionLengths(id: number): Uint32Array;
  /** The sections an entry's term occurs in (ascending, indexes into sectionLengths) and its count in each: `[section, tf, section, tf, …]`, written into `out` when given (a list reused from one call to the next). */
  entrySections(entry: number, out?: number[]): number[];
  /** The documents holding a term (ascending ids) and, beside each, its entry: the forward index inverted. */
  postings(termId: number): Postings;
  /** A term's frequency in each field (by index into FIELDS) in each of its postings, beside `postings(termId).docs`: every field from one pass over its blocks. */
  postingTfs(termId: number): Uint16Array[];
  /** A term's postings in blocks, each decoded when asked. */
  postingBlocks(termId: number): TermBlocks;
  close(): void;
}
