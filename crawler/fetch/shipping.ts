/**
 * @module crawler/fetch/shipping
 * Fetchers on other machines without a shared file system: a partition's
 * segment file travels whole, gzipped, through the WebDB. Generate keeps
 * each partition's starting file (its share of the fetchlist); a fetcher on
 * any machine, in any directory, takes it from there, fetches into its own
 * local copy (no SQLite file is ever opened by two machines), and ships the
 * completed file back before it marks the partition done; the crawl machine
 * puts the shipped files in place in the segment. One statement per
 * partition and direction, instead of one per fetched record (see
 * BENCHMARKS.md for the measurement behind the choice).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { HzError } from '../../shared/errors.js';
import { segmentFile, segmentPartDir } from '../../shared/crawl-dir.js';
import { Segment } from '../../segments/segment.js';
import type { PartitionFileKind, WebDb } from '../webdb/webdb.js';

/**
 * The file and its write-ahead log as one blob (the file's length, 4 bytes,
 * then the file, then the log): pages a connection of another thread has
 * not checkpointed yet travel with it, and SQLite replays them on opening.
 */
function packFile(main: Buffer, wal: Buffer | undefined): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(main.length);
  return Buffer.concat([head, main, wal ?? Buffer.alloc(0)]);
}

function unpackFile(blob: Buffer): { main: Buffer; wal: Buffer } {
  const n = blob.readUInt32BE(0);
  return { main: blob.subarray(4, 4 + n), wal: blob.subarray(4 + n) };
}

/** Keeps partition `part`'s file of `segmentDir` in the WebDB as `kind`; returns its size, bytes before and after compression. */
export function shipPartition(webdb: WebDb, segmentDir: string, part: number, kind: PartitionFileKind): { raw: number; shipped: number } {
  const file = segmentFile(segmentPartDir(segmentDir, part));
  const raw = packFile(fs.readFileSync(file), fs.existsSync(`${file}-wal`) ? fs.readFileSync(`${file}-wal`) : undefined);
  const data = gzipSync(raw, { level: 6 });
  webdb.putPartitionFile(path.basename(segmentDir), part, kind, data);
  return { raw: raw.length, shipped: data.length };
}

/**
 * Puts partition `part`'s file `kind` from the WebDB in place in
 * `segmentDir` (replacing what is there); false when the WebDB has none.
 */
export function unpackPartition(webdb: WebDb, segmentDir: string, part: number, kind: PartitionFileKind): boolean {
  const data = webdb.partitionFile(path.basename(segmentDir), part, kind);
  if (!data) return false;
  const dir = segmentPartDir(segmentDir, part);
  const file = segmentFile(dir);
  fs.mkdirSync(dir, { recursive: true });
  const { main, wal } = unpackFile(gunzipSync(data));
  const tmp = `${file}.shipped`;
  fs.writeFileSync(tmp, main);
  for (const side of ['-wal', '-shm']) fs.rmSync(file + side, { force: true });
  if (wal.length) fs.writeFileSync(`${file}-wal`, wal);
  fs.renameSync(tmp, file);
  // Opened once for writing: SQLite replays the log into the file, so readers find one file.
  Segment.open(dir).close();
  return true;
}

/** A fetcher without the segment: partition `part`'s local file, taken from the WebDB the first time. */
export function localPartition(webdb: WebDb, segmentDir: string, part: number): Segment {
  const dir = segmentPartDir(segmentDir, part);
  if (!fs.existsSync(segmentFile(dir)) && !unpackPartition(webdb, segmentDir, part, 'fetchlist'))
    throw new HzError(
      'HZ_ERR_NOT_FOUND',
      `segment ${segmentDir} is not on this machine and the WebDB keeps no fetchlist of its partition ${part}: generate it with the WebDB on PostgreSQL (webdb.url), or give the fetcher the segment's directory`,
    );
  return Segment.open(dir);
}

/** Whether partition `part`'s file in `segmentDir` is there and completely fetched. */
function fetchedHere(segmentDir: string, part: number): boolean {
  const dir = segmentPartDir(segmentDir, part);
  if (!fs.existsSync(segmentFile(dir))) return false;
  const seg = Segment.open(dir, { readonly: true });
  try {
    return seg.hasPhase('fetched');
  } finally {
    seg.close();
  }
}

/** On the crawl machine: puts in place the partitions other machines completed and shipped; returns their numbers. */
export function collectShipped(webdb: WebDb, segmentDir: string): number[] {
  const got: number[] = [];
  for (const p of webdb.partitions(path.basename(segmentDir)))
    if (p.done !== null && !fetchedHere(segmentDir, p.part) && unpackPartition(webdb, segmentDir, p.part, 'fetched')) got.push(p.part);
  return got;
}
