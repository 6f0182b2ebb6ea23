/**
 * @module segments/schema
 * The segment file's tables and format version, the statements the writer
 * thread stores with, and how a new file (a segment's, a fetch partition's)
 * is made: whole or not at all.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import { segmentFile } from '../shared/crawl-dir.js';
import { CACHE_PRAGMA, WAL_WRITER_PRAGMAS } from '../shared/sqlite.js';

/**
 * 8: parse rows keyed by their fetch row's rowid too (parse_rows), without a
 * URL or an index of their own; a parse stored in a file without the page's
 * fetch row (the parse tool's, in the segment's own file, of a page fetched
 * into a partition's) keeps its URL (parse_urls); `parse` is a view of both,
 * as the table of that name was. Upgraded and refused as format 7 is.
 * 7: content rows keyed by their fetch row's rowid (content_rows), without a
 * URL or an index of their own, and read through the view content as the
 * table of that name was. A writing open migrates a file of format 6 or
 * older (segments/upgrade.ts); a read-only one reads it as it is, and a
 * reader of format 6 refuses a file of format 7 by this number.
 * 6: the parse meta and the fetchlist's datum compressed as the outlinks are
 * (brotli when long), which a version 5 reader would take for JSON text and
 * fail on.
 * 5: bodies deflated against a dictionary of their host (the dictionary
 * table; segments/writer-worker.js), which a version 4 reader cannot inflate.
 * 4: the parse text deflated with the page's stored body as its dictionary
 * (segments/packing.ts), which a version 3 reader cannot inflate.
 * 3: parse text and long outlink lists brotli-compressed, which a version 2
 * reader would take for deflate, or JSON, and fail on: it refuses the file
 * by this number instead.
 * 2: bodies in brotli and parse text as TEXT. This code reads all three, and
 * marks an older file it writes to with this version.
 */
