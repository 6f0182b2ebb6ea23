/**
 * @module crawler/webdb/stage
 * Where updatedb puts what a segment says before merging it into the WebDB:
 * a private temporary SQLite file (deleted when closed), so its memory is a
 * batch of pages, whatever the segment's size. Read back by URL, it brings
 * together a page's fetch and the cash every page of the segment sent it, in
 * the order it was sent (a sum of floats depends on its order).
 */
import Database from 'better-sqlite3';
import { CACHE_PRAGMA } from '../../shared/sqlite.js';
import type { FetchDatum } from './interface.js';
import { chunked, insertRows } from './sqlite/rows.js';
import { statements } from './sqlite/statements.js';

const PUT_CASH = chunked('INSERT INTO cash (target, score) VALUES (?, ?)');

/** One URL of the segment: its fetch (when it was fetched) and the cash sent to it. */
export interface StagedUrl {
  url: string;
  fetch: FetchDatum | undefined;
  cash: number[];
}

export class Stage {
  private readonly db = new Database('');
  private readonly sql = statements(this.db);

  constructor() {
    this.db.pragma(CACHE_PRAGMA);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(`CREATE TABLE fetches (url TEXT PRIMARY KEY, datum TEXT NOT NULL, links INTEGER NOT NULL);
                  CREATE TABLE cash (target TEXT NOT NULL, score REAL NOT NULL);
                  BEGIN`);
  }

  /** A fetched page, the cash it sends and how many outlink rows it stored. */
  add(url: string, fetch: FetchDatum, cash: readonly [string, number][], links: number): void {
    // A URL fetched twice (two raw URLs normalized to one) keeps its last fetch, as a map would.
    this.sql('INSERT OR REPLACE INTO fetches (url, datum, links) VALUES (?, ?, ?)').run(url, JSON.stringify(fetch), links);
    insertRows(this.sql, PUT_CASH, cash, (v, [to, c]) => v.push(to, c));
  }

  /** Pages fetched, and outlink rows stored for them (a page's last fetch counts). */
  totals(): { fetched: number; links: number } {
    return this.db.prepare('SELECT COUNT(*) AS fetched, COALESCE(SUM(links), 0) AS links FROM fetches').get() as { fetched: number; links: number };
  }

  /** Every URL of the segment by URL, `size` at a time. */
  *byUrl(size: number): Generator<StagedUrl[]> {
    const rows = this.db
      .prepare(
        `SELECT url, datum, score FROM (SELECT url, datum, NULL AS score, 0 AS seq FROM fetches
           UNION ALL SELECT target, NULL, score, rowid FROM cash) ORDER BY url, seq`,
      )
      .raw()
      .iterate() as Iterable<[string, string | null, number | null]>;
    let batch: StagedUrl[] = [];
    let cur: StagedUrl | undefined;
    for (const [url, datum, score] of rows) {
      if (cur?.url !== url) {
        if (batch.length === size) {
          yield batch;
          batch = [];
        }
        batch.push((cur = { url, fetch: undefined, cash: [] }));
      }
      if (datum !== null) cur.fetch = JSON.parse(datum) as FetchDatum;
      else cur.cash.push(score!);
    }
    if (batch.length) yield batch;
  }

  close(): void {
    this.db.close();
  }
}
