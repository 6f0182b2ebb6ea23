/**
 * @module crawler/webdb/sqlite/migrate
 * The WebDB file's format on opening: a new file gets the schema, a file of
 * format 1 to 4 is migrated by a writing open (in one transaction, then
 * vacuumed, so the space it frees leaves the file) and refused by a
 * read-only one, and a file of a format this hazelnut does not know is
 * refused either way: never read as something it is not.
 */
import type Database from 'better-sqlite3';
import { HzError } from '../../../shared/errors.js';
import { linkAnchor, PAGE_COLUMNS, SCHEMA, WEBDB_VERSION } from './schema.js';

/** Format 1 kept links and inlinks by URL, in tables of those names: their rows move to the numbered tables, in stored order. */
const FROM_1 = `
INSERT INTO urls (url) SELECT source FROM links UNION SELECT target FROM links UNION SELECT target FROM inlinks UNION SELECT source FROM inlinks;
INSERT INTO link_rows (target, source, seq, anchor, nav)
  SELECT t.id, s.id, row_number() OVER (ORDER BY l.rowid), l.anchor, l.nav FROM links l JOIN urls s ON s.url = l.source JOIN urls t ON t.url = l.target;
INSERT OR IGNORE INTO inlink_rows (target, seq, source, anchor)
  SELECT t.id, row_number() OVER (PARTITION BY t.id ORDER BY i.rowid) - 1, s.id, i.anchor FROM inlinks i JOIN urls t ON t.url = i.target JOIN urls s ON s.url = i.source;
DROP TABLE links;
DROP TABLE inlinks;
`;

/** Format 2's link and inlink tables (rowids, indexes on the target) make way for format 3's, before the schema makes those. */
const BEFORE_2 = `
DROP VIEW links;
DROP VIEW inlinks;
DROP INDEX inlink_rows_target;
DROP INDEX inlink_rows_source;
DROP INDEX link_rows_target;
DROP INDEX link_rows_source;
ALTER TABLE inlink_rows RENAME TO inlink_rows_2;
ALTER TABLE link_rows RENAME TO link_rows_2;
`;

/** Their rows move to format 3's tables, in stored order: a link's rowid is its number. */
const FROM_2 = `
INSERT INTO link_rows (target, source, seq, anchor, nav) SELECT target, source, rowid, anchor, nav FROM link_rows_2;
INSERT OR IGNORE INTO inlink_rows (target, seq, source, anchor)
  SELECT target, row_number() OVER (PARTITION BY target ORDER BY rowid) - 1, source, anchor FROM inlink_rows_2;
DROP TABLE link_rows_2;
DROP TABLE inlink_rows_2;
`;

/** Format 3's inlinks (keyed by target and order, indexed by source) make way for format 4's, before the schema makes those. */
const BEFORE_3 = `
DROP VIEW inlinks;
DROP INDEX inlink_rows_source;
ALTER TABLE inlink_rows RENAME TO inlink_rows_3;
`;

/** Their rows move to format 4's table, a target's first inlink from a source kept, as invertlinks keeps it. */
const FROM_3 = `
INSERT OR IGNORE INTO inlink_rows (target, source, seq, anchor) SELECT target, source, seq, anchor FROM inlink_rows_3 ORDER BY target, seq;
DROP TABLE inlink_rows_3;
`;

/**
 * Inlinks whose source has no link row to their target any more (updatedb replaced it, invertlinks has not run
 * since): their targets wait in link_gone, which format 4 finds them by, as format 3 did by the inlinks' source.
 */
const GONE = `
INSERT OR IGNORE INTO link_gone (target)
  SELECT i.target FROM inlink_rows i WHERE NOT EXISTS (SELECT 1 FROM link_rows l WHERE l.target = i.target AND l.source = i.source);
`;

/** The links numbered so far (the next gets the number after). */
const AFTER_1_OR_2 = `
UPDATE meta SET value = (SELECT COALESCE(MAX(seq), 0) FROM link_rows) WHERE key = 'link_seq';
`;

