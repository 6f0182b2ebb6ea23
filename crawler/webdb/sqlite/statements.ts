/**
 * @module crawler/webdb/sqlite/statements
 * Prepared statements by their SQL text, each prepared on first use (a
 * read-only open never prepares the writes).
 */
import type Database from 'better-sqlite3';

export type Statements = (sql: string) => Database.Statement;

export function statements(db: Database.Database): Statements {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
}
