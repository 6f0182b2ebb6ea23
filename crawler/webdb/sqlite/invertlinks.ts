/**
 * @module crawler/webdb/sqlite/invertlinks
 * The statements of invertlinks: the links around a URL and its inlinks.
 */
import type { InvertlinksOps, LinkRow } from '../interface.js';
import { chunked, insertRows } from './rows.js';
import type { Statements } from './statements.js';

// OR IGNORE, never a conflict (addInlinks' sources are new to their target), spares SQLite a statement journal
// for each statement of several rows: a plain or OR REPLACE insert of several rows needs one to undo a part done.
const ADD_INLINKS = chunked('INSERT OR IGNORE INTO inlinks (target, source, anchor) VALUES (?, ?, ?)');

export function invertlinksOps(sql: Statements): InvertlinksOps {
  return {
    stageLinkTargets(sources) {
      sql('CREATE TEMP TABLE IF NOT EXISTS invert_sources (url TEXT PRIMARY KEY)').run();
      sql('CREATE TEMP TABLE IF NOT EXISTS invert_targets (url TEXT PRIMARY KEY)').run();
      sql('DELETE FROM temp.invert_targets').run();
      const add = sql('INSERT OR IGNORE INTO temp.invert_sources (url) VALUES (?)');
      for (const s of sources) add.run(s);
      const n = sql(
        `INSERT INTO temp.invert_targets (url) SELECT target FROM links WHERE source IN (SELECT url FROM temp.invert_sources)
         UNION SELECT target FROM inlinks WHERE source IN (SELECT url FROM temp.invert_sources)`,
      ).run().changes;
      sql('DELETE FROM temp.invert_sources').run();
      return n;
    },
    stagedLinkTargets(after, limit) {
      return sql('SELECT url FROM temp.invert_targets WHERE url > ? ORDER BY url LIMIT ?').pluck().all(after, limit) as string[];
    },
    linksToEach(targets) {
      const get = sql('SELECT source, anchor, nav FROM links WHERE target = ? ORDER BY nav, rowid');
      const found = new Map<string, LinkRow[]>();
      for (const t of targets) {
        const rows = get.all(t) as LinkRow[];
        if (rows.length) found.set(t, rows);
      }
      return found;
    },
    clearInlinks(target) {
      sql('DELETE FROM inlinks WHERE target = ?').run(target);
    },
    addInlinks(target, inlinks) {
      return insertRows(sql, ADD_INLINKS, inlinks, (v, i) => v.push(target, i.source, i.anchor));
    },
  };
}
