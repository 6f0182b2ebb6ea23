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
import { Analyzer } from '../../shared/analysis/analyzer.js';
import type { Conf } from '../../shared/conf.js';
import { HzError, UsageError } from '../../shared/errors.js';
import { replaceDir } from '../../shared/index/publish.js';
import type { IndexInputDoc } from '../../shared/index/types.js';
import { IndexWriter } from '../../shared/index/writer.js';
import type { Log } from '../../shared/log.js';
import type { IndexDocument, IndexingInput } from '../../shared/plugin/types.js';
import { host } from '../../shared/url/keys.js';
import { parseArgs, type Tool } from '../../shared/tool.js';
import { encodeOffsets, SUMMARY_TEXT_CHARS, summaryMeta, summaryPart, textOffsets } from '../../segments/offsets.js';
import { Segment, type SummaryText } from '../../segments/segment.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from '../plugins.js';
import { segmentDirs, segmentsCrawlDir } from '../segment-args.js';
import { runWithLog } from '../tool-run.js';
import { segmentIndexDir } from '../../shared/layout.js';
import { openWebDb, type WebDb } from '../webdb/webdb.js';
import { siteTitleSuffixes, stripTitleSuffix } from './title.js';


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
}

/** Turns the filters' field map into the writer's document, with the core fields. */
function toInputDoc(d: IndexDocument, core: { segment: string; digest: string; boost: number }): IndexInputDoc {
  const str = (k: string, dflt = '') => (typeof d[k] === 'string' ? (d[k] as string) : dflt);
  const num = (k: string) => (typeof d[k] === 'number' ? (d[k] as number) : Number(d[k] ?? 0) || 0);
  const list = (k: string) => (Array.isArray(d[k]) ? (d[k] as string[]) : typeof d[k] === 'string' ? [d[k] as string] : []);
  return {
    url: str('url'),
    title: str('title'),
    host: str('host'),
    site: str('site'),
    domain: str('domain'),
    type: str('type', 'text/html'),
    lang: str('lang', 'unknown'),
    date: str('date'),
    tstamp: num('tstamp'),
    digest: core.digest,
    boost: core.boost,
    segment: core.segment,
    contentLength: num('contentLength'),
    anchors: list('anchor'),
    ...(d.noarchive === 'true' ? { noarchive: true } : {}),
    content: str('content'),
    headings: list('heading'),
  };
}

/** Pages whose summary texts are written in one transaction. */
const SUMMARIES_BATCH = 200;

/** Whether content indexed from `text` holds the text's words first, as the text has them. */
export function indexesText(content: string, text: string): boolean {
  return content.startsWith(text) && (content.length === text.length || /\s/.test(content[text.length]!));
}

