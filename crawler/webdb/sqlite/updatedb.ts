/**
 * @module crawler/webdb/sqlite/updatedb
 * The statements of updatedb: page rows, a page's outlinks, and the record
 * of applied segments.
 */
import type { PageRow, UpdatedbOps } from '../interface.js';
import { chunked, insertRows } from './rows.js';
import { linkAnchor } from './schema.js';
import type { Statements } from './statements.js';
import { urlIds } from './urls.js';

// OR IGNORE, never a conflict (each row's number is new), spares SQLite a statement journal for each statement of several rows.
const ADD_LINKS = chunked('INSERT OR IGNORE INTO link_rows (target, source, seq, anchor, nav) VALUES (?, ?, ?, ?, ?)');
const ADD_GONE = chunked('INSERT OR IGNORE INTO link_gone (target) VALUES (?)');

export function updatedbOps(sql: Statements): UpdatedbOps {
  return {
    isApplied(tool, segment) {
      return sql('SELECT 1 FROM applied WHERE tool = ? AND segment = ?').get(tool, segment) !== undefined;
    },
    markApplied(tool, segment, at) {
      sql('INSERT OR REPLACE INTO applied (tool, segment, at) VALUES (?, ?, ?)').run(tool, segment, at);
    },
    pageScore(url) {
      return sql('SELECT score FROM pages WHERE url = ?').pluck().get(url) as number | undefined;
    },
    pagesOf(urls) {
      const get = sql('SELECT * FROM pages WHERE url = ?');
      const found = new Map<string, PageRow>();
      for (const u of urls) {
        const r = get.get(u) as PageRow | undefined;
        if (r) found.set(u, r);
      }
      return found;
    },
    putPage(row) {
      sql(
        `INSERT OR REPLACE INTO pages (url, host, status, fetch_time, fetch_interval, retries, score, link_score, signature, modified_time,
           last_fetch_time, generate_time, protocol_status, etag, last_modified, metadata)
         VALUES (@url, @host, @status, @fetch_time, @fetch_interval, @retries, @score, @link_score, @signature, @modified_time,
           @last_fetch_time, @generate_time, @protocol_status, @etag, @last_modified, @metadata)`,
      ).run(row);
    },
    replaceOutlinks(source, outlinks) {
      const ids = urlIds(sql, [source, ...outlinks.map((l) => l.url)], outlinks.length > 0);
      const from = ids.get(source);
      if (from === undefined) return 0;
      // Its inlinks keep the anchors these rows hold for them until invertlinks rebuilds them (an inlink holding no
      // anchor of its own has a link row from its source).
      sql(
        `UPDATE inlink_rows SET anchor = COALESCE(${linkAnchor('inlink_rows.target', 'inlink_rows.source')}, '')
         WHERE source = ? AND target IN (SELECT target FROM link_rows WHERE source = ?) AND anchor IS NULL`,
      ).run(from, from);
      const before = sql('DELETE FROM link_rows WHERE source = ? RETURNING target').pluck().all(from) as number[];
      // A (target, anchor) once, the first link's, as format 1's key (source, target, anchor) kept it.
      const seen = new Set<string>();
      const rows = outlinks.filter((l) => {
        const key = `${l.url}\0${l.anchor}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      // invertlinks rebuilds the inlinks of the targets it links to no more: those it still links to it finds by its links.
      const now = new Set(rows.map((l) => ids.get(l.url)!));
      const gone = [...new Set(before)].filter((t) => !now.has(t));
      insertRows(sql, ADD_GONE, gone, (v, t) => v.push(t));
      if (rows.length === 0) return 0;
      // The rows are numbered after every link stored before, in order.
      let seq = Number(sql("UPDATE meta SET value = value + ? WHERE key = 'link_seq' RETURNING value").pluck().get(rows.length)) - rows.length;
      return insertRows(sql, ADD_LINKS, rows, (v, l) => v.push(ids.get(l.url)!, from, ++seq, l.anchor, l.nav ? 1 : 0));
    },
  };
}
