/**
 * A SQLite WebDB of format 1 (links and inlinks by URL) or 2 (inlinks with
 * their anchors by URL number; format 3 has a test of its own,
 * sqlite-migrate-3.test.ts) opened by this hazelnut: refused read-only
 * with the command that migrates it, migrated by a writing open with every
 * row and its order kept (an inlink's anchor kept once, in its link row, where
 * that holds it), and a format it does not know refused either way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { webDbFile } from '../../../shared/crawl-dir.js';

/** The pages table of formats 1 and 2, with the index on the host they had. */
const PAGES_1 = `
CREATE TABLE pages (
  url TEXT PRIMARY KEY, host TEXT NOT NULL, status TEXT NOT NULL, fetch_time INTEGER NOT NULL, fetch_interval INTEGER NOT NULL,
  retries INTEGER NOT NULL DEFAULT 0, score REAL NOT NULL, link_score REAL NOT NULL DEFAULT 0, signature TEXT,
  modified_time INTEGER NOT NULL DEFAULT 0, last_fetch_time INTEGER, generate_time INTEGER, protocol_status TEXT,
  etag TEXT, last_modified TEXT, metadata TEXT
);
CREATE INDEX pages_host ON pages (host);
`;

/** The tables of format 1 this test fills, as that release created them. */
const FORMAT_1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
${PAGES_1}
CREATE TABLE links (source TEXT NOT NULL, target TEXT NOT NULL, anchor TEXT NOT NULL DEFAULT '', nav INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (source, target, anchor));
CREATE INDEX links_target ON links (target);
CREATE TABLE inlinks (target TEXT NOT NULL, source TEXT NOT NULL, anchor TEXT NOT NULL DEFAULT '', PRIMARY KEY (target, source));
CREATE INDEX inlinks_source ON inlinks (source);
INSERT INTO meta VALUES ('version', '1');
`;

const [A, B, C, T] = ['http://a.test/', 'http://b.test/', 'http://c.test/', 'http://t.test/'];

function formatOne(version = '1'): { dir: string; drop: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-webdb-v1-'));
  const dir = path.join(root, 'webdb');
  fs.mkdirSync(dir);
  const db = new Database(webDbFile(dir));
  db.exec(FORMAT_1);
  db.prepare("UPDATE meta SET value = ? WHERE key = 'version'").run(version);
  db.prepare("INSERT INTO pages (url, host, status, fetch_time, fetch_interval, score) VALUES (?, 't.test', 'db_fetched', 5, 60, 2)").run(T);
  // Stored order is not URL order: C's link to T first, then A's, then B's navigation link.
  const link = db.prepare('INSERT INTO links (source, target, anchor, nav) VALUES (?, ?, ?, ?)');
  link.run(C, T, 'from c', 0);
  link.run(A, T, 'from a', 0);
  link.run(B, T, 'menu', 1);
  link.run(A, B, 'b', 0);
  const inlink = db.prepare('INSERT INTO inlinks (target, source, anchor) VALUES (?, ?, ?)');
  inlink.run(T, C, 'from c');
  inlink.run(T, A, 'from a');
  db.close();
  return { dir, drop: () => fs.rmSync(root, { recursive: true, force: true }) };
}

test('a format 1 WebDB is refused read-only, naming the command that migrates it', () => {
  const { dir, drop } = formatOne();
  try {
    assert.throws(() => openWebDb(dir, { readonly: true }), /format 1.*'hazelnut updatedb <webdb> -dir <segments>'/);
    // Refusing changed nothing: the file is still of format 1.
    const raw = new Database(webDbFile(dir), { readonly: true });
    assert.is(raw.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get(), '1');
    assert.is(raw.prepare('SELECT COUNT(*) FROM links').pluck().get(), 4);
    raw.close();
  } finally {
    drop();
  }
});

test('a writing open migrates a format 1 WebDB: pages, links and inlinks kept, in their stored order', () => {
  const { dir, drop } = formatOne();
  try {
    openWebDb(dir).close();
    const db = openWebDb(dir, { readonly: true });
    try {
      assert.is(db.page(T)!.score, 2);
      assert.equal(db.linksToEach([T]).get(T), [
        { source: C, anchor: 'from c', nav: 0 },
        { source: A, anchor: 'from a', nav: 0 },
        { source: B, anchor: 'menu', nav: 1 },
      ]);
      assert.equal(db.inlinks(T, 'stored'), [
        { source: C, anchor: 'from c' },
        { source: A, anchor: 'from a' },
      ]);
      assert.equal(db.inlinks(T, 'source'), [
        { source: A, anchor: 'from a' },
        { source: C, anchor: 'from c' },
      ]);
    } finally {
      db.close();
    }
    const raw = new Database(webDbFile(dir), { readonly: true });
    assert.is(raw.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get(), '5');
    assert.equal(raw.prepare('SELECT source, target, anchor, nav FROM links ORDER BY seq').raw().all(), [
      [C, T, 'from c', 0],
      [A, T, 'from a', 0],
      [B, T, 'menu', 1],
      [A, B, 'b', 0],
    ]);
    raw.close();
  } finally {
    drop();
  }
});

/** Format 2's pages, links and inlinks, as that release created them (its other tables are format 4's). */
const FORMAT_2 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
${PAGES_1}
CREATE TABLE urls (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);
CREATE TABLE link_rows (source INTEGER NOT NULL, target INTEGER NOT NULL, anchor TEXT NOT NULL DEFAULT '', nav INTEGER NOT NULL DEFAULT 0);
CREATE INDEX link_rows_source ON link_rows (source);
CREATE INDEX link_rows_target ON link_rows (target);
CREATE TABLE inlink_rows (target INTEGER NOT NULL, source INTEGER NOT NULL, anchor TEXT NOT NULL DEFAULT '');
CREATE INDEX inlink_rows_target ON inlink_rows (target);
CREATE INDEX inlink_rows_source ON inlink_rows (source);
CREATE VIEW links AS
  SELECT s.url AS source, t.url AS target, l.anchor, l.nav, l.rowid AS seq FROM link_rows l JOIN urls s ON s.id = l.source JOIN urls t ON t.id = l.target;
CREATE VIEW inlinks AS
  SELECT t.url AS target, s.url AS source, i.anchor, i.rowid AS seq FROM inlink_rows i JOIN urls t ON t.id = i.target JOIN urls s ON s.id = i.source;
INSERT INTO meta VALUES ('version', '2');
INSERT INTO urls (id, url) VALUES (1, '${A}'), (2, '${B}'), (3, '${C}'), (4, '${T}');
INSERT INTO link_rows (source, target, anchor, nav) VALUES (3, 4, 'from c', 0), (1, 4, '', 0), (1, 4, 'from a', 0), (2, 4, 'menu', 1), (1, 2, 'b', 0);
-- Stored order is not URL order; A's anchor is its link's, C's was cut, B's left out (its menu link).
INSERT INTO inlink_rows (target, source, anchor) VALUES (4, 1, 'from a'), (2, 1, 'b'), (4, 3, 'from'), (4, 2, '');
`;

