/**
 * @module segments/fetchlist-records
 * A segment's fetchlist (Nutch's crawl_generate): the URLs generate chose, in
 * fetch order, with their host, score and WebDB datum. It lives in the
 * segment's own file; a fetch partition holds a copy of its share.
 */
import type { FetchlistEntry } from './records.js';
import { packText } from './packing.js';
import { datumOf, fetchlistFromRow, type FetchlistRow } from './rows.js';
import type { SegmentFiles } from './segment-files.js';

export class FetchlistRecords {
  constructor(private readonly files: SegmentFiles) {}

  /** Adds entries after those already listed, in one transaction; returns how many were new. */
  add(entries: Iterable<FetchlistEntry>): number {
    const db = this.files.db;
    const insert = this.files.q(db, 'INSERT OR IGNORE INTO fetchlist (url, pos, host, score, datum) VALUES (?, ?, ?, ?, ?)');
    let pos = (db.prepare('SELECT COALESCE(MAX(pos), -1) AS m FROM fetchlist').get() as { m: number }).m + 1;
    let n = 0;
    db.transaction(() => {
      for (const e of entries) n += insert.run(e.url, pos++, e.host, e.score, packText(JSON.stringify(e.datum))).changes;
    })();
    return n;
  }

  *entries(): IterableIterator<FetchlistEntry> {
    for (const r of this.files.db.prepare('SELECT * FROM fetchlist ORDER BY pos').iterate() as Iterable<{
      url: string;
      host: string;
      score: number;
      datum: FetchlistRow['datum'];
    }>)
      yield { url: r.url, host: r.host, score: r.score, datum: datumOf(r.datum) };
  }

  count(): number {
    return (this.files.db.prepare('SELECT COUNT(*) AS n FROM fetchlist').get() as { n: number }).n;
  }

  /** The entry of a URL with its position in fetch order. */
  entry(url: string): (FetchlistEntry & { pos: number }) | undefined {
    const r = this.files.q(this.files.db, 'SELECT * FROM fetchlist WHERE url = ?').get(url) as FetchlistRow | undefined;
    return r && fetchlistFromRow(r);
  }

  /**
   * Entries without a fetch record: joined in the segment's own file when it
   * is fetched as a whole, else checked against the fetched URLs of every file.
   */
  unfetchedCount(partitioned: boolean, fetchedUrls: () => Set<string>): number {
    const db = this.files.db;
    if (!partitioned) return (db.prepare('SELECT COUNT(*) AS n FROM fetchlist f LEFT JOIN fetch r ON r.url = f.url WHERE r.url IS NULL').get() as { n: number }).n;
    const fetched = fetchedUrls();
    let n = 0;
    for (const url of db.prepare('SELECT url FROM fetchlist').pluck().iterate() as Iterable<string>) if (!fetched.has(url)) n++;
    return n;
  }
}
