/**
 * @module segments/segment
 * A segment: one directory named by its UTC creation time (`yyyyMMddHHmmss`)
 * holding one SQLite file with the fetchlist, a fetch record per URL, the raw
 * content (compressed), and the parse text and data — Nutch's crawl_generate,
 * crawl_fetch, content, parse_text and parse_data, with random access by URL.
 * Each write is a transaction, so a killed fetch leaves every stored record
 * readable and a rerun can skip what is done. Phase markers tell a finished
 * phase from a half-done one. The searcher opens segments read-only.
 *
 * A segment generated for many fetchers (generate -numFetchers) has fetch
 * partitions: each host's URLs belong to one, and each partition is fetched
 * into a segment file of its own inside the segment directory (its `part-*`
 * directory, see openPart). Opened as a whole, the segment reads its own file
 * and every partition's as one: lookups try each, iterations chain them.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { HzError } from '../shared/errors.js';
import { segmentDir, segmentFile, segmentIndexDir, segmentPartDir } from '../shared/crawl-dir.js';
import { CACHE_PRAGMA, WAL_WRITER_PRAGMAS } from '../shared/sqlite.js';
import type { Outlink, ParseMeta } from '../shared/plugin/extension-points.js';
import type { FetchStatus, ProtocolStatus } from '../shared/page-status.js';
import { metaForSummary, readSummaryMeta, summaryPart, type SummaryMeta } from './offsets.js';
import { SummariesFile } from './summaries.js';
import { StoredText, WholeText, type PageText, type TextForm } from './summary-text.js';

export type { Outlink, PageSection, ParseMeta } from '../shared/plugin/extension-points.js';

/** 2: bodies in brotli and parse text as TEXT, which version 1 readers cannot read (this code reads both). */
export const SEGMENT_VERSION = 2;
export const PHASES = ['generated', 'fetched', 'parsed', 'indexed'] as const;
export type Phase = (typeof PHASES)[number];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS fetchlist (
  url   TEXT PRIMARY KEY,
  pos   INTEGER NOT NULL,      -- fetch order (hosts interleaved)
  host  TEXT NOT NULL,
  score REAL NOT NULL,
  datum TEXT NOT NULL          -- JSON: the WebDB row at generate time
);
CREATE TABLE IF NOT EXISTS fetch (
  url             TEXT PRIMARY KEY,
  status          TEXT NOT NULL,   -- fetch_* (shared/page-status.ts)
  protocol_status TEXT NOT NULL,
  http_status     INTEGER,
  fetch_time      INTEGER NOT NULL,
  headers         TEXT NOT NULL,   -- JSON object, lower-case names
  redirect_to     TEXT,
  content_type    TEXT,
  message         TEXT,
  meta            TEXT             -- JSON: extra facts (truncated, charset, redirect hop, …)
);
CREATE TABLE IF NOT EXISTS content (
  url          TEXT PRIMARY KEY,
  content_type TEXT,
  charset      TEXT,
  size         INTEGER NOT NULL,   -- bytes before compression
  truncated    INTEGER NOT NULL DEFAULT 0,
  data         BLOB NOT NULL       -- the raw body, brotli-compressed (zlib in segments written before)
);
CREATE TABLE IF NOT EXISTS parse (
  url       TEXT PRIMARY KEY,
  status    TEXT NOT NULL,         -- success | failed | notparsed
  message   TEXT,
  title     TEXT NOT NULL DEFAULT '',
  text      BLOB,                  -- the parse text as TEXT (deflate-compressed UTF-8 in segments written before)
  lang      TEXT,
  signature TEXT,
  outlinks  TEXT NOT NULL,         -- JSON [{url, anchor}]
  meta      TEXT NOT NULL          -- JSON ParseMeta
);
-- The fetch partition of each fetchlist host (generate -numFetchers); meta 'parts' holds their number.
CREATE TABLE IF NOT EXISTS partition_hosts (
  host TEXT PRIMARY KEY,
  part INTEGER NOT NULL
);
-- What summaries read, as hazelnut wrote it at index time before the segment index's summaries file
-- (segments/summaries.ts) held it; read where a segment's index has no such file, emptied when the
-- segment is indexed again. Older hazelnut wrote summary_text instead (the same columns, the text
-- Latin-1 or, when wide, UTF-16LE), read too.
CREATE TABLE IF NOT EXISTS summary (
  url     TEXT PRIMARY KEY,
  text    BLOB NOT NULL,           -- the start of the parse text (segments/offsets.ts), uncompressed, one byte a code unit
  form    INTEGER NOT NULL,        -- how the text's bytes read (segments/summary-text.ts TextForm): Latin-1, Latin-1 with the code units past U+00FF listed after it, or UTF-16LE where that is smaller
  length  INTEGER NOT NULL,        -- of the whole parse text
  offsets BLOB NOT NULL,           -- where each of its words stands and its inflection class (segments/offsets.ts)
  meta    TEXT NOT NULL            -- the parse meta's sections and furniture that start in the text above (segments/offsets.ts encodeSummaryMeta; JSON before)
);
`;

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

/** A parse record without its text, title and language. */
export type ParseLinks = Pick<ParseRecord, 'status' | 'signature' | 'outlinks' | 'meta'>;

/** A fetch record with what updatedb reads beside it (Segment.fetchUpdates). */
export interface FetchUpdate {
  fetch: FetchRecord;
  /** A successful fetch's parse links. */
  parse: ParseLinks | undefined;
  gen: (FetchlistEntry & { pos: number }) | undefined;
}

/** The start of a page's parse text and where its words stand, stored for summaries at index time. */
export interface SummaryText {
  url: string;
  /** The parse text's first SUMMARY_TEXT_CHARS characters (segments/offsets.ts). */
  text: string;
  /** Of the whole parse text. */
  length: number;
  /** segments/offsets.ts's encoding. */
  offsets: Uint8Array;
  /** What summaries read of the parse meta (segments/offsets.ts summaryMeta). */
  meta: ParseMeta;
}

/** The parts of a parse record a summary needs (Segment.getSummarySource). */
export interface SummarySource {
  /** The start of the parse text summaries read (segments/offsets.ts summaryPart); when stored for summaries, decoded a span at a time. */
  text: PageText;
  /** Of the whole parse text. */
  length: number;
  meta: SummaryMeta;
  /** segments/offsets.ts's encoding, when stored for summaries. */
  offsets?: Uint8Array;
}

/**
 * WAL pages between checkpoints (SQLite's default is 1000). A fetch commits
 * every page on its own, and each checkpoint syncs the file: at 1000 the
 * syncs took two thirds of the fetcher's storage time; at 10000 (a WAL of up
 * to 40 MB) a tenth. Commits stay durable against a killed process either way.
 */
const WAL_CHECKPOINT_PAGES = 10_000;

/** Every writing connection's settings, the writer thread's included. */
export const WRITER_PRAGMAS = [...WAL_WRITER_PRAGMAS, `wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`];

/** The statements that store a fetch, its content and its parse; segments/writer.ts runs them in a worker. */
export const WRITE_SQL = {
  fetch: `INSERT OR REPLACE INTO fetch (url, status, protocol_status, http_status, fetch_time, headers, redirect_to, content_type, message, meta)
          VALUES (@url, @status, @protocolStatus, @httpStatus, @fetchTime, @headers, @redirectTo, @contentType, @message, @meta)`,
  content: 'INSERT OR REPLACE INTO content (url, content_type, charset, size, truncated, data) VALUES (?, ?, ?, ?, ?, ?)',
  parse: `INSERT OR REPLACE INTO parse (url, status, message, title, text, lang, signature, outlinks, meta)
          VALUES (@url, @status, @message, @title, @text, @lang, @signature, @outlinks, @meta)`,
} as const;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `yyyyMMddHHmmss` in UTC. */
export function segmentName(d: Date): string {
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** The creation time a segment name stands for, or undefined if it is not a segment name. */
export function segmentDate(name: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(name);
  if (!m) return undefined;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
  return segmentName(d) === name ? d : undefined;
}

/** Segment names under `segmentsDir`, oldest first. Directories without a segment file are ignored. */
export function listSegments(segmentsDir: string): string[] {
  if (!fs.existsSync(segmentsDir)) return [];
  return fs
    .readdirSync(segmentsDir)
    .filter((n) => segmentDate(n) && fs.existsSync(segmentFile(segmentDir(segmentsDir, n))))
    .sort();
}

const inflate = (b: Buffer) => zlib.inflateSync(b);
/** A stored body: brotli, whose first byte the writer thread keeps odd, or zlib (first byte even) in segments written before. */
const unpackBody = (b: Buffer) => (b[0]! & 1 ? zlib.brotliDecompressSync(b) : inflate(b));
const parseText = (t: string | Buffer | null) => (typeof t === 'string' ? t : t ? inflate(t).toString('utf8') : '');


export class Segment {
  readonly name: string;
  private readonly stmts: ReturnType<Segment['prepare']>;
  /** This segment's file, then its partitions' files (read-only). */
  private readonly all: Database.Database[];
  private readonly prepared = new Map<Database.Database, Map<string, Database.Statement>>();
  /** The tables summaries are read from, newest first (the summary table, then the summary_text of older hazelnut), as the segment holds them. */
  private summaryTables: string[] | undefined;
  /** The segment index's summaries file, opened when first read (null: none, or one that cannot be read). */
  private summaries: SummariesFile | null | undefined;
  /** Why the segment index's summaries file cannot be read, if it cannot: summaries come from the parse text meanwhile. */
  summariesProblem: string | undefined;

  private constructor(
    readonly dir: string,
    private readonly db: Database.Database,
    private readonly parts: Database.Database[] = [],
  ) {
    this.name = path.basename(dir);
    this.stmts = this.prepare();
    this.all = [db, ...parts];
  }

  /** The segment's database file (segments/writer.ts opens its own connection to it). */
  get file(): string {
    return this.db.name;
  }

  /**
   * Creates a new segment named after `now` (UTC). When that name is taken the
   * next free second is used, so two segments made in one second stay distinct
   * and still sort by age.
   */
  static create(segmentsDir: string, now: Date = new Date()): Segment {
    fs.mkdirSync(segmentsDir, { recursive: true });
    let t = Math.floor(now.getTime() / 1000) * 1000;
    for (;;) {
      const dir = path.join(segmentsDir, segmentName(new Date(t)));
      try {
        fs.mkdirSync(dir);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
          t += 1000;
          continue;
        }
        throw e;
      }
      makeFile(segmentFile(dir), () => {});
      const db = new Database(segmentFile(dir));
      for (const p of WRITER_PRAGMAS) db.pragma(p);
      return new Segment(dir, db);
    }
  }

  static open(dir: string, opts: { readonly?: boolean } = {}): Segment {
    const file = segmentFile(dir);
    if (!fs.existsSync(file)) throw new HzError('HZ_ERR_NOT_FOUND', `${dir} is not a segment (no ${path.basename(file)})`);
    let db: Database.Database;
    try {
      db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: true });
      if (opts.readonly) db.pragma(CACHE_PRAGMA);
      else {
        for (const p of WRITER_PRAGMAS) db.pragma(p);
        db.exec(SCHEMA);
      }
      const v = db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as { value: string } | undefined;
      if (!v || Number(v.value) > SEGMENT_VERSION)
        throw new Error(`segment format version ${v?.value ?? 'missing'}, this hazelnut reads ${SEGMENT_VERSION}`);
    } catch (e) {
      throw new HzError('HZ_ERR_SEGMENT_CORRUPT', `segment ${dir} cannot be read: ${(e as Error).message}`);
    }
    const parts: Database.Database[] = [];
    try {
      const n = Number((db.prepare("SELECT value FROM meta WHERE key = 'parts'").get() as { value: string } | undefined)?.value ?? 0);
      for (let i = 0; i < n; i++) {
        const file = segmentFile(segmentPartDir(dir, i));
        // A partition no fetcher has started yet has no file.
        if (!fs.existsSync(file)) continue;
        const part = new Database(file, { readonly: true, fileMustExist: true });
        parts.push(part);
        part.pragma(CACHE_PRAGMA);
      }
    } catch (e) {
      for (const p of parts) p.close();
      db.close();
      throw new HzError('HZ_ERR_SEGMENT_CORRUPT', `segment ${dir}: a fetch partition cannot be read: ${(e as Error).message}`);
    }
    return new Segment(dir, db, parts);
  }

  /** A prepared statement on one of the segment's files. */
  private q(db: Database.Database, sql: string): Database.Statement {
    let m = this.prepared.get(db);
    if (!m) this.prepared.set(db, (m = new Map()));
    let st = m.get(sql);
    if (!st) m.set(sql, (st = db.prepare(sql)));
    return st;
  }

  /** The first row `sql` finds for `url` in the segment's files. */
  private lookup<R>(sql: string, url: string): R | undefined {
    for (const db of this.all) {
      const r = this.q(db, sql).get(url);
      if (r !== undefined) return r as R;
    }
    return undefined;
  }

  /** The rows of `sql` from every file, a URL once (a redirect may lead two partitions to one URL). */
  private *rows<R extends { url: string }>(sql: string, skip?: Set<string>): IterableIterator<R> {
    const seen = this.parts.length ? new Set(skip) : undefined;
    for (const db of this.all)
      for (const r of this.q(db, sql).iterate() as Iterable<R>) {
        if (seen?.has(r.url)) continue;
        seen?.add(r.url);
        yield r;
      }
  }

  /** A set of the URLs `sql` selects in every file. */
  private urlSet(sql: string): Set<string> {
    const out = new Set<string>();
    for (const db of this.all) for (const u of this.q(db, sql).pluck().all() as string[]) out.add(u);
    return out;
  }

  /** The sum of a count `sql` over every file. */
  private sum(sql: string, ...params: unknown[]): number {
    let n = 0;
    for (const db of this.all) n += this.q(db, sql).pluck().get(...params) as number;
    return n;
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
      const r = this.q(p, 'SELECT value FROM meta WHERE key = ?').get(`phase.${phase}`) as { value: string } | undefined;
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
    if (!fs.existsSync(segmentFile(dir))) {
      const rows = this.db
        .prepare('SELECT f.url, f.pos, f.host, f.score, f.datum FROM fetchlist f JOIN partition_hosts h ON h.host = f.host WHERE h.part = ? ORDER BY f.pos')
        .all(part);
      const generated = this.phase('generated');
      fs.mkdirSync(dir, { recursive: true });
      makeFile(segmentFile(dir), (db) => {
        const add = db.prepare('INSERT INTO fetchlist (url, pos, host, score, datum) VALUES (@url, @pos, @host, @score, @datum)');
        for (const r of rows) add.run(r);
        db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('part', String(part));
        if (generated !== undefined) db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('phase.generated', String(generated));
      });
    }
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
    return this.sum(`SELECT COUNT(*) FROM ${table}`);
  }

  /** The fetchlist entry of a URL with its position in fetch order. */
  fetchlistEntry(url: string): (FetchlistEntry & { pos: number }) | undefined {
    const r = this.q(this.db, 'SELECT * FROM fetchlist WHERE url = ?').get(url) as FetchlistRow | undefined;
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
    const keyed = [...this.urlSet(sql)].map((u) => [Buffer.from(u), u] as const);
    return keyed.sort((a, b) => Buffer.compare(a[0], b[0])).map(([, u]) => u);
  }

  // ---- fetch records and content -------------------------------------------

  /** The first and last fetch time, null when nothing was fetched. */
  fetchTimes(): { first: number | null; last: number | null } {
    let first: number | null = null;
    let last: number | null = null;
    for (const db of this.all) {
      const t = this.q(db, 'SELECT MIN(fetch_time) AS a, MAX(fetch_time) AS b FROM fetch').get() as { a: number | null; b: number | null };
      if (t.a !== null && (first === null || t.a < first)) first = t.a;
      if (t.b !== null && (last === null || t.b > last)) last = t.b;
    }
    return { first, last };
  }

  /** Fetch records that ended with this protocol status. */
  countFetches(status: ProtocolStatus): number {
    return this.sum('SELECT COUNT(*) FROM fetch WHERE protocol_status = ?', status);
  }

  /** The size of a URL's stored content before compression. */
  contentSize(url: string): number | undefined {
    return this.lookup<{ size: number }>('SELECT size FROM content WHERE url = ?', url)?.size;
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
    for (const r of this.rows<ContentRow>('SELECT * FROM content ORDER BY rowid', this.parsedUrls())) yield contentFromRow(r);
  }

  getFetch(url: string): FetchRecord | undefined {
    const r = this.lookup<FetchRow>('SELECT * FROM fetch WHERE url = ?', url);
    return r && fetchFromRow(r);
  }

  *fetches(): IterableIterator<FetchRecord> {
    for (const r of this.rows<FetchRow>('SELECT * FROM fetch ORDER BY rowid')) yield fetchFromRow(r);
  }

  /**
   * The fetch records in the order fetches() gives them, `size` at a time.
   * Each batch is read whole before it is handed over, so memory stays
   * bounded and the caller may write to the segment between batches (a
   * connection cannot write while one of its reads is open).
   */
  *fetchBatches(size: number): IterableIterator<FetchRecord[]> {
    for (let i = 0; i < this.all.length; i++) {
      const db = this.all[i]!;
      const earlier = this.all.slice(0, i);
      for (let after = 0; ; ) {
        const rows = this.q(db, 'SELECT rowid AS rid, * FROM fetch WHERE rowid > ? ORDER BY rowid LIMIT ?').all(after, size) as (FetchRow & { rid: number })[];
        if (rows.length === 0) break;
        after = rows[rows.length - 1]!.rid;
        // A URL in two files (a redirect led two partitions to it) comes once, from the first.
        const fresh = rows.filter((r) => !earlier.some((e) => this.q(e, 'SELECT 1 FROM fetch WHERE url = ?').get(r.url) !== undefined));
        if (fresh.length) yield fresh.map(fetchFromRow);
      }
    }
  }

  /**
   * What updatedb reads of each fetch record, in fetches() order: the record,
   * a successful fetch's parse links (getParseLinks) and its fetchlist entry
   * (fetchlistEntry). The segment's own file is read in one joined query, not
   * three lookups a page; a partition's records, whose fetchlist entries are
   * this file's and whose parses may be, take the lookups.
   */
  *fetchUpdates(): IterableIterator<FetchUpdate> {
    const seen = this.parts.length ? new Set<string>() : undefined;
    for (const db of this.all) {
      const own = db === this.db;
      for (const r of this.q(db, own ? FETCH_UPDATES_SQL : 'SELECT * FROM fetch ORDER BY rowid').iterate() as Iterable<FetchUpdateRow>) {
        if (seen?.has(r.url)) continue;
        seen?.add(r.url);
        const fetch = fetchFromRow(r);
        const parse =
          fetch.status !== 'fetch_success'
            ? undefined
            : own && r.p_status !== null
              ? parseLinksFromRow({ status: r.p_status, signature: r.p_signature, outlinks: r.p_outlinks!, meta: r.p_meta! })
              : this.getParseLinks(r.url);
        const gen = !own ? this.fetchlistEntry(r.url) : r.l_pos === null ? undefined : fetchlistFromRow({ url: r.url, pos: r.l_pos, host: r.l_host!, score: r.l_score!, datum: r.l_datum! });
        yield { fetch, parse, gen };
      }
    }
  }

  /** URLs that already have a fetch record (a resumed fetch skips them). */
  fetchedUrls(): Set<string> {
    return this.urlSet('SELECT url FROM fetch');
  }

  getContent(url: string): ContentRecord | undefined {
    const r = this.lookup<ContentRow>('SELECT * FROM content WHERE url = ?', url);
    return r && contentFromRow(r);
  }

  *contents(): IterableIterator<ContentRecord> {
    for (const r of this.rows<ContentRow>('SELECT * FROM content ORDER BY rowid')) yield contentFromRow(r);
  }

  // ---- parse -----------------------------------------------------------------

  /** The sums over every parse record of numeric parse-meta fields, named by dotted paths. */
  sumParseMeta(paths: readonly string[]): number[] {
    if (paths.some((p) => !/^[A-Za-z_][\w.]*$/.test(p))) throw new Error(`not a parse-meta path: ${paths.join(', ')}`);
    const cols = paths.map((p, i) => `COALESCE(SUM(json_extract(meta, '$.${p}')), 0) AS s${i}`);
    const sums = paths.map(() => 0);
    for (const db of this.all) (this.q(db, `SELECT ${cols.join(', ')} FROM parse`).raw().get() as number[]).forEach((v, i) => (sums[i]! += v));
    return sums;
  }

  /** True when the URL has a parse record. */
  hasParse(url: string): boolean {
    return this.lookup('SELECT 1 FROM parse WHERE url = ?', url) !== undefined;
  }

  /** URLs that already have a parse record. */
  parsedUrls(): Set<string> {
    return this.urlSet('SELECT url FROM parse');
  }

  /** Stores parse records in one transaction (fetch records, content and inline parses go through segments/writer.ts). */
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
    for (const table of this.summaryTablesHeld()) this.db.exec(`DELETE FROM ${table}`);
  }

  /** The tables summaries are read from, as this segment holds them (looked up once). */
  private summaryTablesHeld(): string[] {
    return (this.summaryTables ??= this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('summary', 'summary_text') ORDER BY name").pluck().all() as string[]);
  }

  /**
   * Calls `use` with what a summary reads and returns what it returns
   * (undefined when the segment has no parse of `url`): the stored summary
   * text with its word offsets (the segment index's summaries file, else
   * the summary tables of a segment indexed by older hazelnut), else (a
   * segment indexed before they were stored, or a page indexed from other
   * text) the whole parse text; and the parse meta. The source lives as long
   * as the call: a summaries file reuses its bytes for the next record.
   */
  withSummarySource<T>(url: string, use: (src: SummarySource) => T): T | undefined {
    if (this.summaries === undefined) this.summaries = this.openSummaries();
    const stored = this.summaries?.withRecord(url, use);
    if (stored) return stored.value;
    for (const table of this.summaryTablesHeld()) {
      const s = this.q(this.db, `SELECT text, ${table === 'summary' ? 'form' : 'wide'} AS form, length, offsets, meta FROM ${table} WHERE url = ?`).get(url) as
        | { text: Buffer; form: TextForm; length: number; offsets: Buffer; meta: string }
        | undefined;
      if (s) return use({ text: new StoredText(s.text, s.form), length: s.length, meta: readSummaryMeta(s.meta), offsets: s.offsets });
    }
    const r = this.lookup<Pick<ParseRow, 'text' | 'meta'>>('SELECT text, meta FROM parse WHERE url = ?', url);
    if (!r) return undefined;
    const text = parseText(r.text);
    return use({ text: new WholeText(summaryPart(text)), length: text.length, meta: metaForSummary(JSON.parse(r.meta) as ParseMeta) });
  }

  /** What updatedb reads of a parse: its links and meta, without inflating its text. */
  getParseLinks(url: string): ParseLinks | undefined {
    const r = this.lookup<ParseLinksRow>('SELECT status, signature, outlinks, meta FROM parse WHERE url = ?', url);
    return r && parseLinksFromRow(r);
  }

  getParse(url: string): ParseRecord | undefined {
    const r = this.lookup<ParseRow>('SELECT * FROM parse WHERE url = ?', url);
    return r && parseFromRow(r);
  }

  *parses(): IterableIterator<ParseRecord> {
    for (const r of this.rows<ParseRow>('SELECT * FROM parse ORDER BY rowid')) yield parseFromRow(r);
  }

  /** Each parse's URL, status and title, without reading its text (the indexer's site-wide title suffixes). */
  *parseTitles(): IterableIterator<Pick<ParseRecord, 'url' | 'status' | 'title'>> {
    yield* this.rows<Pick<ParseRecord, 'url' | 'status' | 'title'>>('SELECT url, status, title FROM parse ORDER BY rowid');
  }

  /** The summaries file, or null; a file that cannot be read is a problem to report, not a failed summary. */
  private openSummaries(): SummariesFile | null {
    try {
      return SummariesFile.open(segmentIndexDir(this.dir)) ?? null;
    } catch (e) {
      if (!(e instanceof HzError)) throw e;
      this.summariesProblem = e.message;
      return null;
    }
  }

  /** Reads the summaries file anew at the next summary (the segment has been indexed again since it was opened). */
  reopenSummaries(): void {
    this.summaries?.close();
    this.summaries = undefined;
    this.summariesProblem = undefined;
  }

  close(): void {
    this.reopenSummaries();
    for (const db of this.all) if (db.open) db.close();
  }
}

/**
 * Makes a segment file: schema, version, then `fill`, under another name,
 * renamed into place at the end: a process killed meanwhile leaves no file
 * that cannot open. Nothing else sees the file before the rename, so it is
 * written in one transaction without a journal and made durable by one
 * fsync before the rename (a journal and its syncs cost a crawl round about
 * seven fsyncs more).
 */
function makeFile(file: string, fill: (db: Database.Database) => void): void {
  const made = `${file}.new`;
  fs.rmSync(made, { force: true });
  const init = new Database(made);
  // Pages of 16 KiB hold a typical compressed page body without overflow chains: half the insert cost of 4 KiB.
  init.pragma('page_size = 16384');
  init.pragma(CACHE_PRAGMA);
  init.pragma('journal_mode = OFF');
  init.pragma('synchronous = OFF');
  init.transaction(() => {
    init.exec(SCHEMA);
    init.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('version', String(SEGMENT_VERSION));
    fill(init);
  })();
  init.pragma('journal_mode = WAL');
  init.close();
  const fd = fs.openSync(made, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(made, file);
}

interface FetchRow {
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
interface ContentRow {
  url: string;
  content_type: string | null;
  charset: string | null;
  size: number;
  truncated: number;
  data: Buffer;
}
interface ParseRow {
  url: string;
  status: ParseRecord['status'];
  message: string | null;
  title: string;
  /** A string, or deflated UTF-8 in a segment written before the text was stored as it is. */
  text: string | Buffer | null;
  lang: string | null;
  signature: string | null;
  outlinks: string;
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

type ParseLinksRow = Pick<ParseRow, 'status' | 'signature' | 'outlinks' | 'meta'>;
type FetchlistRow = { url: string; pos: number; host: string; score: number; datum: string };
/** A fetch row with its parse's links and its fetchlist row, null where the URL has none. */
type FetchUpdateRow = FetchRow & { p_status: ParseRow['status'] | null; p_signature: string | null; p_outlinks: string | null; p_meta: string | null } & {
  l_pos: number | null;
  l_host: string | null;
  l_score: number | null;
  l_datum: string | null;
};
const FETCH_UPDATES_SQL = `SELECT f.*, p.status AS p_status, p.signature AS p_signature, p.outlinks AS p_outlinks, p.meta AS p_meta,
  l.pos AS l_pos, l.host AS l_host, l.score AS l_score, l.datum AS l_datum
  FROM fetch f LEFT JOIN parse p ON p.url = f.url LEFT JOIN fetchlist l ON l.url = f.url ORDER BY f.rowid`;

function parseLinksFromRow(r: ParseLinksRow): ParseLinks {
  return { status: r.status, signature: r.signature, outlinks: JSON.parse(r.outlinks), meta: JSON.parse(r.meta) };
}

function fetchlistFromRow(r: FetchlistRow): FetchlistEntry & { pos: number } {
  return { url: r.url, pos: r.pos, host: r.host, score: r.score, datum: JSON.parse(r.datum) };
}

function fetchFromRow(r: FetchRow): FetchRecord {
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

function contentFromRow(r: ContentRow): ContentRecord {
  return { url: r.url, contentType: r.content_type, charset: r.charset, truncated: r.truncated === 1, bytes: unpackBody(r.data) };
}

/**
 * The parse statement's parameters. The text is stored as it is: deflating
 * it took an eighth of the fetch phase's CPU (and the index inflated it again)
 * to save about 8 KB a page on disk.
 */
export function parseParams(rec: ParseRecord) {
  return {
    url: rec.url,
    status: rec.status,
    message: rec.message ?? null,
    title: rec.title,
    text: rec.text,
    lang: rec.lang ?? null,
    signature: rec.signature ?? null,
    outlinks: JSON.stringify(rec.outlinks),
    meta: JSON.stringify(rec.meta),
  };
}

function parseFromRow(r: ParseRow): ParseRecord {
  return {
    url: r.url,
    status: r.status,
    message: r.message,
    title: r.title,
    text: parseText(r.text),
    lang: r.lang,
    signature: r.signature,
    outlinks: JSON.parse(r.outlinks),
    meta: JSON.parse(r.meta),
  };
}
