/**
 * @module crawler/webdb/sqlite/schema
 * The WebDB's SQLite tables: one file (`<crawl>/webdb/webdb.sqlite`, WAL
 * mode). `pages` follows CrawlDatum (webdb.ts's PageRow).
 */
/**
 * 5: pages keyed by their URL's number (page_rows; the URL stored once, in
 * urls, with one index on it: 0.1 KB a page), `pages` a view that shows them
 * by URL and takes writes as the table did; and an anchor a link row holds
 * kept there only again where a re-applied updatedb had copied it into the
 * inlink (a WebDB whose segments were applied again without invertlinks).
 * 4: inlinks keyed by target and source, with no index on the source (0.22
 * KB a page at 100k): a re-parsed page's old inlinks are found through its
 * link rows, and the targets its replaced links named wait in link_gone for
 * invertlinks, which finds them by their source no more.
 * 3: an inlink keeps its anchor once, in the link row it came from (its
 * anchor NULL); the inlinks of a target are the rows of a table keyed by
 * target and stored order, the links keyed by target, source and stored
 * order (no rowids, no index on the target), and pages have no index on
 * their host: the growth crawl's WebDB at 10k took 18.7 → 14.7 MB.
 * 2: links and inlinks name their URLs by number (the urls table), a quarter
 * of the file format 1 took; `links` and `inlinks` are views. A writing open
 * migrates a file of format 1 or 2 (sqlite/migrate.ts); a read-only one
 * refuses it.
 */
export const WEBDB_VERSION = 5;

/**
 * The anchor an inlink with a NULL anchor has: the first one of its source's
 * links to its target outside navigation, the one invertlinks chooses
 * (crawler/invertlinks.ts invertRows), found in link_rows' key order with
 * no sort (the key named: the planner takes link_rows_source, smaller, then
 * reads the row by its key a second time). invertlinks stores NULL only where this gives what it chose, and
 * updatedb writes it into the inlink before it replaces the link rows it is
 * read from.
 */
export const linkAnchor = (target: string, source: string): string =>
  `(SELECT l.anchor FROM link_rows l INDEXED BY sqlite_autoindex_link_rows_1 WHERE l.target = ${target} AND l.source = ${source} AND l.nav = 0 AND l.anchor <> '' ORDER BY l.seq LIMIT 1)`;

/** A page's columns after its URL, as the pages view shows them. */
export const PAGE_COLUMNS =
  'host, status, fetch_time, fetch_interval, retries, score, link_score, signature, modified_time, last_fetch_time, generate_time, protocol_status, etag, last_modified, metadata';
/** The columns with a default, which an insert through the view may omit. */
const DEFAULTS: Record<string, number> = { retries: 0, link_score: 0, modified_time: 0 };

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- A page's row has its URL's number (urls.id) for its own: the URL is stored once, in urls, with one index on it.
CREATE TABLE IF NOT EXISTS page_rows (
  id              INTEGER PRIMARY KEY,        -- urls.id
  host            TEXT NOT NULL,
  status          TEXT NOT NULL,              -- db_* (shared/page-status.ts)
  fetch_time      INTEGER NOT NULL,           -- ms: when the page is next due
  fetch_interval  INTEGER NOT NULL,           -- s
  retries         INTEGER NOT NULL DEFAULT 0, -- since the last successful fetch
  score           REAL NOT NULL,              -- OPIC cash (scoring-opic)
  link_score      REAL NOT NULL DEFAULT 0,    -- PageRank-style score, the index boost
  signature       TEXT,                       -- hex digest of the last fetched content
  modified_time   INTEGER NOT NULL DEFAULT 0, -- ms, last time the content changed
  last_fetch_time INTEGER,                    -- ms, when it was last fetched
  generate_time   INTEGER,                    -- ms, Nutch's _ngt_: generated, awaiting updatedb
  protocol_status TEXT,                       -- why the last fetch ended so
  etag            TEXT,                       -- for If-None-Match
  last_modified   TEXT,                       -- Last-Modified header, for If-Modified-Since
  metadata        TEXT                        -- JSON object: seed metadata, _repr_, …
);
CREATE INDEX IF NOT EXISTS pages_due ON page_rows (fetch_time);
-- No index on the host (format 2 had one): no statement selects pages by host.
CREATE INDEX IF NOT EXISTS pages_status ON page_rows (status);

-- Every URL the pages and link tables name, once: they hold its number (a URL is about 46 bytes, a number 3).
-- A URL no link names any more keeps its row (a few dozen bytes), so a number never changes meaning.
CREATE TABLE IF NOT EXISTS urls (
  id  INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE
);

