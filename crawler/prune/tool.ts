/**
 * @module crawler/prune/tool
 * `hazelnut prune <segments_dir> -olderThan <duration> | -before <yyyyMMdd>
 * [-dryRun] [-force]`: deletes stale segments by date (Nutch's FAQ answer to
 * "do I have to delete old segments?", done safely). A segment that still
 * holds the newest live copy of some page is refused, with those pages
 * listed, unless -force, which deletes it and drops them. After deleting,
 * dedup and merge run over the remaining segments, so no hit of the merged
 * index ever points into a missing segment. -dryRun only reports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseDuration, type Conf } from '../../shared/conf.js';
import { parseDay } from '../../shared/day.js';
import { partialExitCode, UsageError } from '../../shared/errors.js';
import { currentIndex } from '../../shared/index/publish.js';
import { openIndex } from '../../shared/index/reader.js';
import { readIndexMeta } from '../../shared/index/publish.js';
import type { Log } from '../log.js';
import { parseArgs, type Tool } from '../../shared/command.js';
import { listSegments, segmentDate } from '../../segments/segment.js';
import { dedup } from '../dedup.js';
import { dedupEntries, duplicates, openSegmentIndexes } from '../dedup-rule.js';
import { merge } from '../merge.js';
import { runWithLog } from '../tool-run.js';
import { crawlDirOf, crawlPaths } from '../../shared/crawl-dir.js';

export interface PruneOptions {
  segmentsDir: string;
  /** Segments created before this instant are stale. */
  cutoff: Date;
  dryRun: boolean;
  force: boolean;
  log?: Log;
}

export interface PruneSummary {
  /** Stale segments, oldest first. */
  stale: string[];
  deleted: string[];
  /** Stale segments kept because they hold the newest copy of these pages. */
  refused: { segment: string; pages: string[] }[];
  bytesFreed: number;
  /** Pages no longer in the merged index (or that would not be, on a dry run with -force). */
  pagesDropped: number;
  /** The merged index published after deleting. */
  generation?: string;
}

function du(p: string): number {
  const st = fs.lstatSync(p);
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((n, c) => n + du(path.join(p, c)), 0);
}

/** Pages whose newest live copy is in each segment: what the next merge would take from it. */
async function holders(segmentsDir: string, names: string[], log?: Log): Promise<Map<string, string[]>> {
  const indexes = await openSegmentIndexes(names.map((n) => path.join(segmentsDir, n)), log);
  const { entries } = dedupEntries(indexes, { skipDeleted: true });
  const dup = duplicates(entries, true);
  const out = new Map<string, string[]>();
  entries.forEach((e, i) => {
    if (dup.has(i)) return;
    const urls = out.get(e.segment);
    if (urls) urls.push(e.url);
    else out.set(e.segment, [e.url]);
  });
  for (const s of indexes) s.reader.close();
  return out;
}

export async function prune(conf: Conf, opts: PruneOptions): Promise<PruneSummary> {
  const all = listSegments(opts.segmentsDir);
  const stale = all.filter((n) => segmentDate(n)!.getTime() < opts.cutoff.getTime());
  const held = await holders(opts.segmentsDir, all, opts.log);
  const refused = opts.force ? [] : stale.filter((n) => held.has(n)).map((segment) => ({ segment, pages: held.get(segment)! }));
  const doomed = stale.filter((n) => !refused.some((r) => r.segment === n));
  const bytesFreed = doomed.reduce((b, n) => b + du(path.join(opts.segmentsDir, n)), 0);
  const dropping = doomed.reduce((k, n) => k + (held.get(n)?.length ?? 0), 0);
  const summary: PruneSummary = { stale, deleted: [], refused, bytesFreed, pagesDropped: dropping };
  const crawlDir = crawlDirOf(opts.segmentsDir);
  const missing = doomed.length === 0 ? segmentsGone(crawlDir, all) : [];
  if (opts.dryRun || (doomed.length === 0 && missing.length === 0)) return summary;
  // A prune killed between deleting and merging leaves an index that points into deleted segments: this run finishes it.
  if (missing.length) opts.log?.info(`the index still names ${missing.length} deleted segment(s) (${missing.join(', ')}): merging again`);

  const before = new Set([...held.values()].flat());
  for (const n of doomed) {
    // Renamed first, so a killed prune never leaves a half-deleted segment that still looks like one.
    const gone = path.join(opts.segmentsDir, `.deleting-${n}`);
    fs.renameSync(path.join(opts.segmentsDir, n), gone);
    fs.rmSync(gone, { recursive: true, force: true });
    summary.deleted.push(n);
    opts.log?.info(`deleted segment ${n}${held.has(n) ? ` holding ${held.get(n)!.length} newest pages` : ''}`);
  }
  const remaining = listSegments(opts.segmentsDir).map((n) => path.join(opts.segmentsDir, n));
  await dedup(conf, { segments: remaining, log: opts.log });
  const merged = await merge(conf, { index: crawlPaths(crawlDir).index, segments: remaining, log: opts.log });
  summary.generation = merged.generation;
  const after = await openIndex(merged.dir);
  summary.pagesDropped = [...before].filter((u) => after.idOf(u) === undefined).length;
  after.close();
  return summary;
}