async function indexSegment(conf: Conf, plugins: CrawlerPlugins, db: WebDb, dir: string, log?: Log): Promise<SegmentIndexSummary> {
  const seg = Segment.open(dir);
  let summariesOut: Segment | undefined;
  try {
    if (!seg.hasPhase('parsed'))
      throw new HzError('HZ_ERR_SEGMENT_STATE', `segment ${dir} is not parsed yet; run 'hazelnut parse ${dir}' (or finish its fetch) first`);
    const sum: SegmentIndexSummary = { segment: seg.name, indexed: 0, notFetched: 0, notParsed: 0, noindex: 0, filtered: 0 };
    const suffixes = conf.getBoolean('indexer.title.strip.suffix')
      ? siteTitleSuffixes((function* () {
          for (const p of seg.parses()) if (p.status === 'success') yield { host: host(p.url), title: p.title };
        })())
      : new Map<string, string>();
    const analyzer = Analyzer.fromConf(conf);
    const writer = new IndexWriter({ analyzer, segments: [seg.name], maxTokens: conf.getInt('indexer.max.tokens') });
    // The start of each indexed page's text and where its words stand, for summaries; written in batches to
    // bound memory, through a connection of their own while this one reads the fetch records.
    summariesOut = Segment.open(dir);
    let summaries: SummaryText[] = [];
    let fresh = true;
    const flushSummaries = () => {
      summariesOut!.putSummaryTexts(summaries, fresh);
      summaries = [];
      fresh = false;
    };
    try {
      const progress = log?.step(`index ${seg.name}`, 'records', seg.count('fetch'));
      let seen = 0;
      for (const f of seg.fetches()) {
        progress?.update(++seen, { extra: `${writer.docCount} documents` });
        if (f.status !== 'fetch_success') {
          sum.notFetched++;
          continue;
        }
        const parse = seg.getParse(f.url);
        if (!parse || parse.status !== 'success') {
          sum.notParsed++;
          continue;
        }
        if (parse.meta.noindex) {
          sum.noindex++;
          continue;
        }
        const page = db.page(f.url);
        const input: IndexingInput = {
          url: f.url,
          segment: seg.name,
          fetchTime: f.fetchTime,
          headers: f.headers,
          contentType: f.contentType ?? null,
          contentLength: seg.contentSize(f.url) ?? parse.text.length,
          parse: { title: stripTitleSuffix(parse.title, suffixes.get(host(f.url))), text: parse.text, lang: parse.lang, meta: parse.meta },
          signature: parse.signature ?? null,
          inlinks: db.inlinks(f.url, 'source'),
          linkScore: page?.link_score ?? 0,
        };
        let doc: IndexDocument | null = {};
        for (const filter of plugins.indexingFilters) {
          doc = filter.filter(doc, input);
          if (!doc) break;
        }
        if (!doc) {
          sum.filtered++;
          continue;
        }
        const boost = plugins.scoring.indexerScore(f.url, page?.score ?? 1, input.linkScore);
        const inputDoc = toInputDoc(doc, { segment: seg.name, digest: parse.signature ?? '', boost });
        // One scan of a page's text gives its terms and, for summaries, where they stand (the whole text is covered when it is short).
        const tokens = inputDoc.content === parse.text && parse.text.length <= SUMMARY_TEXT_CHARS ? analyzer.tokens(parse.text) : undefined;
        writer.add(inputDoc, tokens?.map((t) => t.term));
        // The index's positions count the words of the content: they are the text's words only when the content starts with the text.
        if (indexesText(inputDoc.content, parse.text))
          summaries.push({
            url: f.url,
            text: summaryPart(parse.text),
            length: parse.text.length,
            offsets: tokens ? encodeOffsets(tokens) : textOffsets(analyzer, parse.text),
            meta: summaryMeta(parse.meta),
          });
        if (summaries.length >= SUMMARIES_BATCH) flushSummaries();
      }
      flushSummaries();
      await replaceDir(segmentIndexDir(dir), async (tmp) => {
        await writer.write(tmp);
      });
    } finally {
      writer.discard();
    }
    seg.markPhase('indexed');
    sum.indexed = writer.docCount;
    log?.info(`${seg.name}: ${sum.indexed} indexed, ${sum.notFetched} not fetched, ${sum.notParsed} not parsed, ${sum.noindex} noindex, ${sum.filtered} filtered`);
    return sum;
  } finally {
    summariesOut?.close();
    seg.close();
  }
}

export async function indexSegments(conf: Conf, opts: IndexOptions): Promise<IndexSummary> {
  const plugins = await loadCrawlerPlugins(conf);
  opts.log?.info(`indexing filters: ${plugins.active.filter((p) => p.point === 'indexing-filter').map((p) => p.id).join(', ') || 'none'}`);
  const db = openWebDb(opts.webdb, { readonly: true });
  try {
    const segments: SegmentIndexSummary[] = [];
    for (const dir of opts.segments) segments.push(await indexSegment(conf, plugins, db, dir, opts.log));
    return { segments, indexed: segments.reduce((n, s) => n + s.indexed, 0) };
  } finally {
    db.close();
    opts.log?.clearProgress();
  }
}

const tool: Tool = {
  name: 'index',
  description: 'build an index for each segment (segments/<name>/index)',
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
