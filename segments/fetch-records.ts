/**
 * @module segments/fetch-records
 * A segment's fetch records and raw content (Nutch's crawl_fetch and
 * content), read across the segment's own file and its fetch partitions'.
 * They are written by segments/segment-writer.ts.
 */
import type { ProtocolStatus } from '../shared/page-status.js';
import type { ContentRecord, FetchRecord } from './records.js';
import { CONTENT, contentFromRow, fetchFromRow, type ContentRow, type FetchRow } from './rows.js';
import type { SegmentFiles } from './segment-files.js';

export class FetchRecords {
  constructor(private readonly files: SegmentFiles) {}

  /** The first and last fetch time, null when nothing was fetched. */
  fetchTimes(): { first: number | null; last: number | null } {
    let first: number | null = null;
    let last: number | null = null;
    for (const db of this.files.all) {
      const t = this.files.q(db, 'SELECT MIN(fetch_time) AS a, MAX(fetch_time) AS b FROM fetch').get() as { a: number | null; b: number | null };
      if (t.a !== null && (first === null || t.a < first)) first = t.a;
      if (t.b !== null && (last === null || t.b > last)) last = t.b;
    }
    return { first, last };
  }

  /** Fetch records that ended with this protocol status. */
  countFetches(status: ProtocolStatus): number {
    return this.files.sum('SELECT COUNT(*) FROM fetch WHERE protocol_status = ?', status);
  }

  /** The size of a URL's stored content before compression. */
  contentSize(url: string): number | undefined {
    return this.files.lookup<{ size: number }>('SELECT size FROM content WHERE url = @url', url)?.size;
  }

  /** Content without a parse record (a fetch run with -noParsing, or interrupted before parsing). */
  *unparsedContents(parsedUrls: () => Set<string>): IterableIterator<ContentRecord> {
    if (this.files.parts.length === 0) {
      for (const r of this.files.db
        .prepare(`${CONTENT} WHERE NOT EXISTS (SELECT 1 FROM parse p WHERE p.url = c.url) ORDER BY c.rowid`)
        .iterate() as Iterable<ContentRow>)
        yield contentFromRow(r);
      return;
    }
    // A partition's content may be parsed in its own file (inline) or in this one (the parse tool).
    for (const r of this.files.rows<ContentRow>(`${CONTENT} ORDER BY c.rowid`, parsedUrls())) yield contentFromRow(r);
  }

  getFetch(url: string): FetchRecord | undefined {
    const r = this.files.lookup<FetchRow>('SELECT * FROM fetch WHERE url = @url', url);
    return r && fetchFromRow(r);
  }

  *fetches(): IterableIterator<FetchRecord> {
    for (const r of this.files.rows<FetchRow>('SELECT * FROM fetch ORDER BY rowid')) yield fetchFromRow(r);
  }

  /**
   * The fetch records in the order fetches() gives them, `size` at a time.
   * Each batch is read whole before it is handed over, so memory stays
   * bounded and the caller may write to the segment between batches (a
   * connection cannot write while one of its reads is open).
   */
  *fetchBatches(size: number): IterableIterator<FetchRecord[]> {
    for (const rows of this.files.batches<FetchRow>('fetch', size)) yield rows.map(fetchFromRow);
  }

  /** URLs that already have a fetch record (a resumed fetch skips them). */
  fetchedUrls(): Set<string> {
    return this.files.urlSet('SELECT url FROM fetch');
  }

  getContent(url: string): ContentRecord | undefined {
    const r = this.files.lookup<ContentRow>(`${CONTENT} WHERE c.url = @url`, url);
    return r && contentFromRow(r);
  }

  *contents(): IterableIterator<ContentRecord> {
    for (const r of this.files.rows<ContentRow>(`${CONTENT} ORDER BY c.rowid`)) yield contentFromRow(r);
  }
}
