/**
 * @module crawler/updatedb/tool
 * `hazelnut updatedb <webdb> (-dir <segments> | <seg> ...) [-normalize]
 * [-filter] [-noAdditions] [-force]`: Nutch's CrawlDb update. Each segment
 * that was fetched and parsed is read (collect.ts), every URL it touched is
 * merged with its WebDB row (merge.ts), the outlink rows of its re-parsed
 * pages replace their old ones, and the segment is recorded as applied — all
 * in one transaction per segment, so a crash leaves the WebDB as it was and
 * applying a segment twice changes nothing the second time. Normalizing and
 * filtering are off unless asked for, as in Nutch; the one-shot crawl asks.
 */
import type { Conf } from '../../shared/conf.js';
import { UsageError } from '../../shared/errors.js';
import type { Log } from '../../shared/log.js';
import { parseArgs, type Tool } from '../../shared/tool.js';
import { Segment } from '../../segments/segment.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from '../plugins.js';
import { segmentDirs, segmentsCrawlDir } from '../segment-args.js';
import { runWithLog } from '../tool-run.js';
import { openWebDb, type ApplyingTool, type PageRow, type WebDb } from '../webdb/webdb.js';
import { collectSegment, type SegmentUpdate } from './collect.js';
import { mergePage, type MergeOptions } from './merge.js';
import { scheduleFromConf } from './schedule.js';

const UPDATEDB_TOOL: ApplyingTool = 'updatedb';
/** URLs whose stored rows are read at once. */
const READ_BATCH = 1000;

export interface UpdateDbOptions {
  webdb: string;
  segments: string[];
  normalize?: boolean;
  filter?: boolean;
  /** Overrides `db.update.additions.allowed`. */
  additionsAllowed?: boolean;
  plugins?: CrawlerPlugins;
  log?: Log;
  now?: number;
}

export interface UpdateDbSummary {
  applied: string[];
  /** Segment name → why it was skipped. */
  skipped: Record<string, string>;
  fetched: number;
  added: number;
  updated: number;
  links: number;
}

export function mergeOptions(conf: Conf, scoring: CrawlerPlugins['scoring'], additionsAllowed?: boolean): MergeOptions {
  return {
    additionsAllowed: additionsAllowed ?? conf.getBoolean('db.update.additions.allowed'),
    retryMax: conf.getInt('db.fetch.retry.max'),
    maxInlinks: conf.getInt('db.update.max.inlinks'),
    schedule: scheduleFromConf(conf),
    scoring,
  };
}

/** Writes one segment's update in a single transaction; returns what changed. */
function apply(db: WebDb, name: string, u: SegmentUpdate, o: MergeOptions, now: number, log?: Log) {
  const stats = { added: 0, updated: 0, links: 0 };
  const urls = new Set([...u.fetches.keys(), ...u.linked.keys()]);
  const progress = log?.step(`updatedb ${name}`, 'URLs', urls.size);
  const list = [...urls];
  let known = new Map<string, PageRow>();
  db.transaction(() => {
    for (let i = 0; i < list.length; i++) {
      const url = list[i]!;
      // The stored rows are read a batch at a time: one round trip a batch when the WebDB is on a server.
      if (i % READ_BATCH === 0) known = db.pagesOf(list.slice(i, i + READ_BATCH));
      progress?.update(i + 1);
      const old = known.get(url);
      const row = mergePage(url, old, u.fetches.get(url), u.linked.get(url) ?? [], o, now);
      if (!row || row === old) continue;
      db.putPage(row);
      if (old) stats.updated++;
      else stats.added++;
    }
    for (const [source, outlinks] of u.links) stats.links += db.replaceOutlinks(source, outlinks);
    db.markApplied(UPDATEDB_TOOL, name, now);
  });
  return stats;
}

export async function updatedb(conf: Conf, opts: UpdateDbOptions): Promise<UpdateDbSummary> {
  const plugins = opts.plugins ?? (await loadCrawlerPlugins(conf));
  const o = mergeOptions(conf, plugins.scoring, opts.additionsAllowed);
  const summary: UpdateDbSummary = { applied: [], skipped: {}, fetched: 0, added: 0, updated: 0, links: 0 };
  const db = openWebDb(opts.webdb);
  try {
    for (const dir of opts.segments) {
      const seg = Segment.open(dir, { readonly: true });
      try {
        const why = !seg.hasPhase('fetched')
          ? 'not fetched'
          : !seg.hasPhase('parsed')
            ? 'not parsed'
            : db.isApplied(UPDATEDB_TOOL, seg.name)
              ? 'already applied'
              : undefined;
        if (why) {
          summary.skipped[seg.name] = why;
          opts.log?.info(`segment ${seg.name} skipped: ${why}`);
          continue;
        }
        const u = collectSegment(seg, plugins, { normalize: opts.normalize ?? false, filter: opts.filter ?? false }, (url) => db.pageScore(url));
        const s = apply(db, seg.name, u, o, opts.now ?? Date.now(), opts.log);
        summary.applied.push(seg.name);
        summary.fetched += u.fetches.size;
        summary.added += s.added;
        summary.updated += s.updated;
        summary.links += s.links;
        opts.log?.info(`segment ${seg.name}: ${u.fetches.size} fetched, ${s.added} new pages, ${s.updated} updated, ${s.links} links`);
      } finally {
        seg.close();
      }
    }
  } finally {
    db.close();
  }
  return summary;
}

const USAGE = 'Usage: hazelnut updatedb <webdb> (-dir <segments> | <seg1> <seg2> ...) [-force] [-normalize] [-filter] [-noAdditions]';

const tool: Tool = {
  name: 'updatedb',
  description: 'update the WebDB from fetched and parsed segments',
  usage: USAGE,
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['dir'], boolean: ['force', 'normalize', 'filter', 'noAdditions'] });
    const [webdb, ...segs] = a._;
    if (!webdb) throw new UsageError('missing <webdb>');
    const segments = segmentDirs(segs, a.dir as string | undefined);
    const s = await runWithLog(ctx, { tool: 'updatedb', webdb, crawlDir: segmentsCrawlDir(segments), lock: { force: a.force === true } }, (log) =>
      updatedb(ctx.conf, {
        webdb,
        segments,
        normalize: a.normalize === true,
        filter: a.filter === true,
        additionsAllowed: a.noAdditions === true ? false : undefined,
        log,
      }),
    );
    for (const [name, why] of Object.entries(s.skipped)) ctx.err.write(`updatedb: segment ${name} skipped: ${why}\n`);
    ctx.out.write(
      `updatedb: ${s.applied.length} segment${s.applied.length === 1 ? '' : 's'} applied, ${Object.keys(s.skipped).length} skipped; ${s.fetched} fetched, ${s.added} new pages, ${s.updated} pages updated, ${s.links} links\n`,
    );
    return 0;
  },
};

export default tool;
