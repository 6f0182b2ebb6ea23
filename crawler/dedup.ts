/**
 * @module crawler/dedup
 * `hazelnut dedup (<segment> ... | -dir <segments>)`: Nutch's DeleteDuplicates
 * over segment indexes. Among documents with the same URL the newest fetch
 * stays; among the rest, documents with the same content digest keep the one
 * with the highest boost, then the shortest URL. Deletions go to a `deleted`
 * file beside each segment index (a folded segment's pages, in the merged
 * index, get none); segment data is never rewritten. The
 * decision is recomputed from all given documents each run, so running it
 * twice changes nothing. Merge applies the same rule to what it merges.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Conf } from '../shared/conf.js';
import { UsageError } from '../shared/errors.js';
import { DELETED_FILE, packColumns, writeIndexFile } from '../shared/index/format.js';
import { readDeleted } from '../shared/index/reader.js';
import type { Log } from './log.js';
import { parseArgs, type Tool } from '../shared/command.js';
import { dedupEntries, duplicates, openSegmentIndexes, segmentNames, type SegmentIndex } from './dedup-rule.js';
import { segmentDirs } from './segment-args.js';
import { runWithLog } from './tool-run.js';
import { segmentCrawlDir, segmentIndexDir } from '../shared/crawl-dir.js';

export interface DedupSummary {
  segments: number;
  documents: number;
  byUrl: number;
  byDigest: number;
  /** Segment indexes whose deletions changed. */
  changed: number;
}

export async function dedup(conf: Conf, opts: { segments: string[]; log?: Log }): Promise<DedupSummary> {
  const indexes = await openSegmentIndexes(opts.segments, opts.log);
  try {
    return writeDeletions(conf, indexes, opts.log);
  } finally {
    for (const s of indexes) s.reader.close();
  }
}

/** Applies the dedup rule over every document of `indexes` and writes each one's deletions that changed. */
function writeDeletions(conf: Conf, indexes: SegmentIndex[], log: Log | undefined): DedupSummary {
  const { entries, where } = dedupEntries(indexes, { skipDeleted: false });
  const dup = duplicates(entries, conf.getBoolean('dedup.keep.highest.score'));
  const perSegment = indexes.map(() => [] as number[]);
  for (const i of dup.keys()) perSegment[where[i]![0]]!.push(where[i]![1]);
  let changed = 0;
  indexes.forEach((s, k) => {
    // The merged index of folded segments keeps no deletions: merge applies the rule to its pages again.
    if (s.folded) return;
    const ids = perSegment[k]!.sort((a, b) => a - b);
    const dir = s.reader.dir;
    const before = [...readDeleted(dir)].sort((a, b) => a - b);
    if (before.length === ids.length && before.every((v, i) => v === ids[i])) return;
    changed++;
    const file = path.join(dir, DELETED_FILE);
    if (ids.length === 0) fs.rmSync(file, { force: true });
    else {
      writeIndexFile(dir, DELETED_FILE, packColumns({ ids: Uint32Array.from(ids) }), `${DELETED_FILE}.tmp`);
      fs.renameSync(path.join(dir, `${DELETED_FILE}.tmp`), file);
    }
    log?.info(`${s.segment}: ${ids.length} of ${s.reader.meta.docCount} documents deleted as duplicates`);
  });
  let byUrl = 0;
  for (const r of dup.values()) if (r === 'url') byUrl++;
  return { segments: segmentNames(indexes).length, documents: entries.length, byUrl, byDigest: dup.size - byUrl, changed };
}

const tool: Tool = {
  name: 'dedup',
  usage: 'Usage: hazelnut dedup (<segment> ... | -dir <segments>)',
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['dir'] });
    const segments = segmentDirs(a._, a.dir as string | undefined);
    if (segments.length === 0) throw new UsageError(`no segments in ${a.dir}`);
    const s = await runWithLog(ctx, { tool: 'dedup', crawlDir: segmentCrawlDir(segments[0]!) }, (log) => dedup(ctx.conf, { segments, log }));
    ctx.out.write(
      `dedup: ${s.byUrl + s.byDigest} of ${s.documents} documents deleted (${s.byUrl} older copies of a URL, ${s.byDigest} same content) in ${s.segments} segment indexes, ${s.changed} changed\n`,
    );
    return 0;
  },
};

export default tool;
