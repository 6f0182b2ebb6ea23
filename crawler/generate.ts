/**
 * @module crawler/generate
 * `hazelnut generate <webdb> <segments_dir>`: picks the due pages of the
 * WebDB, best score first, at most generate.max.count per host or domain,
 * and writes them as the fetchlist of a new dated segment (or several, with
 * -maxNumSegments). Generated pages are marked in the WebDB, so an
 * overlapping generate skips them until updatedb takes the segment in or
 * crawl.gen.delay passes. With -numFetchers n the fetchlist is split into n
 * fetch partitions by host, recorded in the segment and, for the fetchers'
 * leases, in the WebDB. When nothing is due it says why — empty WebDB,
 * everything fetched recently (and when the next page is due), everything
 * filtered (naming the rule file) or awaiting updatedb — and exits with
 * NOTHING_DUE_EXIT (3), which scripts can tell from an error (1).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_FILE, type Conf } from '../shared/conf.js';
import { UsageError } from '../shared/errors.js';
import type { Log } from './log.js';
import { intOption, parseArgs, type Tool } from '../shared/command.js';
import { domainOfHost, host } from './url/keys.js';
import { listSegments, Segment, segmentDate } from '../segments/segment.js';
import { assignSegments, awaitingUpdate, interleaveHosts, isDue, partitionByHost } from './fetchlist.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from './plugin/chains.js';
import { runWithLog } from './tool-run.js';
import { crawlDirOf } from '../shared/crawl-dir.js';
import { DAY_MS, scheduleFromConf } from './updatedb/schedule.js';
import { shipPartition } from './fetch/shipping.js';
import { openWebDb, sharesPartitionsRemotely, type PageRow, type WebDb } from './webdb/webdb.js';

/** Exit code of `generate` when no page is due: not an error, but nothing to fetch. */
export const NOTHING_DUE_EXIT = 3;

export interface GenerateOptions {
  /** -topN: URLs per segment. */
  topN?: number;
  /** -adddays: generate as if it were this many days later. */
  addDays?: number;
  /** -noFilter / -noNorm switch off generate.filter / generate.normalise. */
  filter?: boolean;
  normalize?: boolean;
  /** -maxNumSegments */
  maxNumSegments?: number;
  /** -numFetchers: fetch partitions per segment; 1 (the default) fetches a segment as a whole. */
  numFetchers?: number;
  now?: number;
  log?: Log;
}

export type NothingDueReason = 'empty' | 'not_due' | 'awaiting_update' | 'filtered' | 'min_score';

export interface GenerateSummary {
  /** Directories of the segments made, oldest first. */
  segments: string[];
  /** URLs per segment. */
  counts: number[];
  hosts: number;
  /** Due pages the URL filters or normalizers dropped, and those below generate.min.score. */
  filtered: number;
  belowMinScore: number;
  /** Due pages beyond -topN × -maxNumSegments or the per-host cap, left for later. */
  leftOver: number;
  /** Per segment, with -numFetchers: its fetch partitions and what it says of them (fewer than asked, and why). */
  partitions: { count: number; message: string }[];
  /** Set when no segment was made. */
  nothingDue?: { reason: NothingDueReason; message: string };
}

function settings(conf: Conf, o: GenerateOptions) {
  // Nutch 1.0's name counts where it is set and generate.max.count keeps its default.
  const oldMax = conf.getInt('generate.max.per.host');
  const maxCount = oldMax >= 0 && conf.source('generate.max.count') === DEFAULT_FILE ? oldMax : conf.getInt('generate.max.count');
  const mode = conf.get('generate.count.mode');
  if (mode !== 'host' && mode !== 'domain')
    throw new UsageError(`property generate.count.mode in ${conf.source('generate.count.mode')} must be host or domain, not ${JSON.stringify(mode)}`);
  const minScore = conf.get('generate.min.score') === '' ? -Infinity : conf.getFloat('generate.min.score');
  const topN = o.topN ?? Infinity;
  const maxSegments = o.maxNumSegments ?? 1;
  if (!(topN > 0)) throw new UsageError(`-topN must be positive, not ${topN}`);
  if (!(maxSegments >= 1)) throw new UsageError(`-maxNumSegments must be at least 1, not ${maxSegments}`);
  const numFetchers = o.numFetchers ?? 1;
  if (!(numFetchers >= 1)) throw new UsageError(`-numFetchers must be at least 1, not ${numFetchers}`);
  return {
    maxCount,
    countKey: mode === 'domain' ? (u: string) => domainOfHost(host(u)) : host,
    minScore,
    topN,
    maxSegments,
    numFetchers,
    filter: o.filter ?? conf.getBoolean('generate.filter'),
    normalize: o.normalize ?? conf.getBoolean('generate.normalise'),
    delayMs: conf.getDuration('crawl.gen.delay', 'ms'),
    schedule: scheduleFromConf(conf),
  };
}

