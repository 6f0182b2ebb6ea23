/**
 * @module segments/segment
 * A segment: one directory named by its UTC creation time (`yyyyMMddHHmmss`)
 * holding one SQLite file with the fetchlist, a fetch record per URL, the raw
 * content and the parse text (compressed, the text against the content, segments/packing.ts),
 * and the parse data — Nutch's crawl_generate,
 * crawl_fetch, content, parse_text and parse_data, with random access by URL.
 * Each write is a transaction, so a killed fetch leaves every stored record
 * readable and a rerun can skip what is done. Phase markers tell a finished
 * phase from a half-done one. The searcher opens segments read-only.
 *
 * A segment generated for many fetchers (generate -numFetchers) has fetch
 * partitions: each host's URLs belong to one, and each partition is fetched
 * into a segment file of its own inside the segment directory (its `part-*`
 * directory, see openPart). Opened as a whole, the segment reads its own file
 * and every partition's as one: lookups try each, iterations chain them
 * (segments/segment-files.ts).
 *
 * This module is the directory, its phases and its partitions; each part's
 * records are read and written by a module of its own
 * (segments/fetchlist-records.ts, fetch-records.ts, parse-records.ts),
 * behind the one Segment a caller opens.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { HzError } from '../shared/errors.js';
import { segmentFile, segmentPartDir } from '../shared/crawl-dir.js';
import type { ProtocolStatus } from '../shared/page-status.js';
import { makeSegmentDir } from './names.js';
import type { ContentRecord, FetchlistEntry, FetchRecord, FetchUpdate, ParseLinks, ParseRecord, ParseText, SummarySource } from './records.js';
import { fetchUpdates } from './fetch-updates.js';
import { FetchlistRecords } from './fetchlist-records.js';
import { FetchRecords } from './fetch-records.js';
import { ParseRecords } from './parse-records.js';
import { makeFile, makePartFile, WRITER_PRAGMAS } from './schema.js';
import { SegmentFiles } from './segment-files.js';
import { SummarySources } from './summary-source.js';

export type { Outlink, PageSection, ParseMeta } from '../shared/plugin/extension-points.js';
export type * from './records.js';
export { segmentDate, segmentName, listSegments } from './names.js';
export { SEGMENT_VERSION, WRITE_SQL, WRITER_PRAGMAS } from './schema.js';
export { contentParams, fetchToRow, parseParams } from './rows.js';

export const PHASES = ['generated', 'fetched', 'parsed', 'indexed'] as const;
export type Phase = (typeof PHASES)[number];

export class Segment {
  readonly name: string;
  private readonly files: SegmentFiles;
  private readonly fetchlistRecords: FetchlistRecords;
  private readonly fetchRecords: FetchRecords;
  private readonly parseRecords: ParseRecords;
  private readonly summarySources: SummarySources;

  private constructor(
    readonly dir: string,
    private readonly db: Database.Database,
    private readonly parts: Database.Database[] = [],
  ) {
    this.name = path.basename(dir);
    this.files = new SegmentFiles(db, parts);
    this.fetchlistRecords = new FetchlistRecords(this.files);
    this.fetchRecords = new FetchRecords(this.files);
    this.parseRecords = new ParseRecords(this.files);
    this.summarySources = new SummarySources(dir, this.files);
  }

  /** The segment's database file (segments/segment-writer.ts opens its own connection to it). */
  get file(): string {
    return this.db.name;
  }

  /**
   * Creates a new segment named after `now` (UTC). When that name is taken the
   * next free second is used, so two segments made in one second stay distinct
   * and still sort by age.
   */
  static create(segmentsDir: string, now: Date = new Date()): Segment {
    const dir = makeSegmentDir(segmentsDir, now);
    makeFile(segmentFile(dir), () => {});
    const db = new Database(segmentFile(dir));
    for (const p of WRITER_PRAGMAS) db.pragma(p);
    return new Segment(dir, db);
  }

  /** `lookups`: opened to read a few records at a time (the searcher), with a small page cache (shared/sqlite LOOKUP_CACHE_PRAGMA). */
  static open(dir: string, opts: { readonly?: boolean; lookups?: boolean } = {}): Segment {
    const files = SegmentFiles.open(dir, opts.readonly ?? false, opts.lookups);
    return new Segment(dir, files.db, files.parts);
  }

  /** A meta value of the segment's own file. */
  private meta(key: string): string | undefined {
    return (this.files.q(this.db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  private setMeta(key: string, value: string): void {
    this.files.q(this.db, 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }

  // ---- phases ------------------------------------------------------------

  markPhase(phase: Phase, at = Date.now()): void {
    this.setMeta(`phase.${phase}`, String(at));
  }

  clearPhase(phase: Phase): void {
    this.files.q(this.db, 'DELETE FROM meta WHERE key = ?').run(`phase.${phase}`);
  }

  /**
   * When the phase completed, or undefined if it has not. A partitioned
   * segment is fetched (or parsed) when every partition is, as of the last one.
   */
  phase(phase: Phase): number | undefined {
    const own = this.meta(`phase.${phase}`);
    if (own !== undefined || this.parts.length === 0 || this.parts.length < this.partCount()) return own !== undefined ? Number(own) : undefined;
    let at = 0;
    for (const p of this.parts) {
      const r = this.files.q(p, 'SELECT value FROM meta WHERE key = ?').get(`phase.${phase}`) as { value: string } | undefined;
      if (!r) return undefined;
      at = Math.max(at, Number(r.value));
    }
    return at;
  }

  hasPhase(phase: Phase): boolean {
    return this.phase(phase) !== undefined;
  }

  // ---- fetch partitions (generate -numFetchers) --------------------------------

  /** Records the fetch partition of each fetchlist host; `count` partitions in all. */
  setPartitions(hostParts: ReadonlyMap<string, number>, count: number): void {
    this.db.transaction(() => {
      const add = this.db.prepare('INSERT OR REPLACE INTO partition_hosts (host, part) VALUES (?, ?)');
      for (const [host, part] of hostParts) add.run(host, part);
      this.setMeta('parts', String(count));
    })();
  }

  /** The number of fetch partitions; 0 for a segment fetched as a whole. */
  partCount(): number {
    const n = this.meta('parts');
    return n !== undefined ? Number(n) : 0;
  }

  /** The fetch partition of each fetchlist host. */
  partHosts(): Map<string, number> {
    return new Map((this.db.prepare('SELECT host, part FROM partition_hosts').raw().all() as [string, number][]));
  }

  /**
   * Partition `part` as a segment of its own, made on first use with the
   * partition's share of the fetchlist: its fetcher writes only there, so
   * fetchers on several machines never write one file.
   */
  openPart(part: number): Segment {
    const n = this.partCount();
    if (!Number.isInteger(part) || part < 0 || part >= n)
      throw new HzError('HZ_ERR_USAGE', `segment ${this.dir} has ${n ? `fetch partitions 0 to ${n - 1}` : 'no fetch partitions (generate -numFetchers makes them)'}, not ${part}`);
    const dir = segmentPartDir(this.dir, part);
    if (!fs.existsSync(segmentFile(dir))) makePartFile(this.db, dir, part, this.phase('generated'));
    return Segment.open(dir);
  }

  /** Records in a table; the fetchlist is this segment's own (its partitions hold copies). */
  count(table: 'fetchlist' | 'fetch' | 'content' | 'parse'): number {
    if (table === 'fetchlist') return this.fetchlistRecords.count();
    return this.files.sum(`SELECT COUNT(*) FROM ${table}`);
  }

  /** Every URL the segment has a record of, in URL order. */
  urls(): Iterable<string> {
    const sql = 'SELECT url FROM fetchlist UNION SELECT url FROM fetch UNION SELECT url FROM parse ORDER BY url';
    if (this.parts.length === 0) return this.db.prepare(sql).pluck().iterate() as Iterable<string>;
    // SQLite's order is that of the UTF-8 bytes: each URL encoded once, not at every comparison.
    const keyed = [...this.files.urlSet(sql)].map((u) => [Buffer.from(u), u] as const);
    return keyed.sort((a, b) => Buffer.compare(a[0], b[0])).map(([, u]) => u);
  }

  // ---- the parts' records (segments/fetchlist-records.ts, fetch-records.ts, parse-records.ts) ----

  addFetchlist(entries: Iterable<FetchlistEntry>): number {
    return this.fetchlistRecords.add(entries);
  }

  fetchlist(): IterableIterator<FetchlistEntry> {
    return this.fetchlistRecords.entries();
  }

  fetchlistEntry(url: string): (FetchlistEntry & { pos: number }) | undefined {
    return this.fetchlistRecords.entry(url);
  }

  unfetchedCount(): number {
    return this.fetchlistRecords.unfetchedCount(this.parts.length > 0 || this.partCount() > 0, () => this.fetchedUrls());
  }

  fetchTimes(): { first: number | null; last: number | null } {
    return this.fetchRecords.fetchTimes();
  }

  countFetches(status: ProtocolStatus): number {
    return this.fetchRecords.countFetches(status);
  }

  contentSize(url: string): number | undefined {
    return this.fetchRecords.contentSize(url);
  }

  unparsedContents(): IterableIterator<ContentRecord> {
    return this.fetchRecords.unparsedContents(() => this.parsedUrls());
  }

  getFetch(url: string): FetchRecord | undefined {
    return this.fetchRecords.getFetch(url);
  }

  fetches(): IterableIterator<FetchRecord> {
    return this.fetchRecords.fetches();
  }

  fetchBatches(size: number): IterableIterator<FetchRecord[]> {
    return this.fetchRecords.fetchBatches(size);
  }

  /**
   * What updatedb reads of each fetch record, in fetches() order: the record,
   * a successful fetch's parse links (getParseLinks) and its fetchlist entry
   * (fetchlistEntry). The segment's own file is read in one joined query, not
   * three lookups a page; a partition's records, whose fetchlist entries are
   * this file's and whose parses may be, take the lookups.
   */
  *fetchUpdates(): IterableIterator<FetchUpdate> {
    yield* fetchUpdates(this.files, (url) => this.getParseLinks(url), (url) => this.fetchlistEntry(url));
  }

  fetchedUrls(): Set<string> {
    return this.fetchRecords.fetchedUrls();
  }

  getContent(url: string): ContentRecord | undefined {
    return this.fetchRecords.getContent(url);
  }

  contents(): IterableIterator<ContentRecord> {
    return this.fetchRecords.contents();
  }

  sumParseMeta(paths: readonly string[]): number[] {
    return this.parseRecords.sumParseMeta(paths);
  }

  hasParse(url: string): boolean {
    return this.parseRecords.hasParse(url);
  }

  parsedUrls(): Set<string> {
    return this.parseRecords.parsedUrls();
  }

  /** Stores parse records in one transaction (fetch records, content and inline parses go through segments/segment-writer.ts). */
  putParses(recs: Iterable<ParseRecord>): void {
    this.parseRecords.putParses(recs);
  }

  getParseLinks(url: string): ParseLinks | undefined {
    return this.parseRecords.getParseLinks(url);
  }

  getParse(url: string): ParseRecord | undefined {
    return this.parseRecords.getParse(url);
  }

  getParseText(url: string): ParseText | undefined {
    return this.parseRecords.getParseText(url);
  }

  /** getParseText and the page's content size (contentSize), in one read of its rows: what the indexer reads of a page. */
  getParseTextAndSize(url: string): { parse: ParseText; contentSize: number | null } | undefined {
    return this.parseRecords.getParseTextAndSize(url);
  }

  parses(): IterableIterator<ParseRecord> {
    return this.parseRecords.parses();
  }

  parseTitles(): IterableIterator<Pick<ParseRecord, 'url' | 'status' | 'title'>> {
    return this.parseRecords.parseTitles();
  }

  // ---- summaries (segments/summary-source.ts) ------------------------------------

  /**
   * Empties the summary tables older hazelnut wrote into the segment file,
   * once the segment index's summaries file holds what they held.
   */
  clearSummaryTables(): void {
    this.summarySources.clearTables();
  }

  /** Calls `use` with what a summary of `url` reads (segments/summary-source.ts) and returns what it returns; undefined without a parse. */
  withSummarySource<T>(url: string, use: (src: SummarySource) => T): T | undefined {
    return this.summarySources.with(url, use);
  }

  /** Why the segment index's summaries file cannot be read, if it cannot: summaries come from the parse text meanwhile. */
  get summariesProblem(): string | undefined {
    return this.summarySources.problem;
  }

  /** Reads the summaries file anew at the next summary (the segment has been indexed again since it was opened). */
  reopenSummaries(): void {
    this.summarySources.reopen();
  }

  close(): void {
    this.reopenSummaries();
    this.files.close();
  }
}
