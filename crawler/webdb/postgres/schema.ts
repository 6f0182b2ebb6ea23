/**
 * @module crawler/webdb/postgres/schema
 * The WebDB's PostgreSQL tables: the SQLite tables (sqlite/schema.ts) column
 * for column, plus a `seq` per row where SQLite's rowid gives an order
 * (pages in the order added, links and inlinks in stored order). Text that
 * is sorted on is compared byte-wise (COLLATE "C"), as SQLite does. Times
 * and scores are double precision: schedules may make fractional intervals.
 *
 * MIGRATIONS[i] takes the schema from version i to i + 1; opening a WebDB
 * for writing applies the ones it lacks, and any open refuses a version
 * newer than WEBDB_VERSION.
 */
export const MIGRATIONS: readonly string[] = [
  `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE pages (
  seq             BIGSERIAL NOT NULL,
  url             TEXT COLLATE "C" PRIMARY KEY,
  host            TEXT COLLATE "C" NOT NULL,
  status          TEXT COLLATE "C" NOT NULL,
  fetch_time      DOUBLE PRECISION NOT NULL,
  fetch_interval  DOUBLE PRECISION NOT NULL,
  retries         INTEGER NOT NULL DEFAULT 0,
  score           DOUBLE PRECISION NOT NULL,
  link_score      DOUBLE PRECISION NOT NULL DEFAULT 0,
  signature       TEXT,
  modified_time   DOUBLE PRECISION NOT NULL DEFAULT 0,
  last_fetch_time DOUBLE PRECISION,
  generate_time   DOUBLE PRECISION,
  protocol_status TEXT,
  etag            TEXT,
  last_modified   TEXT,
  metadata        TEXT
);
CREATE INDEX pages_seq ON pages (seq);
CREATE INDEX pages_due ON pages (fetch_time);
CREATE INDEX pages_host ON pages (host);
CREATE INDEX pages_status ON pages (status);
CREATE INDEX pages_score ON pages (score DESC, url);

CREATE TABLE links (
  seq    BIGSERIAL NOT NULL,
  source TEXT COLLATE "C" NOT NULL,
  target TEXT COLLATE "C" NOT NULL,
  anchor TEXT COLLATE "C" NOT NULL DEFAULT '',
  nav    SMALLINT NOT NULL DEFAULT 0,
  PRIMARY KEY (source, target, anchor)
);
CREATE INDEX links_target ON links (target, nav, seq);

CREATE TABLE inlinks (
  seq    BIGSERIAL NOT NULL,
  target TEXT COLLATE "C" NOT NULL,
  source TEXT COLLATE "C" NOT NULL,
  anchor TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (target, source)
);
CREATE INDEX inlinks_source ON inlinks (source);
CREATE INDEX inlinks_target_seq ON inlinks (target, seq);

CREATE TABLE hosts (
  host            TEXT PRIMARY KEY,
  robots_status   TEXT,
  robots_txt      TEXT,
  robots_fetched  DOUBLE PRECISION,
  robots_failures INTEGER NOT NULL DEFAULT 0,
  crawl_delay     DOUBLE PRECISION,
  fetch_failures  INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE applied (
  tool    TEXT NOT NULL,
  segment TEXT NOT NULL,
  at      DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (tool, segment)
);

CREATE TABLE partitions (
  segment     TEXT NOT NULL,
  part        INTEGER NOT NULL,
  owner       TEXT,
  lease_until DOUBLE PRECISION,
  done        DOUBLE PRECISION,
  PRIMARY KEY (segment, part)
);
`,
  `
CREATE TABLE partition_progress (
  segment         TEXT NOT NULL,
  part            INTEGER NOT NULL,
  total           INTEGER NOT NULL DEFAULT 0,
  fetched         INTEGER NOT NULL DEFAULT 0,
  holder          TEXT,
  claimed_at      DOUBLE PRECISION,
  claimed_fetched INTEGER NOT NULL DEFAULT 0,
  updated_at      DOUBLE PRECISION,
  PRIMARY KEY (segment, part)
);

CREATE TABLE partition_files (
  segment TEXT NOT NULL,
  part    INTEGER NOT NULL,
  kind    TEXT NOT NULL,
  data    BYTEA NOT NULL,
  PRIMARY KEY (segment, part, kind)
);
`,
];

export const WEBDB_VERSION = MIGRATIONS.length;

/** PageRow's columns, in order (the `seq` column stays inside). */
export const PAGE_COLUMNS =
  'url, host, status, fetch_time, fetch_interval, retries, score, link_score, signature, modified_time, last_fetch_time, generate_time, protocol_status, etag, last_modified, metadata';

/** The key of the WebDB's advisory locks: schema changes and the one writing tool. */
export const SCHEMA_LOCK = 0x687a_7363; // "hzsc"
export const WRITER_LOCK = 0x687a_7772; // "hzwr"
