/**
 * @module crawler/folded-index
 * A segment's own index folded into the crawl's merged index. Once a merge
 * into `<crawl>/index` that holds a segment's pages is published, the
 * segment's index is only a second copy of them: it keeps its `summaries`
 * file, which the searcher reads, and a `folded` marker, and its other files
 * go. Its pages, terms and postings live on in the merged index, from which
 * the next merge, dedup and prune take them (crawler/dedup-rule). The marker
 * is written before anything is removed, so a fold killed midway leaves a
 * whole segment index or a folded one, never one that looks whole and is not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HzError } from '../shared/errors.js';
import { listSegments } from '../segments/segment.js';
import { SUMMARIES_FILE } from '../segments/summaries.js';
import { crawlDirOf, crawlPaths, segmentCrawlDir, segmentIndexDir } from '../shared/crawl-dir.js';
import type { Log } from './log.js';

/** The marker of a folded segment index: names the merged index generation its pages went into. */
export const FOLDED_FILE = 'folded';

/** Whether the segment's index was folded into the crawl's merged index. */
export function isFolded(segmentDir: string): boolean {
  return fs.existsSync(path.join(segmentIndexDir(segmentDir), FOLDED_FILE));
}

/** The merged index a segment's index folds into: its crawl's `index/`. */
export function foldingIndex(segmentDir: string): string {
  return crawlPaths(segmentCrawlDir(segmentDir)).index;
}

/**
 * Folds the indexes of `segments` into the merged index `root`, whose
 * generation `generation` (published) holds their pages: each keeps its
 * summaries file and the marker. A segment folded already only loses files
 * a killed fold left behind.
 */
export function foldSegmentIndexes(segments: readonly string[], root: string, generation: string, log?: Log): void {
  let folded = 0;
  for (const seg of segments) {
    const dir = segmentIndexDir(seg);
    if (!fs.existsSync(dir)) continue;
    const marker = path.join(dir, FOLDED_FILE);
    if (!fs.existsSync(marker)) {
      fs.writeFileSync(`${marker}.tmp`, `${path.join(root, generation)}\n`);
      fs.renameSync(`${marker}.tmp`, marker);
      folded++;
    }
    for (const f of fs.readdirSync(dir)) if (f !== FOLDED_FILE && f !== SUMMARIES_FILE) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
  }
  if (folded) log?.info(`${folded} segment indexes folded into generation ${generation}: their pages are read from it from now on`);
}

/**
 * Refuses a merge into the crawl's own index that leaves out a folded
 * segment still in the crawl: its pages are only in that index, and the new
 * generation would lose them.
 */
export function checkNoneLeftOut(segments: readonly string[], root: string): void {
  const given = new Set(segments.map((s) => path.resolve(s)));
  const dirs = new Set(segments.map((s) => path.dirname(path.resolve(s))));
  for (const dir of dirs) {
    if (path.resolve(crawlPaths(crawlDirOf(dir)).index) !== path.resolve(root)) continue;
    const left = listSegments(dir).filter((n) => !given.has(path.join(dir, n)) && isFolded(path.join(dir, n)));
    if (left.length)
      throw new HzError(
        'HZ_ERR_USAGE',
        `segment ${path.join(dir, left[0]!)}${left.length > 1 ? ` (and ${left.length - 1} more)` : ''} has its pages only in ${root}: merge every segment (-dir ${dir}), or prune it first`,
      );
  }
}
