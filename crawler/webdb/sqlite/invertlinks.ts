/**
 * @module crawler/webdb/sqlite/invertlinks
 * The statements of invertlinks: the links around a URL and its inlinks.
 */
import type { Inlink, InvertlinksOps, LinkRow } from '../interface.js';
import { chunked, insertRows } from './rows.js';
import { linkAnchor } from './schema.js';
import type { Statements } from './statements.js';
import { urlId, urlIds } from './urls.js';

// OR IGNORE, never a conflict (a target's inlinks are cleared before, and numbered after any left), spares SQLite a
// statement journal for each statement of several rows: a plain or OR REPLACE insert of several rows needs one to undo
// a part done. An anchor its link row holds is stored NULL (linkAnchor).
const ADD_INLINKS = chunked(
  `INSERT OR IGNORE INTO inlink_rows (target, seq, source, anchor)
   SELECT column1, column2, column3, CASE WHEN column4 = ${linkAnchor('column1', 'column3')} THEN NULL ELSE column4 END FROM (VALUES (?, ?, ?, ?)`,
  ')',
);

export function invertlinksOps(sql: Statements): InvertlinksOps {
  return {
    stageLinkTargets(sources) {
      sql('CREATE TEMP TABLE IF NOT EXISTS invert_sources (url TEXT PRIMARY KEY)').run();
      sql('CREATE TEMP TABLE IF NOT EXISTS invert_targets (url TEXT PRIMARY KEY)').run();
      sql('DELETE FROM temp.invert_targets').run();
      const add = sql('INSERT OR IGNORE INTO temp.invert_sources (url) VALUES (?)');
      for (const s of sources) add.run(s);
      const n = sql(
        `WITH ids AS (SELECT u.id FROM temp.invert_sources s JOIN urls u ON u.url = s.url),
           targets AS (SELECT target FROM link_rows WHERE source IN ids UNION SELECT target FROM link_gone)
         INSERT INTO temp.invert_targets (url) SELECT u.url FROM targets JOIN urls u ON u.id = targets.target`,
      ).run().changes;
      sql('DELETE FROM temp.invert_sources').run();
      // Staged, in this transaction: their inlinks are rebuilt in it.
      sql('DELETE FROM link_gone').run();
      return n;
    },
    stagedLinkTargets(after, limit) {
      return sql('SELECT url FROM temp.invert_targets WHERE url > ? ORDER BY url LIMIT ?').pluck().all(after, limit) as string[];
    },
    linksToEach(targets) {
      const get = sql(
        `SELECT s.url AS source, l.anchor, l.nav FROM link_rows l JOIN urls s ON s.id = l.source
         WHERE l.target = (SELECT id FROM urls WHERE url = ?) ORDER BY l.nav, l.seq`,
      );
      const found = new Map<string, LinkRow[]>();
      for (const t of targets) {
        const rows = get.all(t) as LinkRow[];
        if (rows.length) found.set(t, rows);
      }
      return found;
    },
    clearInlinks(target) {
      const id = urlId(sql, target);
      if (id !== undefined) sql('DELETE FROM inlink_rows WHERE target = ?').run(id);
    },
    addInlinks(target, inlinks) {
      if (inlinks.length === 0) return 0;
      const ids = urlIds(sql, [target, ...inlinks.map((i) => i.source)], true);
      const to = ids.get(target)!;
      // A source once, the first: format 1's key (target, source) kept no more.
      const seen = new Set<string>();
      const rows = inlinks.filter((i) => {
        if (seen.has(i.source)) return false;
        seen.add(i.source);
        return true;
      });
      let seq = sql('SELECT COALESCE(MAX(seq) + 1, 0) FROM inlink_rows WHERE target = ?').pluck().get(to) as number;
      return insertRows(sql, ADD_INLINKS, rows, (v: unknown[], i: Inlink) => v.push(to, seq++, ids.get(i.source)!, i.anchor));
    },
  };
}