test('a writing open migrates a format 2 WebDB: inlinks kept in their stored order, an anchor its link row holds kept there only', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-webdb-v2-'));
  const dir = path.join(root, 'webdb');
  try {
    fs.mkdirSync(dir);
    const v2 = new Database(webDbFile(dir));
    v2.exec(FORMAT_2);
    v2.close();
    assert.throws(() => openWebDb(dir, { readonly: true }), /webdb\.sqlite is of format 2.*'hazelnut updatedb <webdb> -dir <segments>'/);
    openWebDb(dir).close();
    const db = openWebDb(dir, { readonly: true });
    try {
      assert.equal(db.inlinks(T, 'stored'), [
        { source: A, anchor: 'from a' },
        { source: C, anchor: 'from' },
        { source: B, anchor: '' },
      ]);
      assert.equal(db.inlinks(B, 'stored'), [{ source: A, anchor: 'b' }]);
    } finally {
      db.close();
    }
    // A link stored after the migration comes after those migrated, in the order invertlinks reads them.
    const w = openWebDb(dir);
    try {
      w.transaction(() => w.replaceOutlinks(C, [{ url: T, anchor: 'again' }]));
      assert.equal(w.linksToEach([T]).get(T), [
        { source: A, anchor: '', nav: 0 },
        { source: A, anchor: 'from a', nav: 0 },
        { source: C, anchor: 'again', nav: 0 },
        { source: B, anchor: 'menu', nav: 1 },
      ]);
      assert.equal(w.inlinks(T, 'stored')[1], { source: C, anchor: 'from' });
    } finally {
      w.close();
    }
    const raw = new Database(webDbFile(dir), { readonly: true });
    assert.is(raw.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get(), '5');
    assert.is(raw.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'pages_host'").pluck().get(), 0);
    assert.equal(raw.prepare('SELECT target, seq, source, anchor FROM inlink_rows ORDER BY target, seq').raw().all(), [
      [2, 0, 1, null],
      [4, 0, 1, null],
      [4, 1, 3, 'from'],
      [4, 2, 2, ''],
    ]);
    assert.equal(raw.prepare('SELECT source, anchor FROM inlinks WHERE target = ? ORDER BY seq').raw().all(T), [
      [A, 'from a'],
      [C, 'from'],
      [B, ''],
    ]);
    raw.close();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a WebDB of a format this hazelnut does not know is refused, read-only or not', () => {
  const { dir, drop } = formatOne('6');
  try {
    assert.throws(() => openWebDb(dir, { readonly: true }), /format 6, which this hazelnut does not know/);
    assert.throws(() => openWebDb(dir), /format 6, which this hazelnut does not know/);
  } finally {
    drop();
  }
});

test.run();
