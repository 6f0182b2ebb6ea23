/**
 * @module segments/parse-records
 * A segment's parse records (Nutch's parse_text and parse_data in one row a
 * URL), read across the segment's own file and its fetch partitions'. The
 * parse tool stores them here; a fetch that parses inline stores them
 * through segments/segment-writer.ts.
 */
import type { ParseLinks, ParseRecord, ParseText } from './records.js';
import type Database from 'better-sqlite3';
import { Lru } from '../shared/index/lru.js';
import { PARSE_TEXT_WITH_BODY, PARSE_WITH_BODY, parseFromRow, parseLinksFromRow, parseMetaOf, parseParams, parseTextFromRow, type ParseLinksRow, type ParseRowWithBody, type ParseTextJoinRow } from './rows.js';
import { WRITE_SQL } from './schema.js';
import type { SegmentFiles } from './segment-files.js';

/**
 * Host dictionaries (stored, compressed) read lately, by file and id, the least recently used dropped
 * first: a segment's pages name a few hosts' in turn, and the same blob passed again is inflated once
 * (segments/packing.ts). Shared by every segment open, so a searcher's many keep as many as one.
 */
const dictionaries = new Lru<string, Buffer>(128, () => 1);
/** A number for each file read, for the keys of `dictionaries`. */
const fileIds = new WeakMap<Database.Database, number>();
let files = 0;

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
    return this.files.lookup('SELECT 1 FROM parse WHERE url = @url', url) !== undefined;
  }

  /** URLs that already have a parse record. */
  parsedUrls(): Set<string> {
    return this.files.urlSet('SELECT url FROM parse');
  }

  /** Stores parse records in the segment's own file, in one transaction (their text on its own: parse has not the bodies at hand). */
  putParses(recs: Iterable<ParseRecord>): void {
    const put = this.files.q(this.files.db, WRITE_SQL.parse);
    const putByUrl = this.files.q(this.files.db, WRITE_SQL.parseByUrl);
    this.files.db.transaction(() => {
      for (const r of recs) {
        const params = parseParams(r);
        if (put.run(params).changes === 0) putByUrl.run(params);
      }
    })();
  }

  /** What updatedb reads of a parse: its links and meta, without inflating its text. */
  getParseLinks(url: string): ParseLinks | undefined {
    const r = this.files.lookup<ParseLinksRow>('SELECT status, signature, outlinks, meta FROM parse WHERE url = @url', url);
    return r && parseLinksFromRow(r);
  }

  getParse(url: string): ParseRecord | undefined {
    const r = this.files.lookup<ParseRowWithBody>(`${PARSE_WITH_BODY} WHERE p.url = @url`, url);
    return r && parseFromRow(r);
  }

  /** What the indexer reads of a parse: all but its outlinks, which it neither reads nor inflates. */
  getParseText(url: string): ParseText | undefined {
    return this.getParseTextAndSize(url)?.parse;
  }

  /** getParseText and the size of the page's content as fetched (null: no content in the parse's file), read together. */
  getParseTextAndSize(url: string): { parse: ParseText; contentSize: number | null } | undefined {
    for (const db of this.files.all) {
      const keyed = this.files.keyedRows(db);
      const sql = keyed.parse ? PARSE_TEXT_WITH_BODY.byFetch : keyed.content ? PARSE_TEXT_WITH_BODY.keyed : PARSE_TEXT_WITH_BODY.byUrl;
      const r = this.files.q(db, sql).get({ url }) as ParseTextJoinRow | undefined;
      if (r) return { parse: parseTextFromRow({ ...r, dict: this.dictionary(db, r.dict_id) }), contentSize: r.content_size };
    }
    return undefined;
  }

  /** The stored host dictionary of id `id` (a body's zlib header names it) in file `db`, or null. */
  private dictionary(db: Database.Database, id: Buffer | null): Buffer | null {
    if (id?.length !== 4) return null;
    let file = fileIds.get(db);
    if (file === undefined) fileIds.set(db, (file = files++));
    const key = `${file}:${id.toString('latin1')}`;
    const kept = dictionaries.get(key);
    if (kept) return kept;
    const d = (this.files.q(db, 'SELECT data FROM dictionary WHERE id = ?').get(id) as { data: Buffer } | undefined)?.data;
    return d ? dictionaries.set(key, d) : null;
  }

  *parses(): IterableIterator<ParseRecord> {
    for (const r of this.files.rows<ParseRowWithBody>(`${PARSE_WITH_BODY} ORDER BY p.rowid`)) yield parseFromRow(r);
  }

  /** Each parse's URL, status and title, without reading its text (the indexer's site-wide title suffixes). */
  *parseTitles(): IterableIterator<Pick<ParseRecord, 'url' | 'status' | 'title'>> {
    yield* this.files.rows<Pick<ParseRecord, 'url' | 'status' | 'title'>>('SELECT url, status, title FROM parse ORDER BY rowid');
  }
}
