/**
 * @module segments/upgrade
 * A segment file written before format 7 kept its content keyed by URL, in a
 * table of its own with an index on the URL, the URL stored a second and
 * third time beside the fetch row's. A writing open moves those rows to
 * format 7's content_rows, keyed by their fetch row's rowid (in one
 * transaction, then vacuumed, so the space freed leaves the file); a
 * read-only open reads the file as it is (segments/rows.ts reads both).
 */
import type Database from 'better-sqlite3';
import { SCHEMA } from './schema.js';

/** True when `db` holds content keyed by its fetch row (format 7), or has no content table of the older kind. */
export function contentKeyed(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'content'").get() === undefined;
}

/**
 * Moves the content of `db` (the segment file `file`, opened to write) to
 * format 7's table; refuses a file with content that has no fetch record,
 * which format 7 could not key. Returns whether it moved anything.
 */
export function keyContentByFetch(db: Database.Database, file: string): boolean {
  if (contentKeyed(db)) return false;
  db.transaction(() => {
    // Another process may have moved it while this one waited for the write lock.
    if (contentKeyed(db)) return;
    const unfetched = db.prepare('SELECT url FROM content c WHERE NOT EXISTS (SELECT 1 FROM fetch f WHERE f.url = c.url) LIMIT 1').pluck().get() as string | undefined;
    if (unfetched !== undefined)
      throw new Error(`segment ${file}: the content of ${unfetched} has no fetch record, which format 7 keys content by; read it with the hazelnut that wrote it`);
    db.exec('ALTER TABLE content RENAME TO content_6');
    // The view content takes the table's name.
    db.exec(SCHEMA);
    db.exec(`INSERT INTO content_rows (id, content_type, charset, size, truncated, data)
             SELECT f.rowid, c.content_type, c.charset, c.size, c.truncated, c.data FROM content_6 c JOIN fetch f ON f.url = c.url ORDER BY f.rowid`);
    db.exec('DROP TABLE content_6');
  }).immediate();
  db.exec('VACUUM');
  return true;
}