/**
 * A generate killed part-way leaves a segment without its `generated` marker.
 * When the WebDB already marked its pages (with the segment's time), only
 * the marker was missing: it is set. Otherwise the marking never committed,
 * the pages are still due, and the partial segment is deleted. Generate holds
 * the crawl lock, nothing else writes a segment before it is marked, and every
 * generate finishes these first: only segments newer than the newest finished
 * one can be unfinished, so the look stops there, however many segments the
 * crawl has.
 */
function finishUnmarked(db: WebDb, segmentsDir: string, log: Log | undefined): void {
  for (const name of listSegments(segmentsDir).reverse()) {
    const dir = path.join(segmentsDir, name);
    let seg: Segment;
    try {
      seg = Segment.open(dir);
    } catch {
      // Killed while creating it: no schema yet, nothing marked.
      log?.warn(`segment ${dir} was left half-created by an interrupted generate: deleted`);
      fs.rmSync(dir, { recursive: true, force: true });
      continue;
    }
    let remove = false;
    try {
      if (seg.hasPhase('generated') || seg.count('fetch') > 0) return;
      const list = seg.fetchlist();
      const first = list.next();
      list.return?.();
      const marked = !first.done && db.page(first.value.url)?.generate_time === segmentDate(name)!.getTime();
      if (marked) seg.markPhase('generated');
      remove = !marked;
      log?.warn(`segment ${dir} was left unfinished by an interrupted generate: ${marked ? 'finished' : 'deleted'}`);
    } finally {
      seg.close();
    }
    if (remove) fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Settings = ReturnType<typeof settings>;
/** A due page the rules let through, with what selection needs of it. */
type Candidate = { url: string; host: string; countKey: string; sort: number; row: PageRow };

/**
 * The due pages the rules keep, best first: SQL narrows to rows that are due,
 * or pulled in, and not awaiting updatedb; the schedule, the normalizers and
 * filters and the minimum score decide. What they drop is counted in `summary`.
 */
function candidatesOf(db: WebDb, s: Settings, plugins: CrawlerPlugins, now: number, addMs: number, summary: GenerateSummary): Candidate[] {
  const rows = db.generateCandidates({ delayMs: s.delayMs, now, dueBy: now + addMs, pullIn: now + addMs + s.schedule.maxInterval * 1000 });
  const candidates: Candidate[] = [];
  for (const row of rows) {
    if (!isDue(row, s.schedule, now, addMs) || awaitingUpdate(row.generate_time, now, s.delayMs)) continue;
    const normalized = s.normalize ? plugins.normalizers.normalize(row.url, 'generate_host_count') : row.url;
    if (normalized === null || (s.filter && plugins.filters.filter(row.url) === null)) {
      summary.filtered++;
      continue;
    }
    const sort = plugins.scoring.generatorSortValue(row.url, row.score);
    if (sort < s.minScore) {
      summary.belowMinScore++;
      continue;
    }
    candidates.push({ url: row.url, host: new URL(row.url).host, countKey: s.countKey(normalized), sort, row });
  }
  return candidates.sort((a, b) => b.sort - a.sort || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

/**
 * One new segment holding `list`: its fetchlist, then the WebDB marks the
 * pages with the segment's own time, then the marker — finishUnmarked()
 * completes or removes whatever a crash leaves between these steps.
 */
function writeSegment(db: WebDb, segmentsDir: string, webDbDir: string, list: readonly Candidate[], s: Settings, now: number, summary: GenerateSummary, log: Log | undefined): string {
  // Fetchlist, then the WebDB marks the pages with the segment's own time, then the marker:
  // finishUnmarked() completes or removes whatever a crash leaves between these steps.
  const seg = Segment.create(segmentsDir, new Date(now));
  try {
    seg.addFetchlist(interleaveHosts(list).map((c) => ({ url: c.url, host: c.host, score: c.sort, datum: { ...c.row } })));
    const parts = s.numFetchers > 1 ? partition(seg, list, s.numFetchers) : undefined;
    db.transaction(() => {
      db.markGenerated(
        list.map((c) => c.url),
        segmentDate(seg.name)!.getTime(),
      );
      if (parts) db.addPartitions(seg.name, parts.totals.length, parts.totals);
    });
    seg.markPhase('generated');
    // On a server, each partition's fetchlist goes there too, for fetchers on machines without the segment.
    if (parts && sharesPartitionsRemotely(webDbDir))
      for (let i = 0; i < parts.totals.length; i++) {
        seg.openPart(i).close();
        shipPartition(db, seg.dir, i, 'fetchlist');
      }
    if (parts) {
      const message = `segment ${seg.dir}: ${partitionsMade(parts.totals.length, s.numFetchers, parts.hosts)}`;
      summary.partitions.push({ count: parts.totals.length, message });
      if (parts.totals.length < s.numFetchers) log?.notice(message);
      else log?.info(message);
    }
  } finally {
    seg.close();
  }
  log?.info(`segment ${seg.dir}: ${list.length} URLs`);
  return seg.dir;
}

export async function generate(conf: Conf, webDbDir: string, segmentsDir: string, opts: GenerateOptions = {}): Promise<GenerateSummary> {
  const s = settings(conf, opts);
  const now = opts.now ?? Date.now();
  const addMs = (opts.addDays ?? 0) * DAY_MS;
  const plugins = await loadCrawlerPlugins(conf);
  const db = openWebDb(webDbDir);
  try {
    finishUnmarked(db, segmentsDir, opts.log);
    const summary: GenerateSummary = { segments: [], counts: [], hosts: 0, filtered: 0, belowMinScore: 0, leftOver: 0, partitions: [] };
    const candidates = candidatesOf(db, s, plugins, now, addMs, summary);
    const lists = assignSegments(candidates, { topN: s.topN, maxCount: s.maxCount, maxSegments: s.maxSegments });
    summary.leftOver = candidates.length - lists.reduce((n, l) => n + l.length, 0);
    if (lists.length === 0) {
      summary.nothingDue = explain(conf, db, summary, now, addMs, s.delayMs);
      opts.log?.info(summary.nothingDue.message);
      return summary;
    }
    for (const list of lists) {
      summary.segments.push(writeSegment(db, segmentsDir, webDbDir, list, s, now, summary, opts.log));
      summary.counts.push(list.length);
    }
    summary.hosts = new Set(lists.flatMap((list) => list.map((c) => c.host))).size;
    return summary;
  } finally {
    db.close();
  }
}

/**
 * Splits a segment's fetchlist into fetch partitions by host name (all ports
 * of a host together, as the fetcher's politeness queues are per host), at
 * most one per host. Returns the URLs of each and the number of host names.
 */
function partition(seg: Segment, list: readonly { url: string; host: string }[], n: number): { totals: number[]; hosts: number } {
  const nameOf = new Map<string, string>();
  const urls = new Map<string, number>();
  for (const c of list) {
    const name = new URL(c.url).hostname;
    nameOf.set(c.host, name);
    urls.set(name, (urls.get(name) ?? 0) + 1);
  }
  const count = Math.min(n, urls.size);
  const byName = partitionByHost(urls, count);
  seg.setPartitions(new Map([...nameOf].map(([host, name]) => [host, byName.get(name)!])), count);
  const totals = new Array<number>(count).fill(0);
  for (const [name, n] of urls) totals[byName.get(name)!]! += n;
  return { totals, hosts: urls.size };
}

/** What generate says of a segment's fetch partitions: how many, and why fewer than the fetchers asked for. */
export function partitionsMade(made: number, asked: number, hosts: number): string {
  const line = `${made} fetch partition${made === 1 ? '' : 's'}`;
  if (made >= asked) return `${line}, one for each of ${asked} fetchers`;
  return `${line}, not ${asked}: a partition holds whole hosts (politeness is per host) and the segment has URLs of ${hosts} host${hosts === 1 ? '' : 's'}; ${asked - made} of the ${asked} fetchers will find nothing to fetch`;
}

/** Why no page was generated, in the words a user needs to act. */
function explain(
  conf: Conf,
  db: WebDb,
  s: GenerateSummary,
  now: number,
  addMs: number,
  delayMs: number,
): { reason: NothingDueReason; message: string } {
  const total = db.pageCount();
  if (total === 0) return { reason: 'empty', message: "0 URLs selected: the WebDB has no URLs; add seeds with 'hazelnut inject'" };
  if (s.filtered > 0 && s.belowMinScore === 0) {
    const file = conf.isDeclared('urlfilter.regex.file') ? conf.resolveFile(conf.get('urlfilter.regex.file'), { optional: true }) : undefined;
    return {
      reason: 'filtered',
      message: `0 URLs selected: all ${s.filtered} due URLs were rejected by the URL filters or normalizers${file ? ` (rules in ${file})` : ''}; check the rules, or run generate -noFilter`,
    };
  }
  if (s.belowMinScore > 0)
    return { reason: 'min_score', message: `0 URLs selected: ${s.belowMinScore} due URLs scored below generate.min.score (${conf.get('generate.min.score')})` };
  const waiting = db.awaitingUpdate(delayMs, now);
  const next = db.nextDue(delayMs, now);
  const nextDue = next !== null ? ` The next page is due at ${new Date(next).toISOString()}${next > now + addMs ? ` (-adddays ${Math.ceil((next - now) / DAY_MS)} generates it now)` : ''}.` : '';
  if (waiting.count > 0)
    return {
      reason: 'awaiting_update',
      message: `0 URLs selected: ${waiting.count} URLs are in segments awaiting 'hazelnut updatedb' (generated at ${new Date(waiting.last!).toISOString()}; generate skips them until updatedb or crawl.gen.delay has passed).${nextDue}`,
    };
  return { reason: 'not_due', message: `0 URLs selected: all ${total} URLs were fetched recently.${nextDue}` };
}

const tool: Tool = {
  name: 'generate',
  usage: `Usage: hazelnut generate <webdb> <segments_dir> [-topN N] [-numFetchers n] [-adddays d] [-force] [-noFilter] [-noNorm] [-maxNumSegments n]
  -topN N            at most N URLs per segment, best score first
  -numFetchers n     split each segment into n fetch partitions by host, for n fetchers (fetch -part)
  -adddays d         generate as if it were d days later (pages due within d days are included)
  -force             take over a stale lock of the crawl directory
  -noFilter          do not apply the URL filters (generate.filter)
  -noNorm            do not normalize URLs before counting them per host (generate.normalise)
  -maxNumSegments n  fill up to n segments: hosts over generate.max.count continue in the next one
Exit status: 0 when a segment was made, ${NOTHING_DUE_EXIT} when no URL is due (the message says why).`,
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['topN', 'numFetchers', 'adddays', 'maxNumSegments'], boolean: ['force', 'noFilter', 'noNorm'] });
    if (a._.length !== 2) throw new UsageError(a._.length < 2 ? 'missing <webdb> or <segments_dir>' : 'too many arguments');
    const [webDbDir, segmentsDir] = a._ as [string, string];
    const opts = {
      topN: intOption(a.topN, 'topN'),
      addDays: intOption(a.adddays, 'adddays'),
      maxNumSegments: intOption(a.maxNumSegments, 'maxNumSegments'),
      numFetchers: intOption(a.numFetchers, 'numFetchers'),
      filter: a.noFilter ? false : undefined,
      normalize: a.noNorm ? false : undefined,
    };
    return runWithLog(ctx, { tool: 'generate', webdb: webDbDir, crawlDir: crawlDirOf(segmentsDir), lock: { force: a.force === true } }, async (log) => {
      const s = await generate(ctx.conf, webDbDir, segmentsDir, { ...opts, log });
      if (s.nothingDue) {
        ctx.out.write(`generate: ${s.nothingDue.message}\n`);
        return NOTHING_DUE_EXIT;
      }
      const total = s.counts.reduce((x, y) => x + y, 0);
      const line =
        `generate: ${total} URLs from ${s.hosts} hosts in ${s.segments.length} segment${s.segments.length > 1 ? 's' : ''}: ${s.segments.join(' ')}` +
        (s.leftOver ? `; ${s.leftOver} due URLs left for a later generate (-topN / generate.max.count)` : '') +
        (s.filtered ? `; ${s.filtered} filtered` : '');
      log.info(line);
      ctx.out.write(line + '\n');
      for (const p of s.partitions) ctx.out.write(`generate: ${p.message}\n`);
      return 0;
    });
  },
};

export default tool;
