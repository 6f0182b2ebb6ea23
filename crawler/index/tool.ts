/**
 * @module crawler/index/tool
 * `hazelnut index <webdb> <segment> ...`: one index per segment, written to
 * `segments/<name>/index/` and replaced whole. A document is made for every
 * page fetched successfully and parsed successfully that did not ask for
 * noindex; its fields come from the indexing filters (index-basic,
 * index-anchor, index-more), its anchors from the WebDB inlinks, its boost
 * from the scoring filters' indexerScore over the page's link score. Only a
 * segment whose parse phase completed is indexed, so a half-fetched segment
 * never reaches the searcher. Nutch's Indexer, one segment at a time.
 */
import os from 'node:os';
import path from 'node:path';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import type { Conf } from '../../shared/conf.js';
import { HzError, UsageError } from '../../shared/errors.js';
import { replaceDir } from '../../shared/index/publish.js';
import type { IndexInputDoc } from '../../shared/index/types.js';
import { storedOf } from '../../shared/index/document.js';
import { IndexWriter } from '../../shared/index/writer.js';
import type { Log } from '../log.js';
import { host } from '../url/keys.js';
import { parseArgs, type Tool } from '../../shared/command.js';
import { listSegments, Segment, type SummaryText } from '../../segments/segment.js';
import { SummariesWriter } from '../../segments/summaries.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from '../plugin/chains.js';
import { segmentDirs, segmentsCrawlDir } from '../segment-args.js';
import { runWithLog } from '../tool-run.js';
import { segmentIndexDir } from '../../shared/crawl-dir.js';
import { openWebDb, type WebDb } from '../webdb/webdb.js';
import { siteTitles, type SiteTitles } from './title.js';
import { AnalysisPool, type AnalyzedPage } from './analysis-pool.js';
import { pageTerms, tokenCap, WriterTerms, type PageTerms } from './page-terms.js';
import { documentOf } from './fetch-document.js';


export interface SegmentIndexSummary {
  segment: string;
  indexed: number;
  /** Fetch records that were not a successful fetch (redirects, gone, retry, …). */
  notFetched: number;
  notParsed: number;
  noindex: number;
  /** Dropped by an indexing filter. */
  filtered: number;
}

export interface IndexSummary {
  segments: SegmentIndexSummary[];
  indexed: number;
}

export interface IndexOptions {
  webdb: string;
  /** Segment directories. */
  segments: string[];
  log?: Log;
  /** Analysis threads started ahead by the caller, who closes them; default: this run's own. */
  threads?: IndexThreads;
}

/** Pages sent ahead to each analysis thread: enough to keep it busy, few enough to bound memory. */
const IN_FLIGHT = 32;
/**
 * Fetch records a segment needs before analysis threads are started for it
 * (when `indexer.threads` is not set): starting a thread (loading the
 * analyzer's modules) costs more than analyzing fewer pages on the main thread.
 */
const THREADS_MIN_RECORDS = 200;

/**
 * The analyzer of one run and its analysis threads, used from the first
 * segment large enough to pay for them. A crawl starts them ahead
 * (`startFor`), so that they load while it inverts links and scores pages;
 * which segments they analyze stays the same.
 */
export class IndexThreads {
  readonly analyzer: Analyzer;
  /** The analyzer's term numbers as a writer's ids, for pages analyzed on the main thread. */
  readonly terms: WriterTerms;
  private spawned: AnalysisPool | undefined;
  private used = false;
  /** Each segment's fetch records, counted once a run: by startFor ahead, else when the segment is indexed. */
  private readonly records = new Map<string, number>();
  private readonly n: number;
  private readonly always: boolean;
  private readonly maxTokens: number;
  private readonly youngGenerationMb: number;

  constructor(conf: Conf) {
    this.analyzer = Analyzer.fromConf(conf);
    this.terms = new WriterTerms(this.analyzer.numbered);
    const set = conf.getInt('indexer.threads');
    this.always = set >= 0;
    this.n = set >= 0 ? set : os.availableParallelism() - 1;
    this.maxTokens = tokenCap(conf);
    this.youngGenerationMb = conf.getInt('worker.young.generation.mb');
  }

  /** Whether a segment of this many fetch records is analyzed in the threads. */
  private pays(records: number): boolean {
    return this.n > 0 && (this.always || records >= THREADS_MIN_RECORDS);
  }

