/**
 * A SQLite WebDB of format 1 (links and inlinks by URL) opened by this
 * hazelnut: refused read-only with the command that migrates it, migrated by
 * a writing open with every row and its order kept, and a format it does not
 * know refused either way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { webDbFile } from '../../../shared/crawl-dir.js';

/** The tables of format 1 this test fills, as that release created them. */
const FORMAT_1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE pages (
  url TEXT PRIMARY KEY, host TEXT NOT NULL, status TEXT NOT NULL, fetch_time INTEGER NOT NULL, fetch_interval INTEGER NOT NULL,
  retries INTEGER NOT NULL DEFAULT 0, score REAL NOT NULL, link_score REAL NOT NULL DEFAULT 0, signature TEXT,
  modified_time INTEGER NOT NULL DEFAULT 0, last_fetch_time INTEGER, generate_time INTEGER, protocol_status TEXT,
  etag TEXT, last_modified TEXT, metadata TEXT
);
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
    assert.is(raw.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get(), '2');
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

test('a WebDB of a format this hazelnut does not know is refused, read-only or not', () => {
  const { dir, drop } = formatOne('3');
  try {
    assert.throws(() => openWebDb(dir, { readonly: true }), /format 3, which this hazelnut does not know/);
    assert.throws(() => openWebDb(dir), /format 3, which this hazelnut does not know/);
  } finally {
    drop();
  }
});

test.run();
