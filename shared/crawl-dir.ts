/**
 * @module shared/crawl-dir
 * The crawl directory on disk, for the crawler and the searcher alike:
 *
 *   <crawl>/.lock                   while a tool writes the WebDB
 *   <crawl>/webdb/webdb.sqlite      the WebDB
 *   <crawl>/segments/<yyyyMMddHHmmss>/segment.sqlite   a segment
 *   <crawl>/segments/<name>/part-00000/segment.sqlite   a fetch partition's records
 *                                   (generate -numFetchers; one file per fetcher)
 *   <crawl>/segments/<name>/index/  the segment's index (+ dedup's deletions)
 *   <crawl>/index/                  the merged index (generations + CURRENT)
 *   <crawl>/shards/<i>/             shard i's index, from `merge <crawl>/shards -shards n`
 *   <crawl>/logs/<tool>.log         one log per tool
 *   <crawl>/report.html             the crawl report (hazelnut report), served at /report
 *   <crawl>/evaluation.json         the last scoring of the user's judged queries (hazelnut evaluate)
 *
 * Tools take the `webdb`, `segments` or `index` directory as arguments, as
 * in Nutch; the crawl directory is their parent.
 */
import path from 'node:path';

export interface CrawlPaths {
  dir: string;
  webdb: string;
  segments: string;
  index: string;
  logs: string;
  lock: string;
  report: string;
  evaluation: string;
}

export function crawlPaths(crawlDir: string): CrawlPaths {
  return {
    dir: crawlDir,
    webdb: path.join(crawlDir, 'webdb'),
    segments: path.join(crawlDir, 'segments'),
    index: path.join(crawlDir, 'index'),
    logs: path.join(crawlDir, 'logs'),
    lock: path.join(crawlDir, '.lock'),
    report: path.join(crawlDir, 'report.html'),
    evaluation: path.join(crawlDir, 'evaluation.json'),
  };
}

/** Shard i's index under the directory `merge -shards` was given. */
export function shardIndexDir(index: string, i: number): string {
  return path.join(index, String(i));
}

/** The WebDB's file in its directory. */
export function webDbFile(webdbDir: string): string {
  return path.join(webdbDir, 'webdb.sqlite');
}

/** The directory of the segment `name` (yyyyMMddHHmmss). */
export function segmentDir(segmentsDir: string, name: string): string {
  return path.join(segmentsDir, name);
}

/** A segment's database file. */
export function segmentFile(segmentDir: string): string {
  return path.join(segmentDir, 'segment.sqlite');
}

/** The directory of fetch partition `part` inside a segment (Nutch's part-00000). */
export function segmentPartDir(segmentDir: string, part: number): string {
  return path.join(segmentDir, `part-${String(part).padStart(5, '0')}`);
}

/** A segment's own index. */
export function segmentIndexDir(segmentDir: string): string {
  return path.join(segmentDir, 'index');
}

/** The crawl directory of a `<webdb>`, `<segments_dir>` or `<index>` directory: its parent. */
export function crawlDirOf(dir: string): string {
  return path.dirname(path.resolve(dir));
}

/** The crawl directory of a segment, `<crawl>/segments/<name>`. */
export function segmentCrawlDir(segment: string): string {
  return crawlDirOf(path.dirname(path.resolve(segment)));
}
