/**
 * @module segments/segment
 * A segment: one directory named by its UTC creation time (`yyyyMMddHHmmss`)
 * holding one SQLite file with the fetchlist, a fetch record per URL, the raw
 * content and the parse text (each compressed on its own, segments/packing.ts),
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
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { HzError } from '../shared/errors.js';
import { segmentFile, segmentPartDir } from '../shared/crawl-dir.js';
import type { ProtocolStatus } from '../shared/page-status.js';
import { makeSegmentDir } from './names.js';
import type { ContentRecord, FetchlistEntry, FetchRecord, FetchUpdate, ParseLinks, ParseRecord, SummarySource } from './records.js';
import { fetchUpdates } from './fetch-updates.js';
import {
  contentFromRow,
  fetchFromRow,
  fetchlistFromRow,
  parseFromRow,
  parseLinksFromRow,
  parseParams,
  type ContentRow,
  type FetchlistRow,
  type FetchRow,
  type ParseLinksRow,
  type ParseRow,
} from './rows.js';
import { makeFile, makePartFile, WRITE_SQL, WRITER_PRAGMAS } from './schema.js';
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
  private readonly stmts: ReturnType<Segment['prepare']>;
  private readonly files: SegmentFiles;
  private readonly summarySources: SummarySources;

  private constructor(
    readonly dir: string,
    private readonly db: Database.Database,
    private readonly parts: Database.Database[] = [],
  ) {
    this.name = path.basename(dir);
    this.stmts = this.prepare();
    this.files = new SegmentFiles(db, parts);
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

  static open(dir: string, opts: { readonly?: boolean } = {}): Segment {
    const files = SegmentFiles.open(dir, opts.readonly ?? false);
    return new Segment(dir, files.db, files.parts);
  }

  private prepare() {
    const db = this.db;
    const sql = WRITE_SQL;
    return {
      phase: db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
      clearPhase: db.prepare('DELETE FROM meta WHERE key = ?'),
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
      addFetchlist: db.prepare('INSERT OR IGNORE INTO fetchlist (url, pos, host, score, datum) VALUES (?, ?, ?, ?, ?)'),
      putParse: db.prepare(sql.parse),
    };
  }

  // ---- phases ------------------------------------------------------------

  markPhase(phase: Phase, at = Date.now()): void {
    this.stmts.phase.run(`phase.${phase}`, String(at));
  }

  clearPhase(phase: Phase): void {
    this.stmts.clearPhase.run(`phase.${phase}`);
  }

  /**
   * When the phase completed, or undefined if it has not. A partitioned
   * segment is fetched (or parsed) when every partition is, as of the last one.
   */
  phase(phase: Phase): number | undefined {
    const own = this.stmts.getMeta.get(`phase.${phase}`) as { value: string } | undefined;
    if (own || this.parts.length === 0 || this.parts.length < this.partCount()) return own ? Number(own.value) : undefined;
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
      this.stmts.phase.run('parts', String(count));
    })();
  }

  /** The number of fetch partitions; 0 for a segment fetched as a whole. */
  partCount(): number {
    const r = this.stmts.getMeta.get('parts') as { value: string } | undefined;
    return r ? Number(r.value) : 0;
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

  // ---- fetchlist ---------------------------------------------------------

  addFetchlist(entries: Iterable<FetchlistEntry>): number {
    let pos = (this.db.prepare('SELECT COALESCE(MAX(pos), -1) AS m FROM fetchlist').get() as { m: number }).m + 1;
    let n = 0;
    this.db.transaction(() => {
      for (const e of entries) n += this.stmts.addFetchlist.run(e.url, pos++, e.host, e.score, JSON.stringify(e.datum)).changes;
    })();
    return n;
  }

  *fetchlist(): IterableIterator<FetchlistEntry> {
    for (const r of this.db.prepare('SELECT * FROM fetchlist ORDER BY pos').iterate() as Iterable<{
      url: string;
      host: string;
      score: number;
      datum: string;
    }>)
      yield { url: r.url, host: r.host, score: r.score, datum: JSON.parse(r.datum) };
  }

  /** Records in a table; the fetchlist is this segment's own (its partitions hold copies). */
  count(table: 'fetchlist' | 'fetch' | 'content' | 'parse'): number {
    if (table === 'fetchlist') return (this.db.prepare('SELECT COUNT(*) AS n FROM fetchlist').get() as { n: number }).n;
    return this.files.sum(`SELECT COUNT(*) FROM ${table}`);
  }

  /** The fetchlist entry of a URL with its position in fetch order. */
  fetchlistEntry(url: string): (FetchlistEntry & { pos: number }) | undefined {
    const r = this.files.q(this.db, 'SELECT * FROM fetchlist WHERE url = ?').get(url) as FetchlistRow | undefined;
    return r && fetchlistFromRow(r);
  }

  /** Fetchlist entries without a fetch record. */
  unfetchedCount(): number {
    if (this.parts.length === 0 && this.partCount() === 0)
      return (this.db.prepare('SELECT COUNT(*) AS n FROM fetchlist f LEFT JOIN fetch r ON r.url = f.url WHERE r.url IS NULL').get() as { n: number }).n;
    const fetched = this.fetchedUrls();
    let n = 0;
    for (const url of this.db.prepare('SELECT url FROM fetchlist').pluck().iterate() as Iterable<string>) if (!fetched.has(url)) n++;
    return n;
  }

  /** Every URL the segment has a record of, in URL order. */
  urls(): Iterable<string> {
    const sql = 'SELECT url FROM fetchlist UNION SELECT url FROM fetch UNION SELECT url FROM parse ORDER BY url';
    if (this.parts.length === 0) return this.db.prepare(sql).pluck().iterate() as Iterable<string>;
    // SQLite's order is that of the UTF-8 bytes: each URL encoded once, not at every comparison.
    const keyed = [...this.files.urlSet(sql)].map((u) => [Buffer.from(u), u] as const);
    return keyed.sort((a, b) => Buffer.compare(a[0], b[0])).map(([, u]) => u);
  }

  // ---- fetch records and content -------------------------------------------

  /** The first and last fetch time, null when nothing was fetched. */
  fetchTimes(): { first: number | null; last: number | null } {
    let first: number | null = null;
    let last: number | null = null;
    for (const db of this.files.all) {
      const t = this.files.q(db, 'SELECT MIN(fetch_time) AS a, MAX(fetch_time) AS b FROM fetch').get() as { a: number | null; b: number | null };
      if (t.a !== null && (first === null || t.a < first)) first = t.a;
      if (t.b !== null && (last === null || t.b > last)) last = t.b;
    }
    return { first, last };
  }

  /** Fetch records that ended with this protocol status. */
  countFetches(status: ProtocolStatus): number {
    return this.files.sum('SELECT COUNT(*) FROM fetch WHERE protocol_status = ?', status);
  }

  /** The size of a URL's stored content before compression. */
  contentSize(url: string): number | undefined {
    return this.files.lookup<{ size: number }>('SELECT size FROM content WHERE url = ?', url)?.size;
  }

  /** Content without a parse record (a fetch run with -noParsing, or interrupted before parsing). */
  *unparsedContents(): IterableIterator<ContentRecord> {
    if (this.parts.length === 0) {
      for (const r of this.db
        .prepare('SELECT c.* FROM content c LEFT JOIN parse p ON p.url = c.url WHERE p.url IS NULL ORDER BY c.rowid')
        .iterate() as Iterable<ContentRow>)
        yield contentFromRow(r);
      return;
    }
    // A partition's content may be parsed in its own file (inline) or in this one (the parse tool).
    for (const r of this.files.rows<ContentRow>('SELECT * FROM content ORDER BY rowid', this.parsedUrls())) yield contentFromRow(r);
  }

  getFetch(url: string): FetchRecord | undefined {
    const r = this.files.lookup<FetchRow>('SELECT * FROM fetch WHERE url = ?', url);
    return r && fetchFromRow(r);
  }

  *fetches(): IterableIterator<FetchRecord> {
    for (const r of this.files.rows<FetchRow>('SELECT * FROM fetch ORDER BY rowid')) yield fetchFromRow(r);
  }

  /**
   * The fetch records in the order fetches() gives them, `size` at a time.
   * Each batch is read whole before it is handed over, so memory stays
   * bounded and the caller may write to the segment between batches (a
   * connection cannot write while one of its reads is open).
   */
  *fetchBatches(size: number): IterableIterator<FetchRecord[]> {
    for (const rows of this.files.batches<FetchRow>('fetch', size)) yield rows.map(fetchFromRow);
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

  /** URLs that already have a fetch record (a resumed fetch skips them). */
  fetchedUrls(): Set<string> {
    return this.files.urlSet('SELECT url FROM fetch');
  }

  getContent(url: string): ContentRecord | undefined {
    const r = this.files.lookup<ContentRow>('SELECT * FROM content WHERE url = ?', url);
    return r && contentFromRow(r);
  }

  *contents(): IterableIterator<ContentRecord> {
    for (const r of this.files.rows<ContentRow>('SELECT * FROM content ORDER BY rowid')) yield contentFromRow(r);
  }

  // ---- parse -----------------------------------------------------------------

  /** The sums over every parse record of numeric parse-meta fields, named by dotted paths. */
  sumParseMeta(paths: readonly string[]): number[] {
    if (paths.some((p) => !/^[A-Za-z_][\w.]*$/.test(p))) throw new Error(`not a parse-meta path: ${paths.join(', ')}`);
    const cols = paths.map((p, i) => `COALESCE(SUM(json_extract(meta, '$.${p}')), 0) AS s${i}`);
    const sums = paths.map(() => 0);
    for (const db of this.files.all) (this.files.q(db, `SELECT ${cols.join(', ')} FROM parse`).raw().get() as number[]).forEach((v, i) => (sums[i]! += v));
    return sums;
  }

  /** True when the URL has a parse record. */
  hasParse(url: string): boolean {
    return this.files.lookup('SELECT 1 FROM parse WHERE url = ?', url) !== undefined;
  }

  /** URLs that already have a parse record. */
  parsedUrls(): Set<string> {
    return this.files.urlSet('SELECT url FROM parse');
  }

  /** Stores parse records in one transaction (fetch records, content and inline parses go through segments/segment-writer.ts). */
  putParses(recs: Iterable<ParseRecord>): void {
    this.db.transaction(() => {
      for (const r of recs) this.stmts.putParse.run(parseParams(r));
    })();
  }

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


  /** What updatedb reads of a parse: its links and meta, without inflating its text. */
  getParseLinks(url: string): ParseLinks | undefined {
    const r = this.files.lookup<ParseLinksRow>('SELECT status, signature, outlinks, meta FROM parse WHERE url = ?', url);
    return r && parseLinksFromRow(r);
  }

  getParse(url: string): ParseRecord | undefined {
    const r = this.files.lookup<ParseRow>('SELECT * FROM parse WHERE url = ?', url);
    return r && parseFromRow(r);
  }

  *parses(): IterableIterator<ParseRecord> {
    for (const r of this.files.rows<ParseRow>('SELECT * FROM parse ORDER BY rowid')) yield parseFromRow(r);
  }

  /** Each parse's URL, status and title, without reading its text (the indexer's site-wide title suffixes). */
  *parseTitles(): IterableIterator<Pick<ParseRecord, 'url' | 'status' | 'title'>> {
    yield* this.files.rows<Pick<ParseRecord, 'url' | 'status' | 'title'>>('SELECT url, status, title FROM parse ORDER BY rowid');
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
