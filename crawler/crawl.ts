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
import { HzError, UsageError } from '../shared/errors.js';
import type { Log } from './log.js';
import { formatDuration } from './progress.js';
import type { FetchStatus } from '../shared/page-status.js';
import { currentIndex } from '../shared/index/publish.js';
import { intOption, parseArgs, type Tool, type ToolContext } from '../shared/command.js';
import { listSegments, Segment, segmentName } from '../segments/segment.js';
import { dedup } from './dedup.js';
import { fetchWithProcesses } from './fetch/fetchers.js';
import { fetch, fetchEstimate, fetcherSettings, parseThreads, type FetchSummary } from './fetch/tool.js';
import { signatureFromConf } from './parse/signature.js';
import { scheduleFromConf } from './updatedb/schedule.js';
import { userAgent } from './fetch/protocol-http.js';
import { generate } from './generate.js';
import { IndexThreads, indexSegments } from './index/tool.js';
import { inject, readSeeds, screenSeeds, type SeedBatch } from './inject.js';
import { invertlinks } from './invertlinks.js';
import { linkrank } from './linkrank.js';
import { merge } from './merge.js';
import { segmentOutlinksDropped, type OutlinksDropped } from './parse/parse-content.js';
import { parseSegment } from './parse/tool.js';
import { indexStats } from './readindex.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from './plugin/chains.js';
import { writeReport } from './report/tool.js';
import { crawlSitemaps, type SitemapSummary } from './sitemap/processor.js';
import { runWithLog } from './tool-run.js';
import { updatedb } from './updatedb/tool.js';
import { waitingAfterCrawl } from './waiting.js';
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

