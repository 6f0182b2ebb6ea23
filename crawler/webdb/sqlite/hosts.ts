/**
 * @module crawler/webdb/sqlite/hosts
 * The `hosts` statements: the fetcher's robots.txt cache, and whether a seed
 * is on loopback (a `meta` row), which decides whether the fetcher may connect there.
 */
import type { HostOps } from '../interface.js';
import type { Statements } from './statements.js';

export function hostOps(sql: Statements): HostOps {
  return {
    robots(host) {
      const r = sql('SELECT robots_status, robots_txt, robots_fetched, robots_failures, crawl_delay FROM hosts WHERE host = ?').get(host) as
        | { robots_status: string | null; robots_txt: string | null; robots_fetched: number | null; robots_failures: number; crawl_delay: number | null }
        | undefined;
      if (!r?.robots_status || r.robots_fetched === null) return undefined;
      return { status: r.robots_status, txt: r.robots_txt, fetched: r.robots_fetched, failures: r.robots_failures, crawlDelay: r.crawl_delay };
    },
    putRobots(host, r) {
      sql(
        `INSERT INTO hosts (host, robots_status, robots_txt, robots_fetched, robots_failures, crawl_delay) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(host) DO UPDATE SET robots_status = excluded.robots_status, robots_txt = excluded.robots_txt,
           robots_fetched = excluded.robots_fetched, robots_failures = excluded.robots_failures, crawl_delay = excluded.crawl_delay`,
      ).run(host, r.status, r.txt, r.fetched, r.failures, r.crawlDelay);
    },
    markSeedsOnLoopback() {
      sql("INSERT OR REPLACE INTO meta (key, value) VALUES ('seeds.loopback', '1')").run();
    },
    seedsOnLoopback() {
      return sql("SELECT 1 FROM meta WHERE key = 'seeds.loopback'").get() !== undefined;
    },
  };
}
