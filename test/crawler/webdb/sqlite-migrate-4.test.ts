/**
 * A SQLite WebDB of format 4 (pages keyed by URL) opened by this hazelnut:
 * refused read-only with the command that migrates it; migrated by a writing
 * open to format 5, whose pages are keyed by their URL's number (no URL
 * column, no index on it), every page kept and read, written and ranked
 * through the view as before, and an anchor a re-applied updatedb copied
 * into an inlink kept in its link row only again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { webDbFile } from '../../../shared/crawl-dir.js';

const [A, T, SEED] = ['http://a.test/', 'http://t.test/', 'http://seed.test/'];

/** Format 4's pages table (format 5's page row keyed by its URL), in place of format 5's, and its rows: a seed no link names, and T, which A links to. */
const FORMAT_4 = (pageRows: string) => `
DROP VIEW pages;
DROP TABLE page_rows;
${pageRows.replace('page_rows', 'pages').replace(/id\s+INTEGER PRIMARY KEY/, 'url TEXT PRIMARY KEY')};
CREATE INDEX pages_due ON pages (fetch_time);
CREATE INDEX pages_status ON pages (status);
INSERT INTO pages (url, host, status, fetch_time, fetch_interval, score, last_fetch_time, metadata)
  VALUES ('${SEED}', 'seed.test', 'db_fetched', 50, 60, 3, 10, '{"k":"v"}'), ('${T}', 't.test', 'db_unfetched', 5, 60, 2, NULL, NULL);
INSERT INTO urls (id, url) VALUES (1, '${A}'), (2, '${T}');
INSERT INTO link_rows (target, source, seq, anchor, nav) VALUES (2, 1, 1, 'from a', 0);
-- As updatedb left it, applied again without invertlinks: the anchor copied into the inlink.
INSERT INTO inlink_rows (target, source, seq, anchor) VALUES (2, 1, 0, 'from a');
UPDATE meta SET value = '4' WHERE key = 'version';
`;

test('a format 4 WebDB is refused read-only, naming the command; a writing open migrates it to pages keyed by their URL number, read, written and ranked as before', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-webdb-v4-'));
  try {
    const dir = path.join(root, 'webdb');
    openWebDb(dir, { create: true }).close();
    const raw4 = new Database(webDbFile(dir));
    raw4.exec(FORMAT_4(raw4.prepare("SELECT sql FROM sqlite_master WHERE name = 'page_rows'").pluck().get() as string)).close();
    assert.throws(() => openWebDb(dir, { readonly: true }), /webdb\.sqlite is of format 4.*'hazelnut updatedb <webdb> -dir <segments>'/);
    openWebDb(dir).close();
    const raw = new Database(webDbFile(dir), { readonly: true });
    assert.is(raw.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get(), '5');
    assert.not.ok(raw.prepare("SELECT name FROM pragma_table_info('page_rows')").pluck().all().includes('url'), 'the URL stored in urls only');
    assert.equal(raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'page_rows' ORDER BY name").pluck().all(), ['pages_due', 'pages_status']);
    assert.equal(raw.prepare('SELECT url FROM urls ORDER BY id').pluck().all(), [A, T, SEED], 'the seed numbered after the URLs the links named');
    assert.is(raw.prepare('SELECT anchor FROM inlink_rows').pluck().get(), null, 'the anchor its link row holds, kept there only');
    raw.close();
    const db = openWebDb(dir);
    try {
      assert.equal([...db.pages()].map((p) => [p.url, p.status, p.score, p.metadata]), [
        [SEED, 'db_fetched', 3, '{"k":"v"}'],
        [T, 'db_unfetched', 2, null],
      ]);
      assert.is(db.page(T)!.fetch_time, 5);
      assert.is(db.pageCount(), 2);
      assert.equal(db.inlinks(T, 'stored'), [{ source: A, anchor: 'from a' }]);
      assert.equal(db.inject([{ url: T, host: 't.test', score: 9, interval: 60, meta: null }, { url: A, host: 'a.test', score: 1, interval: 60, meta: null }], 100, true), {
        injected: 1,
        overwritten: 1,
        known: 0,
      });
      assert.is(db.page(T)!.score, 9);
      assert.is(db.dueIfModified([{ url: SEED, lastmod: 20 }], 30), 1);
      assert.is(db.page(SEED)!.fetch_time, 30);
      db.markGenerated([A], 40);
      assert.is(db.page(A)!.generate_time, 40);
      db.transaction(() => db.putPage({ ...db.page(A)!, status: 'db_fetched', retries: 2 }));
      assert.equal([db.page(A)!.status, db.page(A)!.retries, db.pageCount()], ['db_fetched', 2, 3]);
      assert.is(db.numberPages(), 3);
      assert.equal([...db.linkEdges({ withNavigation: false })], [[0, 2]], 'A (0) links to T (2), numbered by URL');
      db.setLinkScores([0.5, 0.25, 0.75]);
      assert.equal([db.page(A)!.link_score, db.page(SEED)!.link_score, db.page(T)!.link_score], [0.5, 0.25, 0.75]);
    } finally {
      db.close();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test.run();