export interface CrawlSummary {
  dir: string;
  injected: number;
  /** What the seed hosts' sitemaps added (crawl.sitemaps). */
  sitemaps?: SitemapSummary;
  /** Segments made or resumed by this run. */
  segments: string[];
  /** Pages fetched by this run, by fetch status. */
  byStatus: Partial<Record<FetchStatus, number>>;
  robotsDenied: number;
  /** Links of the fetched pages that a cap or filter left out. */
  linksDropped: OutlinksDropped;
  deferred: number;
  /** Due URLs left for the next crawl when every round ran, and why (crawler/waiting). */
  waiting?: string;
  documents: number;
  /** Nothing new to index: the merged index was left as it was (`documents` is what it holds). */
  indexUnchanged?: boolean;
  duplicates: number;
  /** Why the depth loop ended before -depth, if it did. */
  stoppedEarly?: string;
  interrupted: boolean;
  /** Milliseconds per phase, summed over the depth loop. */
  phases: Record<string, number>;
  /** The process's peak resident memory (MB) when each phase last ended: which phase raised it. */
  peakRssMB?: Record<string, number>;
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

/** A crawl's summary before it has done anything. */
export function emptySummary(dir: string): CrawlSummary {
  return {
    dir,
    injected: 0,
    segments: [],
    byStatus: {},
    robotsDenied: 0,
    linksDropped: { cap: 0, filtered: 0, external: 0 },
    deferred: 0,
    documents: 0,
    duplicates: 0,
    interrupted: false,
    phases: {},
  };
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
  const { segments: segmentsDir, index } = crawlPaths(opts.dir);
  // webdb.url (or -webdb) keeps the WebDB on a PostgreSQL server; the rest of the crawl stays in its directory.
  const webdb = conf.get('webdb.url') || crawlPaths(opts.dir).webdb;
  const log = opts.log;
  const s = emptySummary(opts.dir);
  let capped = false;
  const timed = async <T>(phase: string, fn: () => Promise<T>): Promise<T> => {
    if (COLLECTED_BEFORE.has(phase)) collectGarbage();
    const t0 = Date.now();
    try {
      return await fn();
    } finally {
      s.phases[phase] = (s.phases[phase] ?? 0) + Date.now() - t0;
      (s.peakRssMB ??= {})[phase] = process.resourceUsage().maxRSS / 1024;
    }
  };
  const say = (stage: string, line: string) => {
    log.stage = stage;
    log.info(line);
    log.progress(line, true);
  };

  const seeds = typeof opts.seeds === 'string' ? readSeeds(opts.seeds) : opts.seeds;
  conf = scopeToSeedHosts(conf, seeds);
  const fetchers = opts.fetchers ?? 1;
  // The fetch's parsing threads serve every round; they load (about a second) while inject and generate run.
  const writers = fetchers === 1 ? parseThreads(conf) : undefined;
  let plugins: CrawlerPlugins;
  try {
    plugins = await loadCrawlerPlugins(conf);
    const rejected = await screenSeeds(conf, seeds, plugins);
    if (log.file) log.notice(`details in ${shortPath(log.file)}`);
    for (const r of rejected) log.warn(r);
    const injected = await timed('inject', () => inject(conf, { webdb, seeds, plugins, log }));
    s.injected = injected.injected;
    if (webDbKind(webdb) === 'embedded') held.push(openWebDb(webdb));
    for (const p of injected.problems) log.warn(`${p.where}: ${p.reason}`);
    if (conf.getBoolean('crawl.sitemaps'))
      s.sitemaps = await timed('sitemaps', () => crawlSitemaps(conf, { webdb, seedUrls: seeds.lines.map((l) => l.url), plugins, log }));

    const fetchAndUpdate = async (segDir: string) => {
      // Held open from its fetch to its updatedb, as the WebDB is (crawlHolding).
      const held = Segment.open(segDir);
      try {
        s.segments.push(path.basename(segDir));
        const f = await timed('fetch', () =>
          fetchers > 1
            ? fetchWithProcesses(conf, segDir, fetchers, { threads: opts.threads, log, signal: opts.signal })
            : fetch(conf, segDir, { threads: opts.threads, log, signal: opts.signal, deferOnAbort: true, writers }),
        );
        tally(s, f);
        s.interrupted ||= f.interrupted || (opts.signal?.aborted ?? false);
        // Interrupted, the URLs not fetched were deferred and the segment is complete: what was fetched goes on to be indexed.
        if (!f.complete) return f;
        if (!reading(segDir, (seg) => seg.hasPhase('parsed'))) await timed('parse', () => parseSegment(conf, { segment: segDir, plugins, log }));
        const dropped = reading(segDir, segmentOutlinksDropped);
        for (const [k, v] of Object.entries(dropped) as [keyof OutlinksDropped, number][]) s.linksDropped[k] += v;
        await timed('updatedb', () => updatedb(conf, { webdb, segments: [segDir], normalize: true, filter: true, plugins, log }));
        return f;
      } finally {
        held.close();
      }
    };

    // A fetch killed or interrupted last time is finished before anything new is generated.
    for (const name of listSegments(segmentsDir)) {
      if (s.interrupted) break;
      const unfinished = reading(path.join(segmentsDir, name), (seg) => seg.hasPhase('generated') && !seg.hasPhase('fetched'));
      if (unfinished) {
        say('crawl', `resuming the fetch of segment ${name}`);
        await fetchAndUpdate(path.join(segmentsDir, name));
      }
    }

    for (let depth = 0; depth < opts.depth && !s.interrupted; depth++) {
      if (opts.signal?.aborted) {
        s.interrupted = true;
        break;
      }
      const before = { ...s.phases };
      const g = await timed('generate', () => generate(conf, webdb, segmentsDir, { topN: opts.topN, numFetchers: opts.fetchers, log }));
      if (g.nothingDue) {
        s.stoppedEarly = `Stopping at depth=${depth} - no more URLs to fetch: ${g.nothingDue.message}`;
        break;
      }
      capped ||= g.leftOver > 0 && opts.topN === undefined;
      for (const segDir of g.segments) {
        log.stage = `crawl depth ${depth + 1}/${opts.depth}`;
        const e = fetchEstimate(conf, segDir, { threads: opts.threads });
        log.notice(
          `round ${depth + 1}/${opts.depth}: fetching ${e.urls} URLs from ${e.hosts} host${e.hosts === 1 ? '' : 's'} into ${path.basename(segDir)}, ` +
            `about ${formatDuration(e.etaMs)} at ${formatDuration(e.delayMs)} between requests to a host` +
            (g.leftOver ? `; ${g.leftOver} due URLs wait for a later round (generate.max.count, -topN)` : ''),
        );
        const f = await fetchAndUpdate(segDir);
        if (depth === 0 && s.segments.length === 1) warnUnreachableSeeds(segDir, f, log);
        if (s.interrupted) break;
      }
      log.info(`round ${depth + 1}/${opts.depth} took ${phaseTimes(before, s.phases)}`);
    }
    if (!s.interrupted && !s.stoppedEarly) s.waiting = waitingAfterCrawl(webdb, conf, { capped, depth: opts.depth }) || undefined;
  } finally {
    await writers?.close();
  }

  const all = listSegments(segmentsDir).map((n) => path.join(segmentsDir, n));
  if (all.length === 0) return s;
  const unindexed = all.filter((d) => reading(d, (seg) => seg.hasPhase('parsed') && !seg.hasPhase('indexed')));
  if (unindexed.length === 0 && currentIndex(index)) {
    s.indexUnchanged = true;
    s.documents = (await indexStats(index)).documents;
    return s;
  }
  say('crawl', `inverting links, scoring and indexing ${all.length} segments`);
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

/** What `read` finds in a segment, opened read-only: a write connection would checkpoint on closing. */
function reading<T>(dir: string, read: (seg: Segment) => T): T {
  const seg = Segment.open(dir, { readonly: true });
  try {
    return read(seg);
  } finally {
    seg.close();
  }
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

function tally(s: CrawlSummary, f: FetchSummary): void {
  for (const [k, v] of Object.entries(f.byStatus) as [FetchStatus, number][]) s.byStatus[k] = (s.byStatus[k] ?? 0) + v;
  s.deferred += f.deferred;
  s.robotsDenied += f.robotsDenied;
}

/** Each URL the run tried, counted once under its outcome: robots-denied pages are not also gone, nor gone ones fetched. */
export function outcomes(s: Pick<CrawlSummary, 'byStatus' | 'robotsDenied' | 'deferred'>) {
  const n = (k: FetchStatus) => s.byStatus[k] ?? 0;
  return {
    fetched: n('fetch_success') + n('fetch_notmodified'),
    ok: n('fetch_success'),
    notModified: n('fetch_notmodified'),
    failed: n('fetch_retry') - s.deferred,
    gone: n('fetch_gone') - s.robotsDenied,
    redirected: n('fetch_redir_perm') + n('fetch_redir_temp'),
    robotsDenied: s.robotsDenied,
    deferred: s.deferred,
  };
}

/**
 * After the first segment: when not one page could be fetched, say per host
 * why (unreachable, robots.txt, errors), since nothing later will succeed either.
 */
function warnUnreachableSeeds(segDir: string, f: FetchSummary, log: Log): void {
  if ((f.byStatus.fetch_success ?? 0) + (f.byStatus.fetch_notmodified ?? 0) > 0 || f.fetched === 0) return;
  const seg = Segment.open(segDir, { readonly: true });
  try {
    const reasons = new Map<string, string>();
    for (const r of seg.fetches()) {
      const host = new URL(r.url).host;
      if (!reasons.has(host))
        reasons.set(
          host,
          r.protocolStatus === 'robots_denied'
            ? `robots.txt disallows our agent (${r.url})`
            : `${r.message ?? r.protocolStatus}${r.httpStatus ? ` (HTTP ${r.httpStatus})` : ''} for ${r.url}`,
        );
    }
    for (const [host, why] of reasons) log.warn(`no page of ${host} could be fetched: ${why}`);
  } finally {
    seg.close();
  }
}

function linksDropped(d: OutlinksDropped): string {
  const parts = [
    d.cap ? `${d.cap} over db.max.outlinks.per.page` : '',
    d.filtered ? `${d.filtered} by URL filters` : '',
    d.external ? `${d.external} external (db.ignore.external.links)` : '',
  ].filter(Boolean);
  return `${d.cap + d.filtered + d.external}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

const seconds = (ms: number, digits = 1) => `${(ms / 1000).toFixed(digits)} s`;

/** The time spent since `before` (phase totals), in all and per phase: `2.31 s: generate 0.05 s, fetch 1.82 s, updatedb 0.44 s`. */
export function phaseTimes(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): string {
  const spent = Object.entries(after)
    .map(([k, v]) => [k, v - (before[k] ?? 0)] as const)
    .filter(([, ms]) => ms > 0);
  return `${seconds(spent.reduce((n, [, ms]) => n + ms, 0), 2)}: ${spent.map(([k, ms]) => `${k} ${seconds(ms, 2)}`).join(', ')}`;
}

export function formatSummary(s: CrawlSummary): string {
  const o = outcomes(s);
  const lines = [
    `crawl: ${s.dir}${s.interrupted ? ' (interrupted: what was fetched is indexed; run the same command again to fetch the rest)' : ''}`,
    ...(s.stoppedEarly ? [`  ${s.stoppedEarly}`] : []),
    `  pages fetched      ${o.fetched} (${o.ok} ok, ${o.notModified} not modified)`,
    `  failed             ${o.failed} (will be retried)`,
    `  gone               ${o.gone}`,
    `  redirected         ${o.redirected}`,
    `  robots-denied      ${o.robotsDenied}`,
    ...(s.sitemaps?.files ? [`  from sitemaps      ${s.sitemaps.injected} new, ${s.sitemaps.due} due by lastmod (${s.sitemaps.urls} URLs in ${s.sitemaps.files} files)`] : []),
    `  links dropped      ${linksDropped(s.linksDropped)}`,
    ...(o.deferred ? [`  deferred           ${o.deferred} (left for the next crawl)`] : []),
    ...(s.waiting ? [`  waiting            ${s.waiting}`] : []),
    `  segments           ${s.segments.length}${s.segments.length ? ` (${s.segments.join(', ')})` : ''}`,
    ...(s.indexUnchanged
      ? [`  index unchanged    ${s.documents} documents`]
      : [`  documents indexed  ${s.documents}`, `  duplicates removed ${s.duplicates}`]),
    `  time per phase     ${Object.entries(s.phases)
      .map(([k, v]) => `${k} ${seconds(v)}`)
      .join(', ')}`,
  ];
  return lines.join('\n');
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
