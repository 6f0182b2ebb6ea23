/**
 * A SQLite WebDB of format 3 (inlinks keyed by target and order, indexed by
 * their source) opened by this hazelnut: refused read-only with the command
 * that migrates it; migrated by a writing open to format 4, whose inlinks have
 * no index on their source, every inlink, anchor and order kept, and an inlink
 * whose source's link updatedb replaced still rebuilt by the next invertlinks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { webDbFile } from '../../../shared/crawl-dir.js';

const [A, B, C, T, U] = ['http://a.test/', 'http://b.test/', 'http://c.test/', 'http://t.test/', 'http://u.test/'];

/** Format 3's link tables, as that release created them (its other tables are format 4's), and their rows. */
const FORMAT_3 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE urls (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);
CREATE TABLE link_rows (
  target INTEGER NOT NULL, source INTEGER NOT NULL, seq INTEGER NOT NULL, anchor TEXT NOT NULL DEFAULT '', nav INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (target, source, seq)
) WITHOUT ROWID;
CREATE INDEX link_rows_source ON link_rows (source);
CREATE TABLE inlink_rows (target INTEGER NOT NULL, seq INTEGER NOT NULL, source INTEGER NOT NULL, anchor TEXT, PRIMARY KEY (target, seq)) WITHOUT ROWID;
CREATE INDEX inlink_rows_source ON inlink_rows (source);
CREATE VIEW inlinks AS SELECT t.url AS target, s.url AS source, i.anchor, i.seq FROM inlink_rows i JOIN urls t ON t.id = i.target JOIN urls s ON s.id = i.source;
INSERT INTO meta VALUES ('version', '3'), ('link_seq', '4');
INSERT INTO urls (id, url) VALUES (1, '${A}'), (2, '${B}'), (3, '${C}'), (4, '${T}'), (5, '${U}');
INSERT INTO link_rows (target, source, seq, anchor, nav) VALUES (4, 3, 1, 'from c', 0), (4, 1, 2, 'from a', 0), (4, 2, 3, 'menu', 1), (2, 1, 4, 'b', 0);
-- T's inlinks in stored order, C's then A's (their anchors in the link rows), then B's without one; U's from C, whose
-- link to U updatedb has replaced since invertlinks ran.
INSERT INTO inlink_rows (target, seq, source, anchor) VALUES (4, 0, 3, NULL), (4, 1, 1, NULL), (4, 2, 2, ''), (2, 0, 1, NULL), (5, 0, 3, 'to u');
`;

function formatThree(): { dir: string; drop: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-webdb-v3-'));
  const dir = path.join(root, 'webdb');
  fs.mkdirSync(dir);
  const db = new Database(webDbFile(dir));
  db.exec(FORMAT_3);
  db.close();
  return { dir, drop: () => fs.rmSync(root, { recursive: true, force: true }) };
}

test('a format 3 WebDB is refused read-only, naming the command that migrates it, and left as it was', () => {
  const { dir, drop } = formatThree();
  try {
    assert.throws(() => openWebDb(dir, { readonly: true }), /webdb\.sqlite is of format 3.*'hazelnut updatedb <webdb> -dir <segments>'/);
    const raw = new Database(webDbFile(dir), { readonly: true });
    assert.is(raw.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get(), '3');
    assert.is(raw.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'inlink_rows_source'").pluck().get(), 1);
    raw.close();
  } finally {
    drop();
  }
});

test('a writing open migrates a format 3 WebDB: inlinks and anchors kept in stored order, no index on their source, a replaced link still rebuilt', () => {
  const { dir, drop } = formatThree();
  try {
    openWebDb(dir).close();
    const raw = new Database(webDbFile(dir), { readonly: true });
    assert.is(raw.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get(), '5');
    assert.equal(raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'inlink_rows'").pluck().all(), [], 'no index but the key');
    assert.equal(raw.prepare('SELECT target FROM link_gone').pluck().all(), [5], "U's inlink has no link row left: it waits for invertlinks");
    raw.close();
    const db = openWebDb(dir);
    try {
      assert.equal(db.inlinks(T, 'stored'), [
        { source: C, anchor: 'from c' },
        { source: A, anchor: 'from a' },
        { source: B, anchor: '' },
      ]);
      assert.equal(db.inlinks(U, 'stored'), [{ source: C, anchor: 'to u' }]);
      // A's links replaced: the anchor A's inlink read from its link row stays with the inlink, and T and B wait too.
      db.transaction(() => db.replaceOutlinks(A, [{ url: U, anchor: 'now u' }]));
      assert.equal(db.inlinks(T, 'stored')[1], { source: A, anchor: 'from a' });
      assert.equal(db.inlinks(B, 'stored'), [{ source: A, anchor: 'b' }]);
      // Invertlinks of C's segment rebuilds what C links to now and every target whose links were replaced since.
      assert.is(db.stageLinkTargets([C]), 3);
      assert.equal(db.stagedLinkTargets('', 10), [B, T, U]);
      assert.is(db.stageLinkTargets([C]), 1, 'staged once');
    } finally {
      db.close();
    }
  } finally {
    drop();
  }
});

test.run();
