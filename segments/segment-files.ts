/**
 * @module segments/segment-files
 * The SQLite files a segment is read from: its own, then those of its fetch
 * partitions (generate -numFetchers), looked up in turn and iterated as one,
 * with each statement prepared once per file.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { HzError } from '../shared/errors.js';
import { segmentFile, segmentPartDir } from '../shared/crawl-dir.js';
import { CACHE_PRAGMA, LOOKUP_CACHE_PRAGMA } from '../shared/sqlite.js';
import { SCHEMA, SEGMENT_VERSION, WRITER_PRAGMAS } from './schema.js';
import { contentKeyed, keyRowsByFetch, parseKeyed } from './upgrade.js';

/**
 * A read-only connection to a file written before bodies had dictionaries
 * (version 4 and older) is given an empty dictionary table of its own, a
 * temporary one, so the content's queries (segments/rows.ts) read every file alike.
 */
function withDictionaries(db: Database.Database): void {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'dictionary'").get())
    db.exec('CREATE TEMP TABLE dictionary (id BLOB PRIMARY KEY, host TEXT NOT NULL, data BLOB NOT NULL)');
}

export class SegmentFiles {
  /** This segment's file, then its partitions' files (read-only). */
  readonly all: Database.Database[];
  private readonly prepared = new Map<Database.Database, Map<string, Database.Statement>>();
  private readonly keyed = new Map<Database.Database, { content: boolean; parse: boolean }>();

  constructor(
    readonly db: Database.Database,
    readonly parts: Database.Database[] = [],
  ) {
    this.all = [db, ...parts];
  }

  /** The files of the segment in `dir`, refused when they cannot be read or are of a later format than this hazelnut's. */
  static open(dir: string, readonly: boolean, lookups = false): SegmentFiles {
    const cache = lookups ? LOOKUP_CACHE_PRAGMA : CACHE_PRAGMA;
    const file = segmentFile(dir);
    if (!fs.existsSync(file)) throw new HzError('HZ_ERR_NOT_FOUND', `${dir} is not a segment (no ${path.basename(file)})`);
    let db: Database.Database;
    try {
      db = new Database(file, { readonly, fileMustExist: true });
      if (readonly) {
        db.pragma(cache);
        withDictionaries(db);
      } else for (const p of WRITER_PRAGMAS) db.pragma(p);
      const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() !== undefined;
      const v = hasMeta ? (db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as { value: string } | undefined) : undefined;
      if (!v || Number(v.value) > SEGMENT_VERSION)
        throw new Error(`segment format version ${v?.value ?? 'missing'}, this hazelnut reads ${SEGMENT_VERSION}`);
      if (!readonly) {
        // An older file is upgraded before the schema adds what it lacks, or left as it was when it cannot be.
        if (Number(v.value) < SEGMENT_VERSION) keyRowsByFetch(db, file);
        db.exec(SCHEMA);
        // What this hazelnut writes into an older file, a release that wrote it cannot read: it is told by the version.
        if (Number(v.value) < SEGMENT_VERSION) db.prepare("UPDATE meta SET value = ? WHERE key = 'version'").run(String(SEGMENT_VERSION));
      }
    } catch (e) {
      throw new HzError('HZ_ERR_SEGMENT_CORRUPT', `segment ${dir} cannot be read: ${(e as Error).message}`);
    }
    const parts: Database.Database[] = [];
    try {
      const n = Number((db.prepare("SELECT value FROM meta WHERE key = 'parts'").get() as { value: string } | undefined)?.value ?? 0);
      for (let i = 0; i < n; i++) {
        const file = segmentFile(segmentPartDir(dir, i));
        // A partition no fetcher has started yet has no file.
        if (!fs.existsSync(file)) continue;
        const part = new Database(file, { readonly: true, fileMustExist: true });
        parts.push(part);
        part.pragma(cache);
        withDictionaries(part);
      }
    } catch (e) {
      for (const p of parts) p.close();
      db.close();
      throw new HzError('HZ_ERR_SEGMENT_CORRUPT', `segment ${dir}: a fetch partition cannot be read: ${(e as Error).message}`);
    }
    return new SegmentFiles(db, parts);
  }

  /** Whether a file's content rows (format 7) and parse rows (format 8) are keyed by their fetch row, as one of the segment's files is opened once. */
  keyedRows(db: Database.Database): { content: boolean; parse: boolean } {
    let k = this.keyed.get(db);
    if (k === undefined) this.keyed.set(db, (k = { content: contentKeyed(db), parse: parseKeyed(db) }));
    return k;
  }

  /** A prepared statement on one of the segment's files. */
  q(db: Database.Database, sql: string): Database.Statement {
    let m = this.prepared.get(db);
    if (!m) this.prepared.set(db, (m = new Map()));
    let st = m.get(sql);
    if (!st) m.set(sql, (st = db.prepare(sql)));
    return st;
  }

  /** The first row `sql` (for each file, when a function: a file's format may need its own) finds for `url`, bound as @url, in the segment's files. */
  lookup<R>(sql: string | ((db: Database.Database) => string), url: string): R | undefined {
    for (const db of this.all) {
      const r = this.q(db, typeof sql === 'string' ? sql : sql(db)).get({ url });
      if (r !== undefined) return r as R;
    }
    return undefined;
  }

  /** The rows of `sql` from every file, a URL once (a redirect may lead two partitions to one URL). */
  *rows<R extends { url: string }>(sql: string, skip?: Set<string>): IterableIterator<R> {
    const seen = this.parts.length ? new Set(skip) : undefined;
    for (const db of this.all)
      for (const r of this.q(db, sql).iterate() as Iterable<R>) {
        if (seen?.has(r.url)) continue;
        seen?.add(r.url);
        yield r;
      }
  }

  /** A set of the URLs `sql` selects in every file. */
  urlSet(sql: string): Set<string> {
    const out = new Set<string>();
    for (const db of this.all) for (const u of this.q(db, sql).pluck().all() as string[]) out.add(u);
    return out;
  }

  /** The sum of a count `sql` over every file. */
  sum(sql: string, ...params: unknown[]): number {
    let n = 0;
    for (const db of this.all) n += this.q(db, sql).pluck().get(...params) as number;
    return n;
  }


  /**
   * The rows of `table` in rowid order, `size` at a time, each URL once (from
   * the first file that has it: a redirect may lead two partitions to one
   * URL). Each batch is read whole before it is handed over, so memory stays
   * bounded and the caller may write between batches (a connection cannot
   * write while one of its reads is open).
   */
  *batches<R extends { url: string }>(table: 'fetch', size: number): IterableIterator<R[]> {
    for (let i = 0; i < this.all.length; i++) {
      const db = this.all[i]!;
      const earlier = this.all.slice(0, i);
      for (let after = 0; ; ) {
        const rows = this.q(db, `SELECT rowid AS rid, * FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?`).all(after, size) as (R & { rid: number })[];
        if (rows.length === 0) break;
        after = rows[rows.length - 1]!.rid;
        const fresh = rows.filter((r) => !earlier.some((e) => this.q(e, `SELECT 1 FROM ${table} WHERE url = ?`).get(r.url) !== undefined));
        if (fresh.length) yield fresh;
      }
    }
  }

  close(): void {
    for (const db of this.all) if (db.open) db.close();
  }
}
