/**
 * @module crawler/dedup-rule
 * Nutch's duplicate rule over segment indexes, shared by dedup, merge and
 * prune: among documents with the same URL the newest fetch stays; among the
 * rest, documents with the same content digest keep the one with the
 * highest boost, then the shortest URL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openIndex, readDeleted, type LoadedIndex } from '../shared/index/reader.js';
import { segmentIndexDir } from '../shared/crawl-dir.js';
import type { Log } from './log.js';

export interface DedupEntry {
  url: string;
  digest: string;
  boost: number;
  /** Fetch time, ms. */
  tstamp: number;
}

export type DedupReason = 'url' | 'digest';

/**
 * Which entries to delete, by index into `entries`, and why. Entries come in
 * segment order, oldest first. Same URL: the newest tstamp stays; on a tie
 * the later entry (the newer segment) stays — Nutch kept the first seen, which
 * let an older segment's copy win a re-crawl within one second. Same digest
 * (empty digests never match): the highest boost stays when `keepHighestScore`,
 * then the shortest URL, then the first in URL order, so the choice never
 * depends on the order segments are given.
 */
export function duplicates(entries: readonly DedupEntry[], keepHighestScore: boolean): Map<number, DedupReason> {
  const out = new Map<number, DedupReason>();
  const byUrl = new Map<string, number>();
  entries.forEach((e, i) => {
    const j = byUrl.get(e.url);
    if (j === undefined) return void byUrl.set(e.url, i);
    const newer = e.tstamp >= entries[j]!.tstamp;
    out.set(newer ? j : i, 'url');
    if (newer) byUrl.set(e.url, i);
  });
  const byDigest = new Map<string, number>();
  for (const i of byUrl.values()) {
    const e = entries[i]!;
    if (!e.digest) continue;
    const j = byDigest.get(e.digest);
    if (j === undefined) {
      byDigest.set(e.digest, i);
      continue;
    }
    if (better(e, entries[j]!, keepHighestScore)) {
      out.set(j, 'digest');
      byDigest.set(e.digest, i);
    } else out.set(i, 'digest');
  }
  return out;
}

function better(a: DedupEntry, b: DedupEntry, keepHighestScore: boolean): boolean {
  if (keepHighestScore && a.boost !== b.boost) return a.boost > b.boost;
  if (a.url.length !== b.url.length) return a.url.length < b.url.length;
  return a.url < b.url;
}

export interface SegmentIndex {
  segment: string;
  reader: LoadedIndex;
}

/** Opens the index of each segment directory; segments without one are reported and left out. */
export async function openSegmentIndexes(dirs: readonly string[], log?: Log): Promise<SegmentIndex[]> {
  const out: SegmentIndex[] = [];
  for (const dir of dirs) {
    const idx = segmentIndexDir(dir);
    if (!fs.existsSync(idx)) {
      log?.warn(`segment ${dir} has no index (run 'hazelnut index' on it); left out`);
      continue;
    }
    out.push({ segment: path.basename(dir), reader: await openIndex(idx) });
  }
  return out;
}

/** Every document of the segment indexes as dedup entries, with where each came from. */
export function dedupEntries(indexes: readonly SegmentIndex[], opts: { skipDeleted: boolean }): { entries: DedupEntry[]; where: [number, number][] } {
  const entries: DedupEntry[] = [];
  const where: [number, number][] = [];
  indexes.forEach((s, k) => {
    for (let id = 0; id < s.reader.meta.docCount; id++) {
      if (opts.skipDeleted && s.reader.isDeleted(id)) continue;
      const d = s.reader.doc(id);
      entries.push({ url: d.url, digest: d.digest, boost: d.boost, tstamp: d.tstamp });
      where.push([k, id]);
    }
  });
  return { entries, where };
}
