/**
 * @module crawler/webdb/sqlite/updatedb
 * The statements of updatedb: page rows, a page's outlinks, and the record
 * of applied segments.
 */
import type { PageRow, UpdatedbOps } from '../interface.js';
import { chunked, insertRows } from './rows.js';
import type { Statements } from './statements.js';

const ADD_LINKS = chunked('INSERT OR IGNORE INTO links (source, target, anchor, nav) VALUES (?, ?, ?, ?)');

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
      sql('DELETE FROM links WHERE source = ?').run(source);
      return insertRows(sql, ADD_LINKS, outlinks, (v, l) => v.push(source, l.url, l.anchor, l.nav ? 1 : 0));
    },
  };
}
