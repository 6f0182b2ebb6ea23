/**
 * @module crawler/webdb/sqlite/open
 * The SQLite WebDB: opens the file and puts the operations of each tool
 * (one module each) on one object.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { HzError } from '../../../shared/errors.js';
import { webDbFile } from '../../../shared/crawl-dir.js';
import { BULK_CACHE_PRAGMA, CACHE_PRAGMA, WAL_WRITER_PRAGMAS } from '../../../shared/sqlite.js';
import type { WebDb, WebDbOpenOptions } from '../interface.js';
import { hostOps } from './hosts.js';
import { inlinkReadOps } from './inlinks.js';
import { invertlinksOps } from './invertlinks.js';
import { pageOps } from './pages.js';
import { partitionOps } from './partitions.js';
import { prepareSchema } from './migrate.js';
import { statements } from './statements.js';
import { updatedbOps } from './updatedb.js';

export function hasWebDb(dir: string): boolean {
  return fs.existsSync(webDbFile(dir));
}

export function openSqliteWebDb(dir: string, opts: WebDbOpenOptions): WebDb {
  const file = webDbFile(dir);
  if (!fs.existsSync(file)) {
    if (!opts.create || opts.readonly) throw new HzError('HZ_ERR_NOT_FOUND', `no WebDB at ${dir} (expected ${file}); run 'hazelnut inject' first`);
    fs.mkdirSync(dir, { recursive: true });
  }
  const db = new Database(file, { readonly: opts.readonly ?? false });
  db.pragma('busy_timeout = 5000');
  if (opts.readonly) db.pragma(CACHE_PRAGMA);
  else {
    for (const p of WAL_WRITER_PRAGMAS) db.pragma(p);
    if (opts.bulk) db.pragma(BULK_CACHE_PRAGMA);
  }
  try {
    prepareSchema(db, file, opts.readonly ?? false);
  } catch (e) {
    db.close();
    throw e;
  }
  const sql = statements(db);
  return {
    ...pageOps(db, sql),
    ...updatedbOps(sql),
    ...invertlinksOps(sql),
    ...inlinkReadOps(sql),
    ...hostOps(sql),
    ...partitionOps(sql),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => {
      if (db.open) db.close();
    },
  };
}
