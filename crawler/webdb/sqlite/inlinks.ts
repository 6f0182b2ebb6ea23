/**
 * @module crawler/webdb/sqlite/inlinks
 * Reading the inlinks invertlinks built (readlinkdb, the indexer's anchors).
 */
import type { Inlink, LinkDbReadOps } from '../interface.js';
import type { Statements } from './statements.js';

export function inlinkReadOps(sql: Statements): LinkDbReadOps {
  return {
    inlinks(target, order) {
      const q = `SELECT s.url AS source, i.anchor FROM inlink_rows i JOIN urls s ON s.id = i.source
                 WHERE i.target = (SELECT id FROM urls WHERE url = ?) ORDER BY ${order === 'source' ? 's.url' : 'i.rowid'}`;
      return sql(q).all(target) as Inlink[];
    },
    allInlinks() {
      return sql(
        `SELECT t.url AS target, s.url AS source, i.anchor FROM urls t JOIN inlink_rows i ON i.target = t.id JOIN urls s ON s.id = i.source
         ORDER BY t.url, i.rowid`,
      ).iterate() as Iterable<Inlink & { target: string }>;
    },
  };
}
