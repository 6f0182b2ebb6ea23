/**
 * @module crawler/crawl
 * `hazelnut crawl <urlDir|file> [-dir d] [-threads n] [-depth i] [-topN N]`:
 * Nutch's one-shot crawl for intranets. It only sequences the other tools —
 * inject; depth × (generate → fetch with inline parse → updatedb), the fetch
 * in this process or, with -fetchers n, in n fetcher processes;
 * invertlinks; link scores; index the new segments; dedup; merge — holding the
 * crawl directory's lock once for the whole run. On an existing directory it
 * is a re-crawl: a fetch that was interrupted is resumed first, then only due
 * pages are fetched, new segments are indexed and the merged index is rebuilt.
 * Configuration is layered default → crawl-tool.xml → site → -D (Nutch 1.1's
 * order; 1.0 let crawl-tool.xml override the site file).
 */
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Conf, type PropertyDecl } from '../shared/conf.js';
import { UsageError } from '../shared/errors.js';
import type { Log } from './log.js';
import { currentIndex } from '../shared/index/publish.js';
import { intOption, parseArgs, type Tool, type ToolContext } from '../shared/command.js';
import { listSegments, segmentName } from '../segments/segment.js';
import { dedup } from './dedup.js';
import { fetcherSettings, parseThreads } from './fetch/tool.js';
import { signatureFromConf } from './parse/signature.js';
import { scheduleFromConf } from './updatedb/schedule.js';
import { userAgent } from './fetch/protocol-http.js';
import { IndexThreads, indexSegments } from './index/tool.js';
import { inject, readSeeds, screenSeeds, type SeedBatch } from './inject.js';
import { invertlinks } from './invertlinks.js';
import { linkrank } from './linkrank.js';
import { merge } from './merge.js';
import { indexStats } from './readindex.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from './plugin/chains.js';
import { writeReport } from './report/tool.js';
import { crawlSitemaps } from './sitemap/processor.js';
import { runWithLog } from './tool-run.js';
import { emptySummary, formatSummary, type CrawlSummary } from './crawl-summary.js';
import { fetchRounds, reading, type CrawlRun } from './crawl-rounds.js';
import { evaluate, formatEvaluation, searcherBase } from './evaluate/tool.js';
import { readJudgments } from './evaluate/judgments.js';
import { openWebDb, webDbKind } from './webdb/webdb.js';
import { crawlPaths, segmentIndexDir } from '../shared/crawl-dir.js';

export const CRAWL_TOOL_FILE = 'crawl-tool.xml';

export interface CrawlOptions {
  /** A seed path, or seeds already read (the tool reads them before it creates anything). */
  seeds: string | SeedBatch;
  dir: string;
  depth: number;
  threads?: number;
  topN?: number;
  /** -fetchers: local fetcher processes per segment, each over the segment's fetch partitions; 1 fetches in this process. */
  fetchers?: number;
  log: Log;
  signal?: AbortSignal;
}

/** The configuration of a crawl: default → crawl-tool.xml → site file → -D, with the properties of the active user plugins. */
export function crawlConf(confDir: string, overrides: Record<string, string>, pluginProperties: PropertyDecl[] = []): Conf {
  return Conf.load({ confDir, resources: [CRAWL_TOOL_FILE], overrides, pluginProperties });
}

/** What later steps will read, worked out now: a bad value stops the crawl before anything is written. */
export function checkSettings(conf: Conf, threads?: number): void {
  userAgent(conf);
  fetcherSettings(conf, { threads });
  scheduleFromConf(conf);
  signatureFromConf(conf);
}

export async function crawl(conf: Conf, opts: CrawlOptions): Promise<CrawlSummary> {
  const held: { close(): void }[] = [];
  try {
    return await crawlHolding(conf, opts, held);
  } finally {
    for (const h of held) h.close();
  }
}

/**
 * The crawl, holding the WebDB open in `held` from inject on and each
 * round's segment from its fetch to its updatedb: SQLite copies a file's WAL
 * into it and syncs both when its last connection closes, which without
 * these would be each tool's close, several times a round.
 */
async function crawlHolding(conf: Conf, opts: CrawlOptions, held: { close(): void }[]): Promise<CrawlSummary> {
  checkSettings(conf, opts.threads);
  const seeds = typeof opts.seeds === 'string' ? readSeeds(opts.seeds) : opts.seeds;
  conf = scopeToSeedHosts(conf, seeds);
  const run = crawlRun(conf, opts);
  // The fetch's parsing threads serve every round; they load (about a second) while inject and generate run.
  const writers = (opts.fetchers ?? 1) === 1 ? parseThreads(conf) : undefined;
  let plugins: CrawlerPlugins;
  try {
    plugins = await loadCrawlerPlugins(conf);
    await injectSeeds(run, seeds, plugins, held);
    await fetchRounds(run, plugins, writers);
  } finally {
    await writers?.close();
  }
  return indexCrawl(run, plugins);
}