/** Formats 1 to 4 kept pages by URL, in a table of that name (indexed by host before format 3): it makes way for format 5's view. */
const BEFORE_4 = `
DROP INDEX IF EXISTS pages_host;
DROP INDEX IF EXISTS pages_due;
DROP INDEX IF EXISTS pages_status;
ALTER TABLE pages RENAME TO pages_4;
`;

/** Their rows move to page_rows, keyed by their URL's number (a URL no link named is numbered now). */
const FROM_4 = `
INSERT INTO urls (url) SELECT url FROM pages_4 p WHERE NOT EXISTS (SELECT 1 FROM urls u WHERE u.url = p.url) ORDER BY p.rowid;
INSERT INTO page_rows (id, ${PAGE_COLUMNS}) SELECT u.id, ${PAGE_COLUMNS.replace(/\w+/g, 'p.$&')} FROM pages_4 p JOIN urls u ON u.url = p.url ORDER BY u.id;
DROP TABLE pages_4;
`;

/** An anchor an inlink's link row holds, kept there only (updatedb copies it into the inlink before it replaces the link row). */
const ANCHORS_ONCE = `
UPDATE inlink_rows SET anchor = NULL WHERE anchor <> '' AND anchor = ${linkAnchor('inlink_rows.target', 'inlink_rows.source')};
`;

function storedVersion(db: Database.Database): number | undefined {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get()) return undefined;
  const v = db.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get() as string | undefined;
  return v === undefined ? undefined : Number(v);
}

function checkKnown(file: string, version: number): void {
  if (!Number.isInteger(version) || version < 1 || version > WEBDB_VERSION)
    throw new HzError(
      'HZ_ERR_WEBDB',
      `the WebDB ${file} is of format ${version}, which this hazelnut does not know (it reads formats 1 to ${WEBDB_VERSION}); use the hazelnut that wrote it, or a newer one`,
    );
}

/** Makes `db` (the WebDB `file`) one of this format, or refuses it. */
export function prepareSchema(db: Database.Database, file: string, readonly: boolean): void {
  const version = storedVersion(db);
  if (version !== undefined) checkKnown(file, version);
  if (version === WEBDB_VERSION || (readonly && version === undefined)) return;
  if (readonly)
    throw new HzError(
      'HZ_ERR_WEBDB',
      `the WebDB ${file} is of format ${version}, which this hazelnut reads after migrating it to format ${WEBDB_VERSION}: a tool that writes the WebDB migrates it, such as 'hazelnut updatedb <webdb> -dir <segments>' (segments already applied are skipped)`,
    );
  let migrated = false;
  db.transaction(() => {
    // Another process may have migrated it while this one waited for the write lock.
    const now = storedVersion(db);
    if (now !== undefined) checkKnown(file, now);
    if (now === 2) db.exec(BEFORE_2);
    if (now === 3) db.exec(BEFORE_3);
    // A file of format 1 to 4 without pages (none written by hazelnut) gets format 5's, empty.
    const pages = now !== undefined && now < 5 && db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pages'").get() !== undefined;
    if (pages) db.exec(BEFORE_4);
    db.exec(SCHEMA);
    if (now === 1) {
      db.exec(FROM_1);
      // The views of the links by URL take the names the tables had.
      db.exec(SCHEMA);
    }
    if (now === 2) db.exec(FROM_2);
    if (now === 3) db.exec(FROM_3);
    if (now === 1 || now === 2) db.exec(AFTER_1_OR_2);
    if (now !== undefined && now < 4) db.exec(GONE);
    if (pages) db.exec(FROM_4);
    if (now !== undefined && now < 5) {
      db.exec(ANCHORS_ONCE);
      migrated = true;
    }
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('version', ?)").run(String(WEBDB_VERSION));
  }).immediate();
  if (migrated) db.exec('VACUUM');
}
