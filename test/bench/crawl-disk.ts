/**
 * What a crawl directory takes on disk, part by part, against the bytes it
 * fetched (the content's sizes before compression, as the segments record
 * them): the storage side of a crawl's cost, which grows with the web. A
 * segment's own index (`segments/<name>/index`) is counted apart from its
 * SQLite file. Read with plain SQL, so it measures segments of any release.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { crawlPaths, segmentFile, segmentIndexDir } from '../../shared/crawl-dir.js';

export interface CrawlDisk {
  /** Bytes of content fetched and stored, before compression. */
  fetched: number;
  /** The segments' SQLite files (fetch records, content, parse text and data). */
  segmentFiles: number;
  /** The segments' own indexes (summaries files included). */
  segmentIndexes: number;
  /** The merged index. */
  index: number;
  webdb: number;
  /** The whole directory. */
  total: number;
}

/** Bytes of every file under `p`. */
export function bytesUnder(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const e of fs.readdirSync(p)) n += bytesUnder(path.join(p, e));
  return n;
}

export function crawlDisk(dir: string): CrawlDisk {
  const paths = crawlPaths(dir);
  let fetched = 0;
  let segmentIndexes = 0;
  const segs = fs.existsSync(paths.segments) ? fs.readdirSync(paths.segments) : [];
  for (const name of segs) {
    const seg = path.join(paths.segments, name);
    segmentIndexes += bytesUnder(segmentIndexDir(seg));
    if (!fs.existsSync(segmentFile(seg))) continue;
    const db = new Database(segmentFile(seg), { readonly: true, fileMustExist: true });
    try {
      fetched += db.prepare('SELECT COALESCE(SUM(size), 0) FROM content').pluck().get() as number;
    } finally {
      db.close();
    }
  }
  const segments = bytesUnder(paths.segments);
  return { fetched, segmentFiles: segments - segmentIndexes, segmentIndexes, index: bytesUnder(paths.index), webdb: bytesUnder(paths.webdb), total: bytesUnder(dir) };
}

/** The table of disk use per page and against the fetched bytes, one column per run. */
export function diskTable(runs: { label: string; pages: number; disk: CrawlDisk }[]): string[] {
  const rows: [string, (d: CrawlDisk) => number][] = [
    ['segment files (content, parse text and data)', (d) => d.segmentFiles],
    ["segments' own indexes (summaries included)", (d) => d.segmentIndexes],
    ['merged index', (d) => d.index],
    ['WebDB', (d) => d.webdb],
    ['**whole crawl directory**', (d) => d.total],
  ];
  return [
    `| on disk | ${runs.map((r) => `${r.label}: KB a page | ÷ fetched`).join(' | ')} |`,
    `|---|${runs.map(() => '---|---|').join('')}`,
    `| fetched content (before compression) | ${runs.map((r) => `${(r.disk.fetched / r.pages / 1024).toFixed(2)} | 1.00`).join(' | ')} |`,
    ...rows.map(([name, of]) => `| ${name} | ${runs.map((r) => `${(of(r.disk) / r.pages / 1024).toFixed(2)} | ${(of(r.disk) / r.disk.fetched).toFixed(2)}`).join(' | ')} |`),
  ];
}