-- The pages by URL, as formats 1 to 4 stored them: read and written as that table was (a new URL is numbered; the
-- defaults of an omitted column are the table's). Writes through it count no changes: a statement that needs the
-- count writes page_rows (sqlite/pages.ts).
CREATE VIEW IF NOT EXISTS pages AS
  SELECT u.url, ${PAGE_COLUMNS.replace(/\w+/g, 'p.$&')} FROM page_rows p JOIN urls u ON u.id = p.id;
CREATE TRIGGER IF NOT EXISTS pages_insert INSTEAD OF INSERT ON pages BEGIN
  INSERT INTO urls (url) SELECT NEW.url WHERE NOT EXISTS (SELECT 1 FROM urls WHERE url = NEW.url);
  INSERT INTO page_rows (id, ${PAGE_COLUMNS}) VALUES ((SELECT id FROM urls WHERE url = NEW.url), ${PAGE_COLUMNS.replace(/\w+/g, (c) => (c in DEFAULTS ? `COALESCE(NEW.${c}, ${DEFAULTS[c]})` : `NEW.${c}`))});
END;
CREATE TRIGGER IF NOT EXISTS pages_update INSTEAD OF UPDATE ON pages BEGIN
  UPDATE page_rows SET ${PAGE_COLUMNS.replace(/\w+/g, '$& = NEW.$&')} WHERE id = (SELECT id FROM urls WHERE url = OLD.url);
END;
CREATE TRIGGER IF NOT EXISTS pages_delete INSTEAD OF DELETE ON pages BEGIN
  DELETE FROM page_rows WHERE id = (SELECT id FROM urls WHERE url = OLD.url);
END;

-- Outlinks of every parsed page (updatedb replaces a source's rows when it is re-parsed), keyed by target and source
-- (invertlinks reads a target's, linkAnchor a source's to it: no index on them, no rowid), and numbered in the order
-- they were stored (seq; meta 'link_seq' holds the last number given): invertlinks reads a target's anchors in that order.
CREATE TABLE IF NOT EXISTS link_rows (
  target INTEGER NOT NULL,             -- urls.id
  source INTEGER NOT NULL,             -- urls.id
  seq    INTEGER NOT NULL,
  anchor TEXT NOT NULL DEFAULT '',
  nav    INTEGER NOT NULL DEFAULT 0,   -- 1: a navigation link (menu, header, footer), kept out of link scores and anchors
  PRIMARY KEY (target, source, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS link_rows_source ON link_rows (source);
INSERT OR IGNORE INTO meta (key, value) VALUES ('link_seq', '0');

-- Nutch's LinkDb, built by invertlinks: the inlinks and anchors each URL is indexed with, a target's in stored order (seq).
-- Keyed by target and source (a source once a target), with no index on the source: a source's inlinks are found
-- through its link rows (each inlink's source had a link row to its target when invertlinks wrote it), and the
-- targets of the link rows updatedb replaces wait in link_gone.
CREATE TABLE IF NOT EXISTS inlink_rows (
  target INTEGER NOT NULL,             -- urls.id
  source INTEGER NOT NULL,             -- urls.id
  seq    INTEGER NOT NULL,             -- the target's inlinks in stored order, from 0
  anchor TEXT,                         -- NULL: the anchor of a link row, linkAnchor's, kept there only
  PRIMARY KEY (target, source)
) WITHOUT ROWID;

-- Targets whose link rows updatedb removed since invertlinks last ran: invertlinks rebuilds their inlinks, then empties it.
CREATE TABLE IF NOT EXISTS link_gone (target INTEGER PRIMARY KEY);

-- The links and inlinks by URL, as format 1 stored them, for reading the file with sqlite3; seq: the stored order.
CREATE VIEW IF NOT EXISTS links AS
  SELECT s.url AS source, t.url AS target, l.anchor, l.nav, l.seq FROM link_rows l JOIN urls s ON s.id = l.source JOIN urls t ON t.id = l.target;
CREATE VIEW IF NOT EXISTS inlinks AS
  SELECT t.url AS target, s.url AS source, COALESCE(i.anchor, ${linkAnchor('i.target', 'i.source')}, '') AS anchor, i.seq
  FROM inlink_rows i JOIN urls t ON t.id = i.target JOIN urls s ON s.id = i.source;

-- Per-host state: robots.txt (cached at most 24 h, RFC 9309 §2.4) and failures.
CREATE TABLE IF NOT EXISTS hosts (
  host            TEXT PRIMARY KEY,           -- scheme://host[:port]
  robots_status   TEXT,                       -- parsed | allow_all | disallow_all
  robots_txt      TEXT,                       -- body (first 500 KiB) when parsed
  robots_fetched  INTEGER,                    -- ms
  robots_failures INTEGER NOT NULL DEFAULT 0, -- consecutive unreachable answers
  crawl_delay     REAL,                       -- s, from robots.txt for our agent
  fetch_failures  INTEGER NOT NULL DEFAULT 0
);

-- Segments already applied by updatedb / invertlinks, so a second run changes nothing.
CREATE TABLE IF NOT EXISTS applied (
  tool    TEXT NOT NULL,
  segment TEXT NOT NULL,
  at      INTEGER NOT NULL,
  PRIMARY KEY (tool, segment)
);

-- Fetch partitions of segments generated with -numFetchers, leased to fetchers.
CREATE TABLE IF NOT EXISTS partitions (
  segment     TEXT NOT NULL,     -- segment name (yyyyMMddHHmmss)
  part        INTEGER NOT NULL,
  owner       TEXT,              -- the fetcher holding or last holding the lease
  lease_until INTEGER,           -- ms
  done        INTEGER,           -- ms, when completely fetched
  PRIMARY KEY (segment, part)
);

-- How far each fetch partition got, as its holders report it (hazelnut partitions).
CREATE TABLE IF NOT EXISTS partition_progress (
  segment         TEXT NOT NULL,
  part            INTEGER NOT NULL,
  total           INTEGER NOT NULL DEFAULT 0, -- URLs in the partition
  fetched         INTEGER NOT NULL DEFAULT 0, -- URLs with a record, as last reported
  holder          TEXT,                       -- who reported it
  claimed_at      INTEGER,                    -- ms, when that holder claimed the partition
  claimed_fetched INTEGER NOT NULL DEFAULT 0, -- fetched then
  updated_at      INTEGER,                    -- ms, the last report
  PRIMARY KEY (segment, part)
);

-- A partition's segment file, gzipped, for fetchers on other machines (fetch/shipping.ts).
CREATE TABLE IF NOT EXISTS partition_files (
  segment TEXT NOT NULL,
  part    INTEGER NOT NULL,
  kind    TEXT NOT NULL,     -- fetchlist | fetched
  data    BLOB NOT NULL,
  PRIMARY KEY (segment, part, kind)
);
`;