  private spawn(): AnalysisPool {
    return (this.spawned ??= new AnalysisPool(this.n, this.analyzer.options, this.maxTokens, this.youngGenerationMb));
  }

  /** The fetch records of the segment in `dir`, open as `seg`. */
  recordsOf(dir: string, seg: Segment): number {
    let n = this.records.get(dir);
    if (n === undefined) this.records.set(dir, (n = seg.count('fetch')));
    return n;
  }

  /** Starts the threads now if one of these segments will use them. */
  startFor(segments: readonly string[]): void {
    for (const dir of segments) {
      const seg = Segment.open(dir, { readonly: true });
      const records = this.recordsOf(dir, seg);
      seg.close();
      if (this.pays(records)) {
        this.spawn();
        return;
      }
    }
  }

  /** The threads for a segment of `records` fetch records: none until the first segment that pays for them, then for every segment. */
  pool(records: number): AnalysisPool | undefined {
    if (!this.used && this.pays(records)) {
      this.used = true;
      this.spawn();
    }
    return this.used ? this.spawned : undefined;
  }

  async close(): Promise<void> {
    await this.spawned?.close();
  }
}

/**
 * Each host's title suffix and titles over every parsed segment of the crawl (those
 * beside the ones given), not only the segments indexed now: a re-crawl of
 * a few pages strips what the site's other pages end with, so titles stay
 * alike from one crawl round to the next, and an all-in-one page's copies are
 * known by the titles of pages fetched before.
 */
function crawlTitles(segments: readonly string[], strip: boolean): SiteTitles {
  const dirs = new Set(segments.flatMap((d) => [d, ...listSegments(path.dirname(d)).map((n) => path.join(path.dirname(d), n))]));
  return siteTitles(
    (function* () {
      for (const d of dirs) {
        const seg = Segment.open(d, { readonly: true });
        try {
          if (seg.hasPhase('parsed')) for (const p of seg.parseTitles()) if (p.status === 'success') yield { host: host(p.url), title: p.title };
        } finally {
          seg.close();
        }
      }
    })(),
    strip,
  );
}

