/**
 * @module crawler/crawl-rounds
 * A crawl's rounds, Nutch's Crawl loop: a fetch killed or interrupted last
 * time is finished first, then each round generates a segment, fetches it,
 * parses it and updates the WebDB, until -depth rounds ran, nothing is due
 * or the crawl is interrupted. Each segment is held open from its fetch to
 * its updatedb, as the WebDB is for the whole crawl (crawler/crawl).
 */
import path from 'node:path';
import { listSegments, Segment } from '../segments/segment.js';
import type { Conf } from '../shared/conf.js';
import type { CrawlOptions } from './crawl.js';
import { phaseTimes, tally, type CrawlSummary } from './crawl-summary.js';
import { fetchWithProcesses } from './fetch/fetchers.js';
import { fetch, fetchEstimate, type FetchSummary } from './fetch/tool.js';
import { generate } from './generate.js';
import type { Log } from './log.js';
import { segmentOutlinksDropped, type OutlinksDropped } from './parse/parse-content.js';
import { parseSegment } from './parse/tool.js';
import type { CrawlerPlugins } from './plugin/chains.js';
import { formatDuration } from './progress.js';
import { updatedb } from './updatedb/tool.js';
import { waitingAfterCrawl } from './waiting.js';
import type { WriterThreads } from '../segments/segment-writer.js';

/** What the steps of one crawl share: its settings, where its WebDB and segments are, its summary, and how a phase is timed and a stage told. */
export interface CrawlRun {
  conf: Conf;
  opts: CrawlOptions;
  webdb: string;
  segmentsDir: string;
  index: string;
  s: CrawlSummary;
  /** Runs a phase, adding its time and the peak memory after it to the summary. */
  timed<T>(phase: string, fn: () => Promise<T>): Promise<T>;
  /** Starts a stage of the crawl's log with a line the user sees. */
  say(stage: string, line: string): void;
}

/** Resumes the segments whose fetch did not finish, then runs the rounds; the summary says why they stopped. */
export async function fetchRounds(run: CrawlRun, plugins: CrawlerPlugins, writers: WriterThreads | undefined): Promise<void> {
  const step = (segDir: string) => fetchAndUpdate(run, plugins, writers, segDir);
  await resumeFetches(run, step);
  await generateRounds(run, step);
}

/** A fetch killed or interrupted last time is finished before anything new is generated. */
async function resumeFetches(run: CrawlRun, step: (segDir: string) => Promise<FetchSummary>): Promise<void> {
  for (const name of listSegments(run.segmentsDir)) {
    if (run.s.interrupted) break;
    const unfinished = reading(path.join(run.segmentsDir, name), (seg) => seg.hasPhase('generated') && !seg.hasPhase('fetched'));
    if (unfinished) {
      run.say('crawl', `resuming the fetch of segment ${name}`);
      await step(path.join(run.segmentsDir, name));
    }
  }
}

/** Up to -depth rounds of generate, then fetch, parse and updatedb of each segment made; then what is left waiting. */
async function generateRounds(run: CrawlRun, step: (segDir: string) => Promise<FetchSummary>): Promise<void> {
  const { conf, opts, webdb, s, timed } = run;
  const log = opts.log;
  let capped = false;
  for (let depth = 0; depth < opts.depth && !s.interrupted; depth++) {
    if (opts.signal?.aborted) {
      s.interrupted = true;
      break;
    }
    const before = { ...s.phases };
    const g = await timed('generate', () => generate(conf, webdb, run.segmentsDir, { topN: opts.topN, numFetchers: opts.fetchers, log }));
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
      const f = await step(segDir);
      if (depth === 0 && s.segments.length === 1) warnUnreachableSeeds(segDir, f, log);
      if (s.interrupted) break;
    }
    log.info(`round ${depth + 1}/${opts.depth} took ${phaseTimes(before, s.phases)}`);
  }
  if (!s.interrupted && !s.stoppedEarly) s.waiting = waitingAfterCrawl(webdb, conf, { capped, depth: opts.depth }) || undefined;
}

/** Fetches a segment (in this process, or in -fetchers processes), then parses it and applies it to the WebDB. */
async function fetchAndUpdate(run: CrawlRun, plugins: CrawlerPlugins, writers: WriterThreads | undefined, segDir: string): Promise<FetchSummary> {
  const { conf, opts, webdb, s, timed } = run;
  const log = opts.log;
  const fetchers = opts.fetchers ?? 1;
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
}

/** What `read` finds in a segment, opened read-only: a write connection would checkpoint on closing. */
export function reading<T>(dir: string, read: (seg: Segment) => T): T {
  const seg = Segment.open(dir, { readonly: true });
  try {
    return read(seg);
  } finally {
    seg.close();
  }
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
