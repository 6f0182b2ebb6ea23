/**
 * @module crawler/webdb/sqlite/invertlinks
 * The statements of invertlinks: the links around a URL and its inlinks.
 */
import type { InvertlinksOps, LinkRow } from '../webdb.js';
import type { Statements } from './statements.js';

export function invertlinksOps(sql: Statements): InvertlinksOps {
  return {
    linkTargetsOf(source) {
      return sql('SELECT target FROM links WHERE source = ? UNION SELECT target FROM inlinks WHERE source = ?').pluck().all(source, source) as string[];
    },
    linksTo(target) {
      return sql('SELECT source, anchor, nav FROM links WHERE target = ? ORDER BY nav, rowid').all(target) as LinkRow[];
    },
    clearInlinks(target) {
      sql('DELETE FROM inlinks WHERE target = ?').run(target);
    },
    addInlink(target, source, anchor) {
      return sql('INSERT OR REPLACE INTO inlinks (target, source, anchor) VALUES (?, ?, ?)').run(target, source, anchor).changes;
    },
  };
}
