/**
 * @module crawler/dedup-rule
 * Nutch's duplicate rule over segment indexes (folded ones read from the
 * crawl's merged index), shared by dedup, merge and prune: among documents
 * with the same URL the newest fetch stays; among the rest, documents with
 * the same content digest keep the one with the highest boost, then the
 * shortest URL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HzError } from '../shared/errors.js';
import { currentIndex } from '../shared/index/publish.js';
import { openIndex, type LoadedIndex } from '../shared/index/reader.js';
import { segmentIndexDir } from '../shared/crawl-dir.js';
import { foldingIndex, isFolded } from './folded-index.js';
import type { Log } from './log.js';

export interface DedupEntry {
  url: string;
  digest: string;
  boost: number;
  /** Fetch time, ms. */
  tstamp: number;
}

/** A document as dedup, merge and prune see it: the rule's fields and the segment holding it. */
export interface SegmentEntry extends DedupEntry {
  segment: string;
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
  /** The segment's name; for the crawl's merged index, its directory. */
  segment: string;
  reader: LoadedIndex;
  /** For the crawl's merged index read in place of folded segment indexes (crawler/folded-index): those segments, the only ones whose pages are taken from it. */
  folded?: ReadonlySet<string>;
}

/** The segments whose pages an input holds. */
export function segmentNames(indexes: readonly SegmentIndex[]): string[] {
  return indexes.flatMap((s) => (s.folded ? [...s.folded] : [s.segment]));
}

/**
 * Opens the index of each segment directory; segments without one are
 * reported and left out. Folded segment indexes are read from their crawl's
 * merged index, which comes first: it holds the older pages.
 */
export async function openSegmentIndexes(dirs: readonly string[], log?: Log): Promise<SegmentIndex[]> {
  const out: SegmentIndex[] = [];
  const folded = new Map<string, string[]>();
  for (const dir of dirs) {
    const idx = segmentIndexDir(dir);
    if (isFolded(dir)) {
      const root = foldingIndex(dir);
      folded.set(root, [...(folded.get(root) ?? []), path.basename(dir)]);
      continue;
    }
    if (!fs.existsSync(idx)) {
      log?.warn(`segment ${dir} has no index (run 'hazelnut index' on it); left out`);
      continue;
    }
    out.push({ segment: path.basename(dir), reader: await openIndex(idx) });
  }
  const merged: SegmentIndex[] = [];
  for (const [root, names] of folded) merged.push(await openFoldedInto(root, names));
  return [...merged, ...out];
}

/** The merged index `root` as the input of the folded segments `names`; refused when its live generation lacks one of them. */
async function openFoldedInto(root: string, names: string[]): Promise<SegmentIndex> {
  const cur = currentIndex(root);
  const reader = cur ? await openIndex(cur.dir) : undefined;
  const lost = names.filter((n) => !reader?.meta.segments.includes(n));
  if (lost.length) {
    reader?.close();
    throw new HzError(
      'HZ_ERR_NOT_FOUND',
      `segment ${lost.join(', ')}: its own index was folded into the merged index ${root}, ${cur ? `whose generation ${cur.generation} does not hold its pages` : 'which holds no index'}; ` +
        `index the segment again ('hazelnut index <crawl>/webdb <segment>')`,
    );
  }
  return { segment: cur!.dir, reader: reader!, folded: new Set(names) };
}

/** Every document of the segment indexes as dedup entries, with where each came from. */
export function dedupEntries(indexes: readonly SegmentIndex[], opts: { skipDeleted: boolean }): { entries: SegmentEntry[]; where: [number, number][] } {
  const entries: SegmentEntry[] = [];
  const where: [number, number][] = [];
  indexes.forEach((s, k) => {
    for (let id = 0; id < s.reader.meta.docCount; id++) {
      if (opts.skipDeleted && s.reader.isDeleted(id)) continue;
      const d = s.reader.doc(id);
      if (s.folded && !s.folded.has(d.segment)) continue;
      entries.push({ url: d.url, digest: d.digest, boost: d.boost, tstamp: d.tstamp, segment: s.folded ? d.segment : s.segment });
      where.push([k, id]);
    }
  });
  return { entries, where };
}
