/**
 * @module crawler/webdb/sqlite/inlinks
 * Reading the inlinks invertlinks built (readlinkdb, the indexer's anchors).
 */
import type { Inlink, LinkDbReadOps } from '../interface.js';
import type { Statements } from './statements.js';

export function inlinkReadOps(sql: Statements): LinkDbReadOps {
  return {
    inlinks(target, order) {
      const q =
        order === 'source'
          ? 'SELECT source, anchor FROM inlinks WHERE target = ? ORDER BY source'
          : 'SELECT source, anchor FROM inlinks WHERE target = ? ORDER BY rowid';
      return sql(q).all(target) as Inlink[];
    },
    allInlinks() {
      return sql('SELECT target, source, anchor FROM inlinks ORDER BY target, rowid').iterate() as Iterable<Inlink & { target: string }>;
    },
  };
}