/** The run's paths, summary and timing: the WebDB on a server (webdb.url or -webdb) or in the crawl directory, which keeps the rest. */
function crawlRun(conf: Conf, opts: CrawlOptions): CrawlRun {
  const { segments: segmentsDir, index, webdb } = crawlPaths(opts.dir);
  const s = emptySummary(opts.dir);
  const log = opts.log;
  return {
    conf,
    opts,
    webdb: conf.get('webdb.url') || webdb,
    segmentsDir,
    index,
    s,
    timed: async (phase, fn) => {
      if (COLLECTED_BEFORE.has(phase)) collectGarbage();
      const t0 = Date.now();
      try {
        return await fn();
      } finally {
        s.phases[phase] = (s.phases[phase] ?? 0) + Date.now() - t0;
        (s.peakRssMB ??= {})[phase] = process.resourceUsage().maxRSS / 1024;
      }
    },
    say: (stage, line) => {
      log.stage = stage;
      log.info(line);
      log.progress(line, true);
    },
  };
}

/** Screens and injects the seeds, then holds an embedded WebDB open (crawlHolding) and adds what the seed hosts' sitemaps list. */
async function injectSeeds(run: CrawlRun, seeds: SeedBatch, plugins: CrawlerPlugins, held: { close(): void }[]): Promise<void> {
  const { conf, webdb, s, timed } = run;
  const log = run.opts.log;
  const rejected = await screenSeeds(conf, seeds, plugins);
  if (log.file) log.notice(`details in ${shortPath(log.file)}`);
  for (const r of rejected) log.warn(r);
  const injected = await timed('inject', () => inject(conf, { webdb, seeds, plugins, log }));
  s.injected = injected.injected;
  if (webDbKind(webdb) === 'embedded') held.push(openWebDb(webdb));
  for (const p of injected.problems) log.warn(`${p.where}: ${p.reason}`);
  if (conf.getBoolean('crawl.sitemaps'))
    s.sitemaps = await timed('sitemaps', () => crawlSitemaps(conf, { webdb, seedUrls: seeds.lines.map((l) => l.url), plugins, log }));
}

/** Inverts links, scores pages and indexes what is new, then dedups and merges; an index that is current is left as it is. */
async function indexCrawl(run: CrawlRun, plugins: CrawlerPlugins): Promise<CrawlSummary> {
  const { conf, webdb, segmentsDir, index, s, timed } = run;
  const log = run.opts.log;
  const all = listSegments(segmentsDir).map((n) => path.join(segmentsDir, n));
  if (all.length === 0) return s;
  const unindexed = all.filter((d) => reading(d, (seg) => seg.hasPhase('parsed') && !seg.hasPhase('indexed')));
  if (unindexed.length === 0 && currentIndex(index)) {
    s.indexUnchanged = true;
    s.documents = (await indexStats(index)).documents;
    return s;
  }
  run.say('crawl', `inverting links, scoring and indexing ${all.length} segments`);
  // The index's analysis threads load while links are inverted and pages scored, not while the first large segment waits.
  const threads = new IndexThreads(conf);
  try {
    threads.startFor(unindexed);
    await timed('invertlinks', () => invertlinks(conf, { webdb, segments: all, normalize: true, filter: true, plugins, log }));
    await timed('linkrank', () => linkrank(conf, { webdb, log }));
    if (unindexed.length) await timed('index', () => indexSegments(conf, { webdb, segments: unindexed, log, threads }));
  } finally {
    await threads.close();
  }
  const indexed = all.filter((d) => fs.existsSync(segmentIndexDir(d)));
  const d = await timed('dedup', () => dedup(conf, { segments: indexed, log }));
  const m = await timed('merge', () => merge(conf, { index, segments: indexed, log }));
  s.duplicates = d.byUrl + d.byDigest + m.duplicates;
  s.documents = m.documents;
  return s;
}

/**
 * The phases that build indexes, where a crawl's memory peaks, start from a
 * collected heap: the typed arrays and buffers the phases before left behind
 * are freed only when V8 collects, and the new phase's own would otherwise
 * come on top of them. One full collection before each: two a crawl.
 */
const COLLECTED_BEFORE = new Set(['index', 'merge']);

function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/** A path relative to the working directory when it is below it. */
function shortPath(p: string): string {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}

/**
 * With crawl.seed.hosts.only, the crawl stays on the hosts of its seeds: they
 * go into urlfilter.host.allow unless the user listed hosts there already.
 */