/** Segments the published merged index names that are no longer in the segments directory. */
function segmentsGone(crawlDir: string, live: string[]): string[] {
  if (!currentIndex(crawlDir)) return [];
  const have = new Set(live);
  return readIndexMeta(crawlDir).meta.segments.filter((s) => !have.has(s));
}

/** The cutoff from -olderThan (a duration before now) or -before (a UTC day). */
export function pruneCutoff(olderThan: string | undefined, before: string | undefined, now = Date.now()): Date {
  if ((olderThan === undefined) === (before === undefined)) throw new UsageError('give exactly one of -olderThan and -before');
  if (olderThan !== undefined) {
    const ms = parseDuration(olderThan, 'd');
    if (ms === undefined || ms < 0) throw new UsageError(`-olderThan needs a duration such as 30d or 12h, not ${olderThan}`);
    return new Date(now - ms);
  }
  const d = parseDay(before!);
  if (!d) throw new UsageError(`-before needs a date yyyyMMdd, not ${before}`);
  return d;
}

const tool: Tool = {
  name: 'prune',
  usage: 'Usage: hazelnut prune <segments_dir> (-olderThan <duration> | -before <yyyyMMdd>) [-dryRun] [-force]',
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['olderThan', 'before'], boolean: ['dryRun', 'force'] });
    if (a._.length !== 1) throw new UsageError(a._.length ? `unexpected argument ${a._[1]}` : 'missing <segments_dir>');
    const segmentsDir = a._[0]!;
    const cutoff = pruneCutoff(a.olderThan as string | undefined, a.before as string | undefined);
    // -force here drops pages, it does not take over a lock; a dry run changes nothing and needs none.
    const s = await runWithLog(ctx, { tool: 'prune', crawlDir: crawlDirOf(segmentsDir), lock: a.dryRun ? undefined : {} }, (log) =>
      prune(ctx.conf, { segmentsDir, cutoff, dryRun: a.dryRun === true, force: a.force === true, log }),
    );
    for (const r of s.refused) {
      ctx.err.write(`prune: ${a.dryRun ? 'would refuse' : 'refusing'} to delete ${r.segment}: it holds the newest copy of ${r.pages.length} page(s) (use -force to drop them):\n`);
      for (const u of r.pages.slice(0, 20)) ctx.err.write(`  ${u}\n`);
      if (r.pages.length > 20) ctx.err.write(`  … and ${r.pages.length - 20} more\n`);
    }
    const verb = a.dryRun ? 'would delete' : 'deleted';
    const n = a.dryRun ? s.stale.length - s.refused.length : s.deleted.length;
    ctx.out.write(
      `prune: ${verb} ${n} of ${s.stale.length} segments older than ${cutoff.toISOString()}, ${(s.bytesFreed / 1048576).toFixed(1)} MiB ${a.dryRun ? 'to free' : 'freed'}, ${s.pagesDropped} pages ${a.dryRun ? 'to drop' : 'dropped'}, ${s.refused.length} refused${s.generation ? `, index generation ${s.generation}` : ''}\n`,
    );
    // A dry run exits as the real run would.
    return partialExitCode(n, s.refused.length);
  },
};

export default tool;