export const SEGMENT_VERSION = 8;

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS fetchlist (
  url   TEXT PRIMARY KEY,
  pos   INTEGER NOT NULL,      -- fetch order (hosts interleaved)
  host  TEXT NOT NULL,
  score REAL NOT NULL,
  datum TEXT NOT NULL          -- JSON: the WebDB row at generate time, brotli-compressed when long (TEXT, as it is, in segments written before format 6)
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
-- A page's content row has its fetch row's rowid for its own (format 7; the fetcher stores both in one file, where a
-- parse may be stored in the segment's file for a page fetched into a partition's): the URL stored in fetch only.
CREATE TABLE IF NOT EXISTS content_rows (
  id           INTEGER PRIMARY KEY, -- fetch.rowid
  content_type TEXT,
  charset      TEXT,
  size         INTEGER NOT NULL,   -- bytes before compression
  truncated    INTEGER NOT NULL DEFAULT 0,
  data         BLOB NOT NULL       -- the raw body: deflated against its host's dictionary (a zlib stream naming it), or brotli-compressed (segments/packing.ts; zlib in segments written before)
);
CREATE VIEW IF NOT EXISTS content AS
  SELECT c.id AS rowid, f.url, c.content_type, c.charset, c.size, c.truncated, c.data FROM content_rows c JOIN fetch f ON f.rowid = c.id;
-- What the bodies of a host are deflated against (segments/writer-worker.js): one a host in a file.
CREATE TABLE IF NOT EXISTS dictionary (
  id   BLOB PRIMARY KEY,           -- its Adler-32, as the zlib streams deflated against it name it (their bytes 2–5)
  host TEXT NOT NULL UNIQUE,
  data BLOB NOT NULL               -- up to 32 KB, brotli-compressed
);
-- A page's parse row has its fetch row's rowid for its own (format 8), as its content row has, where the file holds the
-- fetch row; the parse tool stores a page fetched into a partition's file in the segment's own, by URL (parse_urls).
CREATE TABLE IF NOT EXISTS parse_rows (
  id        INTEGER PRIMARY KEY,   -- fetch.rowid
  status    TEXT NOT NULL,         -- success | failed | notparsed
  message   TEXT,
  title     TEXT NOT NULL DEFAULT '',
  text      BLOB,                  -- the parse text: deflated against the content's body, or brotli-compressed UTF-8 (segments/packing.ts; TEXT, or deflated, in segments written before)
  lang      TEXT,
  signature TEXT,
  outlinks  BLOB NOT NULL,         -- JSON [{url, anchor}], brotli-compressed when long (TEXT, as it is, in segments written before)
  meta      TEXT NOT NULL          -- JSON ParseMeta, brotli-compressed when long (TEXT, as it is, in segments written before format 6)
);
CREATE TABLE IF NOT EXISTS parse_urls (
  url       TEXT PRIMARY KEY,
  status    TEXT NOT NULL,         -- as in parse_rows
  message   TEXT,
  title     TEXT NOT NULL DEFAULT '',
  text      BLOB,
  lang      TEXT,
  signature TEXT,
  outlinks  BLOB NOT NULL,
  meta      TEXT NOT NULL
);
CREATE VIEW IF NOT EXISTS parse AS
  SELECT p.id AS rowid, f.url, p.status, p.message, p.title, p.text, p.lang, p.signature, p.outlinks, p.meta FROM parse_rows p JOIN fetch f ON f.rowid = p.id
  UNION ALL SELECT rowid, url, status, message, title, text, lang, signature, outlinks, meta FROM parse_urls;
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

/**
 * The page size of a new segment file. A row holds its page whole up to the page size, so 16 KiB pages held
 * two or three 6–7 KB bodies and a fifth of each page empty (the crawl benchmark's web); at 4 KiB a body of
 * 3–4 KB (the generated web's, deflated) still took a leaf page of its own and left a sixth of the content
 * table empty. A longer row fills whole overflow pages and leaves the rest, up to a page, in its leaf, where
 * a rest over half a page leaves the leaf half empty: at 1 KiB the parse rows (about 0.8 KB each) took a leaf
 * each and left a quarter of it empty. At 512 bytes the growth crawl's segment file at 10k took 5.10 → 4.94
 * KB a page (content 3.85 → 3.78, parse 1.01 → 0.88), for about 3 µs more SQLite CPU a parse row read with
 * its body (29 against 26, beside some 140 of inflating them).
 * A file of an older format is vacuumed into it when a writing open upgrades it and no other connection
 * has it open (segments/upgrade.ts).
 */
export const SEGMENT_PAGE_BYTES = 512;

/**
 * WAL bytes between checkpoints (SQLite's default is 1000 pages). A fetch commits every page on its own,
 * and each checkpoint syncs the file: at 1000 pages (of 4 KiB then) the syncs took two thirds of the
 * fetcher's storage time; at 10,000 a tenth. Kept at the 10 MB that was at 1 KiB pages, in bytes as the
 * page size changes. Commits stay durable against a killed process either way.
 */
const WAL_CHECKPOINT_BYTES = 10_000 * 1024;

/** Every writing connection's settings, the writer thread's included. */
export const WRITER_PRAGMAS = [...WAL_WRITER_PRAGMAS, `wal_autocheckpoint = ${WAL_CHECKPOINT_BYTES / SEGMENT_PAGE_BYTES}`];

/** The statements that store a fetch, its content and its parse; segments/segment-writer.ts runs them in a worker. */
export const WRITE_SQL = {
  // An upsert, not a replace: the fetch row keeps its rowid, which its content row is keyed by.
  fetch: `INSERT INTO fetch (url, status, protocol_status, http_status, fetch_time, headers, redirect_to, content_type, message, meta)
          VALUES (@url, @status, @protocolStatus, @httpStatus, @fetchTime, @headers, @redirectTo, @contentType, @message, @meta)
          ON CONFLICT (url) DO UPDATE SET status = excluded.status, protocol_status = excluded.protocol_status, http_status = excluded.http_status,
            fetch_time = excluded.fetch_time, headers = excluded.headers, redirect_to = excluded.redirect_to, content_type = excluded.content_type,
            message = excluded.message, meta = excluded.meta`,
  // Nothing where the URL has no fetch row (the fetch is stored first): the writer refuses a write that changed nothing.
  content: `INSERT OR REPLACE INTO content_rows (id, content_type, charset, size, truncated, data)
            SELECT f.rowid, v.column2, v.column3, v.column4, v.column5, v.column6 FROM (VALUES (?, ?, ?, ?, ?, ?)) v JOIN fetch f ON f.url = v.column1`,
  // Nothing where the URL has no fetch row in the file: its parse is stored by URL (parseByUrl) instead.
  parse: `INSERT OR REPLACE INTO parse_rows (id, status, message, title, text, lang, signature, outlinks, meta)
          SELECT f.rowid, @status, @message, @title, @text, @lang, @signature, @outlinks, @meta FROM fetch f WHERE f.url = @url`,
  parseByUrl: `INSERT OR REPLACE INTO parse_urls (url, status, message, title, text, lang, signature, outlinks, meta)
               VALUES (@url, @status, @message, @title, @text, @lang, @signature, @outlinks, @meta)`,
} as const;

/**
 * Makes a segment file: schema, version, then `fill`, under another name,
 * renamed into place at the end: a process killed meanwhile leaves no file
 * that cannot open. Nothing else sees the file before the rename, so it is
 * written in one transaction without a journal and made durable by one
 * fsync before the rename (a journal and its syncs cost a crawl round about
 * seven fsyncs more).
 */
export function makeFile(file: string, fill: (db: Database.Database) => void): void {
  const made = `${file}.new`;
  fs.rmSync(made, { force: true });
  const init = new Database(made);
  init.pragma(`page_size = ${SEGMENT_PAGE_BYTES}`);
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

/** Makes the file of fetch partition `part` in `dir`, holding the partition's share of the fetchlist in `whole` and its generate time. */
export function makePartFile(whole: Database.Database, dir: string, part: number, generated: number | undefined): void {
  const rows = whole
    .prepare('SELECT f.url, f.pos, f.host, f.score, f.datum FROM fetchlist f JOIN partition_hosts h ON h.host = f.host WHERE h.part = ? ORDER BY f.pos')
    .all(part);
  fs.mkdirSync(dir, { recursive: true });
  makeFile(segmentFile(dir), (db) => {
    const add = db.prepare('INSERT INTO fetchlist (url, pos, host, score, datum) VALUES (@url, @pos, @host, @score, @datum)');
    for (const r of rows) add.run(r);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('part', String(part));
    if (generated !== undefined) db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('phase.generated', String(generated));
  });
}
