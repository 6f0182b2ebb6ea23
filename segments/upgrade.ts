/**
 * @module segments/upgrade
 * A segment file written before format 7 kept its content keyed by URL, and
 * one written before format 8 its parse rows, each in a table of its own
 * with an index on the URL, the URL stored again beside the fetch row's. A
 * writing open moves those rows to content_rows and parse_rows, keyed by
 * their fetch row's rowid (in one transaction, then vacuumed, so the space
 * freed leaves the file, into pages of the size new files get where it
 * can); a read-only open reads the file as it is: the
 * views content and parse take the tables' names, and the readers that go
 * past them (segments/rows.ts) ask which a file holds.
 */
import type Database from 'better-sqlite3';
import { SCHEMA, SEGMENT_PAGE_BYTES } from './schema.js';

const isTable = (db: Database.Database, name: string): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

/** True when `db` holds content keyed by its fetch row (format 7), or has no content table of the older kind. */
export const contentKeyed = (db: Database.Database): boolean => !isTable(db, 'content');

/** True when `db` holds parses keyed by their fetch row (format 8), or has no parse table of the older kind. */
export const parseKeyed = (db: Database.Database): boolean => !isTable(db, 'parse');

/** The parse columns both formats hold, after the URL. */
const PARSE_COLUMNS = 'status, message, title, text, lang, signature, outlinks, meta';
const OF_P = PARSE_COLUMNS.replace(/\w+/g, 'p.$&');

/**
 * Moves the content and parse rows of `db` (the segment file `file`, opened
 * to write) to format 8's tables; refuses a file with content that has no
 * fetch record, which could not be keyed (a parse without one keeps its
 * URL, in parse_urls). Returns whether it moved anything.
 */
export function keyRowsByFetch(db: Database.Database, file: string): boolean {
  if (contentKeyed(db) && parseKeyed(db)) return false;
  db.transaction(() => {
    // Another process may have moved them while this one waited for the write lock.
    const content = !contentKeyed(db);
    const parse = !parseKeyed(db);
    if (content) {
      const unfetched = db.prepare('SELECT url FROM content c WHERE NOT EXISTS (SELECT 1 FROM fetch f WHERE f.url = c.url) LIMIT 1').pluck().get() as string | undefined;
      if (unfetched !== undefined)
        throw new Error(`segment ${file}: the content of ${unfetched} has no fetch record, which format 7 keys content by; read it with the hazelnut that wrote it`);
      db.exec('ALTER TABLE content RENAME TO content_6');
    }
    if (parse) db.exec('ALTER TABLE parse RENAME TO parse_7');
    // The views content and parse take the tables' names.
    db.exec(SCHEMA);
    if (content)
      db.exec(`INSERT INTO content_rows (id, content_type, charset, size, truncated, data)
               SELECT f.rowid, c.content_type, c.charset, c.size, c.truncated, c.data FROM content_6 c JOIN fetch f ON f.url = c.url ORDER BY f.rowid;
               DROP TABLE content_6`);
    if (parse)
      db.exec(`INSERT INTO parse_rows (id, ${PARSE_COLUMNS}) SELECT f.rowid, ${OF_P} FROM parse_7 p JOIN fetch f ON f.url = p.url ORDER BY f.rowid;
               INSERT INTO parse_urls (url, ${PARSE_COLUMNS}) SELECT url, ${PARSE_COLUMNS} FROM parse_7 p WHERE NOT EXISTS (SELECT 1 FROM fetch f WHERE f.url = p.url) ORDER BY p.rowid;
               DROP TABLE parse_7`);
  }).immediate();
  compact(db);
  return true;
}

/**
 * Vacuums `db`, into pages of the size a new segment file gets (schema.ts SEGMENT_PAGE_BYTES: a 25,000-page
 * file of the growth crawl took 130.6 → 126.3 MB more) where no other connection has it open: a page size
 * changes only out of WAL mode, which SQLite leaves only then. Elsewhere in the page size it has.
 */
function compact(db: Database.Database): void {
  if (db.pragma('page_size', { simple: true }) !== SEGMENT_PAGE_BYTES) {
    try {
      if (db.pragma('journal_mode = DELETE', { simple: true }) === 'delete') db.pragma(`page_size = ${SEGMENT_PAGE_BYTES}`);
    } catch (e) {
      // Another connection has the file open: it keeps its page size.
      if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
    }
  }
  try {
    db.exec('VACUUM');
  } finally {
    db.pragma('journal_mode = WAL');
  }
}
