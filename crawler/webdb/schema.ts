/**
 * @module crawler/webdb/schema
 * The WebDB: one SQLite file (`<crawl>/webdb/webdb.sqlite`, WAL mode) holding
 * what Nutch kept in crawldb + linkdb. `pages` follows CrawlDatum: in the
 * WebDB `fetch_time` is the *next* fetch time. Every tool that changes it does
 * so in transactions, so a crash leaves the previous state. The SQL stays
 * plain enough for a PostgreSQL backend to follow.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { HzError } from '../../shared/errors.js';
import type { DbStatus } from '../../shared/status.js';

export const WEBDB_FILE = 'webdb.sqlite';
export const WEBDB_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS pages (
  url             TEXT PRIMARY KEY,
  host            TEXT NOT NULL,
  status          TEXT NOT NULL,              -- db_* (shared/status.ts)
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
CREATE INDEX IF NOT EXISTS pages_due ON pages (fetch_time);
CREATE INDEX IF NOT EXISTS pages_host ON pages (host);
CREATE INDEX IF NOT EXISTS pages_status ON pages (status);

-- Outlinks of every parsed page (updatedb replaces a source's rows when it is re-parsed).
CREATE TABLE IF NOT EXISTS links (
  source TEXT NOT NULL,
  target TEXT NOT NULL,
  anchor TEXT NOT NULL DEFAULT '',
  nav    INTEGER NOT NULL DEFAULT 0,   -- 1: a navigation link (menu, header, footer), kept out of link scores and anchors
  PRIMARY KEY (source, target, anchor)
);
CREATE INDEX IF NOT EXISTS links_target ON links (target);

-- Nutch's LinkDb, built by invertlinks: the inlinks and anchors each URL is indexed with.
CREATE TABLE IF NOT EXISTS inlinks (
  target TEXT NOT NULL,
  source TEXT NOT NULL,
  anchor TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (target, source)
);

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
`;

export interface PageRow {
  url: string;
  host: string;
  status: DbStatus;
  fetch_time: number;
  fetch_interval: number;
  retries: number;
  score: number;
  link_score: number;
  signature: string | null;
  modified_time: number;
  last_fetch_time: number | null;
  generate_time: number | null;
  protocol_status: string | null;
  etag: string | null;
  last_modified: string | null;
  metadata: string | null;
}

export type WebDb = Database.Database;

/** The directory layout: `<webdb dir>/webdb.sqlite`. */
export function webDbFile(dir: string): string {
  return path.join(dir, WEBDB_FILE);
}

/**
 * Opens (and with `create`, creates) the WebDB in `dir`. Read-only opens never
 * create anything, so `readdb` on a wrong path changes nothing.
 */
export function openWebDb(dir: string, opts: { create?: boolean; readonly?: boolean } = {}): WebDb {
  const file = webDbFile(dir);
  if (!fs.existsSync(file)) {
    if (!opts.create || opts.readonly) throw new HzError('HZ_ERR_NOT_FOUND', `no WebDB at ${dir} (expected ${file}); run 'hazelnut inject' first`);
    fs.mkdirSync(dir, { recursive: true });
  }
  const db = new Database(file, { readonly: opts.readonly ?? false });
  if (!opts.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('version', String(WEBDB_VERSION));
  }
  db.pragma('busy_timeout = 5000');
  return db;
}
