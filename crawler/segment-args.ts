/**
 * @module crawler/segment-args
 * Nutch's way of naming segments on a command line: `-dir <segments>` for
 * every segment under a directory (oldest first), or the segment directories
 * themselves, each checked to be one. Every tool that reads segments takes
 * them this way: updatedb, invertlinks, readseg, index, dedup and merge.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HzError, UsageError } from '../shared/errors.js';
import { listSegments } from '../segments/segment.js';
import { segmentCrawlDir, segmentFile } from '../shared/crawl-dir.js';

export function segmentDirs(positional: string[], dir: string | undefined): string[] {
  if (dir !== undefined && positional.length > 0) throw new UsageError('give either -dir <segments> or segment directories, not both');
  if (dir === undefined && positional.length === 0) throw new UsageError('no segments: give -dir <segments> or one or more segment directories');
  if (dir !== undefined) {
    if (!fs.existsSync(dir)) throw new HzError('HZ_ERR_NOT_FOUND', `segments directory ${dir} does not exist`);
    return listSegments(dir).map((n) => path.join(dir, n));
  }
  for (const d of positional)
    if (!fs.existsSync(segmentFile(d))) throw new HzError('HZ_ERR_NOT_FOUND', `${d} is not a segment (no ${path.basename(segmentFile(d))})`);
  return positional;
}

/** The crawl directory of the (first) segment: where a tool whose WebDB is on a server logs. */
export function segmentsCrawlDir(segments: string[]): string | undefined {
  return segments.length ? segmentCrawlDir(segments[0]!) : undefined;
}