export function scopeToSeedHosts(conf: Conf, seeds: SeedBatch): Conf {
  if (!conf.getBoolean('crawl.seed.hosts.only') || conf.getList('urlfilter.host.allow').length) return conf;
  const hosts = new Set<string>();
  for (const { url } of seeds.lines) {
    try {
      hosts.add(new URL(url).host.toLowerCase());
    } catch {
      // a malformed seed line is reported by inject
    }
  }
  return hosts.size ? conf.with({ 'urlfilter.host.allow': [...hosts].join(',') }) : conf;
}

const USAGE = `Usage: hazelnut crawl <urlDir|file> [-dir d] [-webdb postgresql://...] [-threads n] [-depth i] [-topN N] [-fetchers n] [-evaluate judgments.tsv] [-force]
  urlDir|file  seed URLs, one per line (a file, or a directory of files)
  -dir d       crawl directory (default crawl-<yyyyMMddHHmmss>); an existing one is re-crawled
  -webdb url   keep the WebDB in this PostgreSQL database (default webdb.url; empty: <dir>/webdb)
  -threads n   concurrent fetches (default fetcher.threads.fetch), per fetcher
  -depth i     generate/fetch/update rounds (default 5)
  -topN N      at most N URLs per round (default: all due)
  -fetchers n  fetch each round with n fetcher processes, a share of the hosts each (default 1: in this process)
  -evaluate f  then score the search on the judged queries of f (as hazelnut evaluate; the report shows the table)
  -force       take over a stale lock left by a killed run`;

const tool: Tool = {
  name: 'crawl',
  usage: USAGE,
  async run(ctx: ToolContext, args: string[]): Promise<number> {
    const a = parseArgs(args, { string: ['dir', 'webdb', 'threads', 'depth', 'topN', 'fetchers', 'evaluate'], boolean: ['force'] });
    if (a._.length !== 1) throw new UsageError(a._.length ? `one seed path expected, got ${a._.length}` : 'no seed path given');
    const depth = intOption(a.depth, 'depth') ?? 5;
    const threads = intOption(a.threads, 'threads');
    const topN = intOption(a.topN, 'topN');
    const fetchers = intOption(a.fetchers, 'fetchers');
    if (depth < 1) throw new UsageError('-depth must be at least 1');
    if (fetchers !== undefined && fetchers < 1) throw new UsageError('-fetchers must be at least 1');
    const dir = path.resolve(typeof a.dir === 'string' ? a.dir : `crawl-${segmentName(new Date())}`);
    if (typeof a.webdb === 'string' && webDbKind(a.webdb) !== 'server') throw new UsageError(`-webdb takes a postgresql://user@host:port/db URL, not ${a.webdb}`);
    const base = crawlConf(ctx.conf.confDir, ctx.confOverrides, ctx.conf.pluginProperties());
    const conf = typeof a.webdb === 'string' ? base.with({ 'webdb.url': a.webdb }) : base;
    checkSettings(conf, threads);
    const seeds = readSeeds(a._[0]!);
    const judged = typeof a.evaluate === 'string' ? { file: a.evaluate, judgments: readJudgments(a.evaluate) } : undefined;
    const scoped = scopeToSeedHosts(conf, seeds);
    await screenSeeds(scoped, seeds, await loadCrawlerPlugins(scoped));
    fs.mkdirSync(dir, { recursive: true });

    // The first Ctrl-C (or SIGTERM) lets the requests in flight finish and keeps what is fetched;
    // a second one exits at once (the lock is still released).
    const controller = new AbortController();
    const onSignal = () => {
      if (controller.signal.aborted) process.exit(130);
      ctx.err.write('\ncrawl: interrupted: finishing the requests in flight, then indexing what was fetched (Ctrl-C again to stop at once)\n');
      controller.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const webdb = conf.get('webdb.url') || undefined;
      const summary = await runWithLog(ctx, { tool: 'crawl', crawlDir: dir, webdb, lock: { force: a.force === true, graceful: true } }, (log) =>
        crawl(conf, { seeds, dir, depth, threads, topN, fetchers, log, signal: controller.signal }),
      );
      ctx.out.write(formatSummary(summary) + '\n');
      if (judged && summary.documents > 0 && !summary.interrupted)
        ctx.out.write(formatEvaluation(await evaluate(conf, dir, judged.judgments, judged.file), judged.judgments, searcherBase(conf)) + '\n');
      try {
        const since = summary.segments[0] ?? segmentName(new Date());
        ctx.out.write(`Crawl report: ${shortPath(writeReport(dir, undefined, { webdb, since, conf }))}\n`);
      } catch (e) {
        ctx.err.write(`crawl: the crawl report could not be written: ${(e as Error).message}\n`);
      }
      if (summary.documents > 0) {
        const shown = shortPath(dir);
        ctx.out.write(`Serve the result: hazelnut serve -dir ${shown}   (or hazelnut-searcher -dir ${shown}; then open http://127.0.0.1:8080/)\n`);
      }
      return summary.interrupted ? 130 : 0;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};

export default tool;
