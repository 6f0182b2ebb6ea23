/**
 * @module crawler/webdb/sqlite/updatedb
 * The statements of updatedb: page rows, a page's outlinks, and the record
 * of applied segments.
 */
import type { PageRow, UpdatedbOps } from '../webdb.js';
import type { Statements } from './statements.js';

/** Rows inserted in order by one statement, duplicates of the key ignored as one row at a time would. */
const LINKS_PER_INSERT = 16;
const ADD_LINK = 'INSERT OR IGNORE INTO links (source, target, anchor, nav) VALUES (?, ?, ?, ?)';
const ADD_LINKS_CHUNK = ADD_LINK + ', (?, ?, ?, ?)'.repeat(LINKS_PER_INSERT - 1);

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
      // Whole chunks go in one statement each: a page's ~20 links cost one call into SQLite, not 20.
      const chunk = sql(ADD_LINKS_CHUNK);
      const add = sql(ADD_LINK);
      const params: (string | number)[] = [];
      let n = 0;
      let i = 0;
      for (; i + LINKS_PER_INSERT <= outlinks.length; i += LINKS_PER_INSERT) {
        params.length = 0;
        for (let j = i; j < i + LINKS_PER_INSERT; j++) params.push(source, outlinks[j]!.url, outlinks[j]!.anchor, outlinks[j]!.nav ? 1 : 0);
        n += chunk.run(params).changes;
      }
      for (; i < outlinks.length; i++) n += add.run(source, outlinks[i]!.url, outlinks[i]!.anchor, outlinks[i]!.nav ? 1 : 0).changes;
      return n;
    },
  };
}
