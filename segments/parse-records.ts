/**
 * @module segments/parse-records
 * A segment's parse records (Nutch's parse_text and parse_data in one row a
 * URL), read across the segment's own file and its fetch partitions'. The
 * parse tool stores them here; a fetch that parses inline stores them
 * through segments/segment-writer.ts.
 */
import type { ParseLinks, ParseRecord, ParseText } from './records.js';
import { PARSE_TEXT_WITH_BODY, PARSE_WITH_BODY, parseFromRow, parseLinksFromRow, parseMetaOf, parseParams, parseTextFromRow, type ParseLinksRow, type ParseRowWithBody, type ParseTextRow } from './rows.js';
import { WRITE_SQL } from './schema.js';
import type { SegmentFiles } from './segment-files.js';

export class ParseRecords {
  constructor(private readonly files: SegmentFiles) {}

  /**
   * The sums over every parse record of numeric parse-meta fields, named by
   * dotted paths; read here, not by SQL's json_extract, since the meta is
   * stored compressed (segment format 6).
   */
  sumParseMeta(paths: readonly string[]): number[] {
    const keys = paths.map((p) => p.split('.'));
    const sums = paths.map(() => 0);
    for (const db of this.files.all)
      for (const stored of this.files.q(db, 'SELECT meta FROM parse').pluck().iterate() as Iterable<string | Buffer>) {
        const meta = parseMetaOf(stored);
        keys.forEach((k, i) => {
          const v = k.reduce<unknown>((o, key) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined), meta);
          if (typeof v === 'number') sums[i]! += v;
        });
      }
    return sums;
  }

  /** True when the URL has a parse record. */
  hasParse(url: string): boolean {
    return this.files.lookup('SELECT 1 FROM parse WHERE url = ?', url) !== undefined;
  }

  /** URLs that already have a parse record. */
  parsedUrls(): Set<string> {
    return this.files.urlSet('SELECT url FROM parse');
  }

  /** Stores parse records in the segment's own file, in one transaction (their text on its own: parse has not the bodies at hand). */
  putParses(recs: Iterable<ParseRecord>): void {
    const put = this.files.q(this.files.db, WRITE_SQL.parse);
    this.files.db.transaction(() => {
      for (const r of recs) put.run(parseParams(r));
    })();
  }

  /** What updatedb reads of a parse: its links and meta, without inflating its text. */
  getParseLinks(url: string): ParseLinks | undefined {
    const r = this.files.lookup<ParseLinksRow>('SELECT status, signature, outlinks, meta FROM parse WHERE url = ?', url);
    return r && parseLinksFromRow(r);
  }

  getParse(url: string): ParseRecord | undefined {
    const r = this.files.lookup<ParseRowWithBody>(`${PARSE_WITH_BODY} WHERE p.url = ?`, url);
    return r && parseFromRow(r);
  }

  /** What the indexer reads of a parse: all but its outlinks, which it neither reads nor inflates. */
  getParseText(url: string): ParseText | undefined {
    const r = this.files.lookup<ParseTextRow>(`${PARSE_TEXT_WITH_BODY} WHERE p.url = ?`, url);
    return r && parseTextFromRow(r);
  }

  *parses(): IterableIterator<ParseRecord> {
    for (const r of this.files.rows<ParseRowWithBody>(`${PARSE_WITH_BODY} ORDER BY p.rowid`)) yield parseFromRow(r);
  }

  /** Each parse's URL, status and title, without reading its text (the indexer's site-wide title suffixes). */
  *parseTitles(): IterableIterator<Pick<ParseRecord, 'url' | 'status' | 'title'>> {
    yield* this.files.rows<Pick<ParseRecord, 'url' | 'status' | 'title'>>('SELECT url, status, title FROM parse ORDER BY rowid');
  }
}