async function indexSegment(conf: Conf, plugins: CrawlerPlugins, db: WebDb, dir: string, threads: IndexThreads, titles: SiteTitles, log?: Log): Promise<SegmentIndexSummary> {
  const seg = Segment.open(dir);
  try {
    if (!seg.hasPhase('parsed'))
      throw new HzError('HZ_ERR_SEGMENT_STATE', `segment ${dir} is not parsed yet; run 'hazelnut parse ${dir}' (or finish its fetch) first`);
    const sum: SegmentIndexSummary = { segment: seg.name, indexed: 0, notFetched: 0, notParsed: 0, noindex: 0, filtered: 0 };
    // One analyzer for every segment of the run: its cache of words' terms carries over.
    const analyzer = threads.analyzer;
    const maxTokens = tokenCap(conf);
    // With postings, which merge merges rather than inverting every segment's pages again.
    const writer = new IndexWriter({ analyzer, segments: [seg.name], maxTokens });
    const records = threads.recordsOf(dir, seg);
    const pool = threads.pool(records);
    // Pages sent to the analysis threads, taken back in order. `analyzed` is the page's terms once known:
    // a thread's answer replaces the promise of it as it comes.
    const inFlight: { doc: IndexInputDoc; summaryText: Omit<SummaryText, 'checkpoints'> | undefined; analyzed: Promise<AnalyzedPage> | AnalyzedPage }[] = [];
    // Of those, the pages the threads have not answered yet.
    let unanswered = 0;
    // Where each indexed page's words stand, for summaries of its parse text: the segment index's summaries file.
    let summaries: SummariesWriter | undefined;
    const summarize = (s: Omit<SummaryText, 'checkpoints'> | undefined, checkpoints: Uint8Array | undefined) => {
      if (s) summaries!.add({ ...s, checkpoints: checkpoints! });
    };
    // A page's terms into the writer: as this thread's analyzer numbers them, or as an analysis thread's do.
    const add = (doc: IndexInputDoc, summaryText: Omit<SummaryText, 'checkpoints'> | undefined, a: PageTerms | AnalyzedPage) => {
      writer.addTerms(storedOf(doc), 'from' in a ? pool!.docTerms(a, writer) : threads.terms.streams(a, writer));
      summarize(summaryText, a.checkpoints);
    };
    const takeNext = async () => {
      const p = inFlight.shift()!;
      add(p.doc, p.summaryText, p.analyzed instanceof Promise ? await p.analyzed : p.analyzed);
    };
    // Built in the index's new directory, which replaces the old one only once it is whole.
    const build = async (tmp: string) => {
      summaries = new SummariesWriter(tmp);
      const progress = log?.step(`index ${seg.name}`, 'records', records);
      let seen = 0;
      for (const f of seg.fetches()) {
        progress?.update(++seen, { extra: `${writer.docCount} documents` });
        const made = documentOf(seg, f, { db, plugins, titles });
        if (typeof made === 'string') {
          sum[made]++;
          continue;
        }
        const { doc, text, summaryText } = made;
        if (!pool) {
          add(doc, summaryText, pageTerms(analyzer, doc, text, maxTokens));
          continue;
        }
        while (inFlight.length > 0 && !(inFlight[0]!.analyzed instanceof Promise)) await takeNext();
        // The threads a full queue behind (long pages), this thread waits rather than analyze the page itself:
        // here, beside the writer's memory and with an analyzer of its own to warm up, analysis costs more CPU.
        if (unanswered >= IN_FLIGHT * pool.size) await takeNext();
        const answer = pool.analyze(doc, text);
        const entry: (typeof inFlight)[number] = { doc, summaryText, analyzed: answer };
        unanswered++;
        void answer.then((a) => ((entry.analyzed = a), unanswered--), () => {});
        inFlight.push(entry);
      }
      while (inFlight.length) await takeNext();
      summaries.close();
      await writer.write(tmp);
    };
    try {
      await replaceDir(segmentIndexDir(dir), (tmp) =>
        build(tmp).catch((e: unknown) => {
          summaries?.abandon();
          throw e;
        }),
      );
    } finally {
      writer.discard();
    }
    seg.clearSummaryTables();
    seg.markPhase('indexed');
    sum.indexed = writer.docCount;
    log?.info(`${seg.name}: ${sum.indexed} indexed, ${sum.notFetched} not fetched, ${sum.notParsed} not parsed, ${sum.noindex} noindex, ${sum.filtered} filtered`);
    return sum;
  } finally {
    seg.close();
  }
}

export async function indexSegments(conf: Conf, opts: IndexOptions): Promise<IndexSummary> {
  const plugins = await loadCrawlerPlugins(conf);
  opts.log?.info(`indexing filters: ${plugins.active.filter((p) => p.point === 'indexing-filter').map((p) => p.id).join(', ') || 'none'}`);
  const db = openWebDb(opts.webdb, { readonly: true });
  const threads = opts.threads ?? new IndexThreads(conf);
  try {
    const segments: SegmentIndexSummary[] = [];
    const titles = crawlTitles(opts.segments, conf.getBoolean('indexer.title.strip.suffix'));
    for (const dir of opts.segments) segments.push(await indexSegment(conf, plugins, db, dir, threads, titles, opts.log));
    return { segments, indexed: segments.reduce((n, s) => n + s.indexed, 0) };
  } finally {
    if (threads !== opts.threads) await threads.close();
    db.close();
    opts.log?.clearProgress();
  }
}

const tool: Tool = {
  name: 'index',
  usage: 'Usage: hazelnut index <webdb> (<segment> ... | -dir <segments>)',
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['dir'] });
    const [webdb, ...rest] = a._;
    if (!webdb) throw new UsageError('missing arguments');
    const segments = segmentDirs(rest, a.dir as string | undefined);
    const s = await runWithLog(ctx, { tool: 'index', webdb, crawlDir: segmentsCrawlDir(segments) }, (log) => indexSegments(ctx.conf, { webdb, segments, log }));
    const skipped = s.segments.reduce((n, x) => n + x.notFetched + x.notParsed + x.noindex + x.filtered, 0);
    const noindex = s.segments.reduce((n, x) => n + x.noindex, 0);
    ctx.out.write(`index: ${s.indexed} documents from ${s.segments.length} segment${s.segments.length === 1 ? '' : 's'} (${skipped} records skipped, ${noindex} noindex)\n`);
    return 0;
  },
};

export default tool;
