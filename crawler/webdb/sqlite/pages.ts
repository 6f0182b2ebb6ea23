/**
 * @module crawler/webdb/sqlite/pages
 * The `pages` statements of inject, generate, linkrank and readdb. Reads go
 * through the view by URL; writes that count their changes, or set one
 * column, go to page_rows by the URL's number (format 5).
 */
import type Database from 'better-sqlite3';
import type { GenerateOps, InjectOps, LinkrankOps, PageRow, ReaddbOps } from '../interface.js';
import type { Statements } from './statements.js';
import { urlIds } from './urls.js';

/** A page row's key, found by its URL (bound as the statement's last parameter). */
const BY_URL = 'id = (SELECT id FROM urls WHERE url = ?)';

export function pageOps(db: Database.Database, sql: Statements): InjectOps & GenerateOps & LinkrankOps & ReaddbOps {
  return {
    inject(seeds, now, overwrite) {
      const insert = sql(
        `INSERT INTO page_rows (id, host, status, fetch_time, fetch_interval, retries, score, metadata)
         VALUES (?, ?, 'db_unfetched', ?, ?, 0, ?, ?) ON CONFLICT (id) DO NOTHING`,
      );
      const reset = sql(
        `UPDATE page_rows SET status = 'db_unfetched', fetch_time = ?, fetch_interval = ?, retries = 0, score = ?, metadata = ?,
           generate_time = NULL, signature = NULL, modified_time = 0, etag = NULL, last_modified = NULL
         WHERE id = ?`,
      );
      const n = { injected: 0, overwritten: 0, known: 0 };
      db.transaction(() => {
        const list = [...seeds];
        const ids = urlIds(sql, list.map((s) => s.url), true);
        for (const s of list) {
          const id = ids.get(s.url)!;
          if (insert.run(id, s.host, now, s.interval, s.score, s.meta).changes) n.injected++;
          else if (overwrite && reset.run(now, s.interval, s.score, s.meta, id).changes) n.overwritten++;
          else n.known++;
        }
      })();
      return n;
    },
    dueIfModified(entries, now) {
      const due = sql(`UPDATE page_rows SET fetch_time = ? WHERE ${BY_URL} AND last_fetch_time IS NOT NULL AND last_fetch_time < ? AND fetch_time > ?`);
      let n = 0;
      db.transaction(() => {
        for (const e of entries) n += due.run(now, e.url, e.lastmod, now).changes;
      })();
      return n;
    },

    generateCandidates(q) {
      return sql(
        `SELECT * FROM pages WHERE (generate_time IS NULL OR generate_time + @delay <= @now)
           AND (fetch_time <= @dueBy OR fetch_time > @pullIn) ORDER BY score DESC, url`,
      ).iterate({ delay: q.delayMs, now: q.now, dueBy: q.dueBy, pullIn: q.pullIn }) as Iterable<PageRow>;
    },
    markGenerated(urls, now) {
      const mark = sql(`UPDATE page_rows SET generate_time = ? WHERE ${BY_URL}`);
      db.transaction(() => {
        for (const u of urls) mark.run(now, u);
      })();
    },
    awaitingUpdate(delayMs, now) {
      const r = sql('SELECT COUNT(*) AS n, MAX(generate_time) AS last FROM pages WHERE generate_time IS NOT NULL AND generate_time + ? > ?').get(delayMs, now) as {
        n: number;
        last: number | null;
      };
      return { count: r.n, last: r.last };
    },
    nextDue(delayMs, now) {
      return (sql('SELECT MIN(fetch_time) AS t FROM pages WHERE generate_time IS NULL OR generate_time + ? <= ?').get(delayMs, now) as { t: number | null }).t;
    },

    numberPages() {
      // uid: the page's number in the urls table, which its row and the links name it by.
      sql('CREATE TEMP TABLE IF NOT EXISTS rank_ids (id INTEGER PRIMARY KEY, uid INTEGER NOT NULL)').run();
      sql('CREATE INDEX IF NOT EXISTS temp.rank_ids_uid ON rank_ids (uid)').run();
      sql('DELETE FROM temp.rank_ids').run();
      return sql('INSERT INTO temp.rank_ids (id, uid) SELECT ROW_NUMBER() OVER (ORDER BY u.url) - 1, p.id FROM page_rows p JOIN urls u ON u.id = p.id').run().changes;
    },
    linkEdges(opts) {
      return sql(
        `SELECT a.id, b.id FROM link_rows l JOIN temp.rank_ids a ON a.uid = l.source JOIN temp.rank_ids b ON b.uid = l.target${opts.withNavigation ? '' : ' WHERE l.nav = 0'}`,
      )
        .raw()
        .iterate() as Iterable<[number, number]>;
    },
    numberedSites() {
      return sql(
        "SELECT p.host, CASE WHEN p.status IN ('db_fetched', 'db_notmodified') THEN COALESCE(p.signature, '') END FROM temp.rank_ids r JOIN page_rows p ON p.id = r.uid ORDER BY r.id",
      )
        .raw()
        .iterate() as Iterable<[string, string | null]>;
    },
    setLinkScores(scores) {
      const set = sql('UPDATE page_rows SET link_score = ? WHERE id = (SELECT uid FROM temp.rank_ids WHERE id = ?)');
      db.transaction(() => {
        for (let i = 0; i < scores.length; i++) set.run(scores[i]!, i);
      })();
    },

    page(url) {
      return sql('SELECT * FROM pages WHERE url = ?').get(url) as PageRow | undefined;
    },
    pageCount() {
      return (sql('SELECT COUNT(*) AS n FROM pages').get() as { n: number }).n;
    },
    scoreStats() {
      const r = sql('SELECT COUNT(*) AS n, MIN(score) AS min, AVG(score) AS avg, MAX(score) AS max FROM pages').get() as {
        n: number;
        min: number | null;
        avg: number | null;
        max: number | null;
      };
      return { count: r.n, min: r.min, avg: r.avg, max: r.max };
    },
    retryCounts() {
      return sql('SELECT retries, COUNT(*) AS count FROM pages GROUP BY retries ORDER BY retries').all() as { retries: number; count: number }[];
    },
    statusCounts() {
      return sql('SELECT status, COUNT(*) AS count FROM pages GROUP BY status').all() as ReturnType<ReaddbOps['statusCounts']>;
    },
    statusHostCounts() {
      return sql('SELECT status, host, COUNT(*) AS count FROM pages GROUP BY status, host ORDER BY status, host').all() as ReturnType<ReaddbOps['statusHostCounts']>;
    },
    pages() {
      return sql('SELECT * FROM pages ORDER BY url').iterate() as Iterable<PageRow>;
    },
    topScores(n, min) {
      return sql('SELECT url, score FROM pages WHERE score >= ? ORDER BY score DESC, url LIMIT ?').all(Number.isFinite(min) ? min : -1e308, n) as {
        url: string;
        score: number;
      }[];
    },
  };
}
