/**
 * @module crawler/webdb/sqlite/inlinks
 * Reading the inlinks invertlinks built (readlinkdb, the indexer's anchors).
 */
import type { Inlink, LinkDbReadOps } from '../interface.js';
import { linkAnchor } from './schema.js';
import type { Statements } from './statements.js';

const ANCHOR = `COALESCE(i.anchor, ${linkAnchor('i.target', 'i.source')}, '') AS anchor`;

export function inlinkReadOps(sql: Statements): LinkDbReadOps {
  return {
    inlinks(target, order) {
      const q = `SELECT s.url AS source, ${ANCHOR} FROM inlink_rows i JOIN urls s ON s.id = i.source
                 WHERE i.target = (SELECT id FROM urls WHERE url = ?) ORDER BY ${order === 'source' ? 's.url' : 'i.seq'}`;
      return sql(q).all(target) as Inlink[];
    },
    allInlinks() {
      return sql(
        `SELECT t.url AS target, s.url AS source, ${ANCHOR} FROM urls t JOIN inlink_rows i ON i.target = t.id JOIN urls s ON s.id = i.source
         ORDER BY t.url, i.seq`,
      ).iterate() as Iterable<Inlink & { target: string }>;
    },
  };
}
