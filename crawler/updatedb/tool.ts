/**
 * @module crawler/updatedb/tool
 * `hazelnut updatedb <webdb> (-dir <segments> | <seg> ...) [-normalize]
 * [-filter] [-noAdditions] [-force]`: Nutch's CrawlDb update. Each segment
 * that was fetched and parsed is read (collect.ts), every URL it touched is
 * merged with its WebDB row (merge.ts), the outlink rows of its re-parsed
 * pages replace their old ones, and the segment is recorded as applied — all
 * in one transaction per segment, a batch of pages in memory at a time
 * (stage.ts), so a crash leaves the WebDB as it was and
 * applying a segment twice changes nothing the second time. Normalizing and
 * filtering are off unless asked for, as in Nutch; the one-shot crawl asks.
 */
import type { Conf } from '../../shared/conf.js';
import { UsageError } from '../../shared/errors.js';
import type { Log } from '../log.js';
import { parseArgs, type Tool } from '../../shared/command.js';
import { Segment } from '../../segments/segment.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from '../plugin/chains.js';
import { segmentDirs, segmentsCrawlDir } from '../segment-args.js';
import { runWithLog } from '../tool-run.js';
import { openWebDb, type ApplyingTool, type WebDb } from '../webdb/webdb.js';
import { collectPages, type CollectOptions } from './outcomes.js';
import { mergePage, type MergeOptions } from './reducer.js';
import { scheduleFromConf } from './schedule.js';
import { Stage } from '../webdb/stage.js';

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

/**
 * Applies one segment in a single transaction: its pages' outlink rows as
 * they are read, then the page rows, merged a batch of URLs at a time from
 * the stage. Memory holds a page and a batch, not the segment.
 */
function apply(db: WebDb, seg: Segment, plugins: CrawlerPlugins, co: CollectOptions, o: MergeOptions, now: number, log?: Log) {
  const stats = { fetched: 0, added: 0, updated: 0, links: 0 };
  const stage = new Stage();
  try {
    db.transaction(() => {
      // Pages' scores are read before any page row is written: the segment's own merge must not change them.
      for (const p of collectPages(seg, plugins, co, (url) => db.pageScore(url)))
        stage.add(p.url, p.fetch, p.cash, p.outlinks ? db.replaceOutlinks(p.url, p.outlinks) : 0);
      Object.assign(stats, stage.totals());
      const progress = log?.step(`updatedb ${seg.name}`, 'URLs');
      let done = 0;
      // The stored rows are read a batch at a time: one round trip a batch when the WebDB is on a server.
      for (const batch of stage.byUrl(READ_BATCH)) {
        const known = db.pagesOf(batch.map((u) => u.url));
        for (const u of batch) {
          const old = known.get(u.url);
          const row = mergePage(u.url, old, u.fetch, u.cash, o, now);
          if (!row || row === old) continue;
          db.putPage(row);
          if (old) stats.updated++;
          else stats.added++;
        }
        progress?.update((done += batch.length));
      }
      db.markApplied(UPDATEDB_TOOL, seg.name, now);
    });
  } finally {
    stage.close();
  }
  return stats;
}

export async function updatedb(conf: Conf, opts: UpdateDbOptions): Promise<UpdateDbSummary> {
  const plugins = opts.plugins ?? (await loadCrawlerPlugins(conf));
  const o = mergeOptions(conf, plugins.scoring, opts.additionsAllowed);
  const summary: UpdateDbSummary = { applied: [], skipped: {}, fetched: 0, added: 0, updated: 0, links: 0 };
  const db = openWebDb(opts.webdb, { bulk: true });
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
        const s = apply(db, seg, plugins, { normalize: opts.normalize ?? false, filter: opts.filter ?? false }, o, opts.now ?? Date.now(), opts.log);
        summary.applied.push(seg.name);
        summary.fetched += s.fetched;
        summary.added += s.added;
        summary.updated += s.updated;
        summary.links += s.links;
        opts.log?.info(`segment ${seg.name}: ${s.fetched} fetched, ${s.added} new pages, ${s.updated} updated, ${s.links} links`);
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
