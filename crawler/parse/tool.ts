/**
 * @module crawler/parse/tool
 * `hazelnut parse <segment> [-force]`: Nutch's ParseSegment. Parses every
 * successfully fetched page of a fetched segment that has no parse yet (the
 * fetcher may have parsed some inline), stores the parse records in batches
 * and marks the segment parsed. Nutch refused a parsed segment outright
 * ("Segment already parsed!"); here that is the rule too, and `-force`
 * parses every page again (after a parser or configuration change).
 */
import path from 'node:path';
import type { Conf } from '../../shared/conf.js';
import { HzError, UsageError } from '../../shared/errors.js';
import type { Log } from '../log.js';
import { parseArgs, type Tool } from '../../shared/command.js';
import { Segment, type ParseRecord } from '../../segments/segment.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from '../plugin/chains.js';
import { runWithLog } from '../tool-run.js';
import { segmentCrawlDir } from '../../shared/crawl-dir.js';
import { parseContent } from './parse-content.js';

/** Fetch records read, and their parse records written, at a time: bounds memory and keeps a killed run's work. */
const BATCH = 200;

export interface ParseSegmentOptions {
  segment: string;
  force?: boolean;
  plugins?: CrawlerPlugins;
  log?: Log;
}

export interface ParseSummary {
  success: number;
  failed: number;
  notparsed: number;
  /** Pages parsed before (inline by the fetcher) and left alone. */
  kept: number;
  /** Successful fetches without stored content (fetcher.store.content=false). */
  noContent: number;
}

export async function parseSegment(conf: Conf, opts: ParseSegmentOptions): Promise<ParseSummary> {
  const seg = Segment.open(opts.segment);
  try {
    if (!seg.hasPhase('fetched'))
      throw new HzError('HZ_ERR_SEGMENT_STATE', `segment ${opts.segment} is not fetched yet (run 'hazelnut fetch ${opts.segment}' first)`);
    if (seg.hasPhase('parsed') && !opts.force)
      throw new HzError('HZ_ERR_SEGMENT_STATE', `segment ${opts.segment} is already parsed (use -force to parse it again)`);
    const plugins = opts.plugins ?? (await loadCrawlerPlugins(conf));
    const s: ParseSummary = { success: 0, failed: 0, notparsed: 0, kept: 0, noContent: 0 };
    const progress = opts.log?.step(`parse ${seg.name}`, 'records', seg.count('fetch'));
    let seen = 0;
    for (const fetches of seg.fetchBatches(BATCH)) {
      const batch: ParseRecord[] = [];
      for (const f of fetches) {
        seen++;
        if (f.status !== 'fetch_success') continue;
        if (!opts.force && seg.hasParse(f.url)) {
          s.kept++;
          continue;
        }
        const content = seg.getContent(f.url);
        if (!content) {
          s.noContent++;
          continue;
        }
        const p = await parseContent(plugins, conf, content, f);
        s[p.status]++;
        if (p.status !== 'success') opts.log?.info(`${f.url}: ${p.status}: ${p.message ?? ''}`);
        batch.push(p);
        progress?.update(seen, { errors: s.failed, extra: `${s.success} parsed, ${s.notparsed} not parsed` });
      }
      seg.putParses(batch);
    }
    seg.markPhase('parsed');
    return s;
  } finally {
    seg.close();
  }
}

const USAGE = 'Usage: hazelnut parse <segment> [-force]';

const tool: Tool = {
  name: 'parse',
  usage: USAGE,
  async run(ctx, args) {
    const a = parseArgs(args, { boolean: ['force'] });
    if (a._.length !== 1) throw new UsageError(a._.length === 0 ? 'missing <segment>' : `unexpected argument ${a._[1]}`);
    const segment = a._[0]!;
    const s = await runWithLog(ctx, { tool: 'parse', crawlDir: segmentCrawlDir(segment) }, (log) =>
      parseSegment(ctx.conf, { segment, force: a.force === true, log }),
    );
    ctx.out.write(
      `parse: ${path.basename(segment)}: ${s.success} parsed, ${s.failed} failed, ${s.notparsed} not parsed (no parser)` +
        `${s.kept ? `, ${s.kept} parsed before` : ''}${s.noContent ? `, ${s.noContent} without stored content` : ''}\n`,
    );
    return 0;
  },
};

export default tool;
