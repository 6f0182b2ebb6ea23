/**
 * @module crawler/merge
 * `hazelnut merge <index> (<segment> ... | -dir <segments>)`: one merged index
 * of every live document of the segment indexes, with global statistics.
 * Documents dedup deleted stay out, and the dedup rule is applied again over
 * what remains, so a re-crawled page is merged only in its newest copy even
 * when dedup was run over fewer segments. Documents are re-added from their
 * segment index's entries, read a window of documents at a time and written
 * through the spilling IndexWriter, so memory does not grow with the
 * documents; the postings are the segment indexes' own, merged
 * (shared/index/postings-merge), or inverted again when a segment index
 * holds none (written by an older release); built in a temporary directory
 * and published as a new generation in one rename, so a merge killed at any
 * point leaves the previous index serving. A merge into the crawl's own
 * index then folds the segment indexes it merged (crawler/folded-index):
 * the next merge takes their pages, minus those of segments deleted since,
 * from the index it replaces, whose postings merge as a segment index's do.
 * `-shards n` writes n shard indexes instead, split by URL hash, one per
 * searcher behind a broker (hazelnut-searcher -shard / -shards).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Conf } from '../shared/conf.js';
import { HzError, UsageError } from '../shared/errors.js';
import { Analyzer } from '../shared/analysis/analyzer.js';
import { publishIndex } from '../shared/index/publish.js';
import type { PostingsInput } from '../shared/index/postings-merge.js';
import { IndexWriter } from '../shared/index/writer.js';
import { writeAssociations } from './index/associations.js';
import type { Log } from './log.js';
import { intOption, parseArgs, type Tool } from '../shared/command.js';
import { dedupEntries, duplicates, openSegmentIndexes, segmentNames, type DedupEntry, type DedupReason, type SegmentIndex } from './dedup-rule.js';
import { checkNoneLeftOut, foldingIndex, foldSegmentIndexes } from './folded-index.js';
import { segmentDirs } from './segment-args.js';
import { runWithLog } from './tool-run.js';
import { crawlDirOf, shardIndexDir } from '../shared/crawl-dir.js';

export interface MergeSummary {
  documents: number;
  segments: number;
  /** Live documents left out as duplicates of another live one. */
  duplicates: number;
  generation: string;
  dir: string;
}

export interface MergeOptions {
  index: string;
  segments: string[];
  log?: Log;
}

export async function merge(conf: Conf, opts: MergeOptions): Promise<MergeSummary> {
  // Into the crawl's own index, the segment indexes merged are folded once it is published (those folded already lose what a killed fold left); elsewhere they stay.
  const folding = opts.segments.filter((d) => path.resolve(foldingIndex(d)) === path.resolve(opts.index));
  checkNoneLeftOut(opts.segments, opts.index);
  const [s] = await mergeDeduped(conf, opts.log, await dedupSegments(conf, opts), [opts.index], () => 0);
  foldSegmentIndexes(folding, opts.index, s!.generation, opts.log);
  return s!;
}

/** The segment indexes with the dedup rule applied over all their documents: what every merge of them, and every shard, starts from. */
interface Deduped {
  indexes: SegmentIndex[];
  analyzer: Analyzer;
  entries: DedupEntry[];
  where: [number, number][];
  dup: Map<number, DedupReason>;
}

async function dedupSegments(conf: Conf, opts: MergeOptions): Promise<Deduped> {
  const indexes = await openSegmentIndexes(opts.segments, opts.log);
  const analyzers = new Set(indexes.map((s) => JSON.stringify(s.reader.meta.analyzer)));
  if (analyzers.size > 1)
    throw new HzError(
      'HZ_ERR_INDEX_FORMAT',
      `segment indexes were built with different analyzer settings (${[...analyzers].join(' vs ')}); re-index them with one setting before merging`,
    );
  const analyzer = indexes[0] ? Analyzer.ofIndex(indexes[0].reader.meta.analyzer) : Analyzer.fromConf(conf);
  const { entries, where } = dedupEntries(indexes, { skipDeleted: true });
  const dup = duplicates(entries, conf.getBoolean('dedup.keep.highest.score'));
  return { indexes, analyzer, entries, where, dup };
}

/**
 * Merges the deduped documents into one index per output directory, each
 * document into the output `route` gives its URL (-1: none), reading the
 * segment indexes once for all of them.
 */
async function mergeDeduped(conf: Conf, log: Log | undefined, { indexes, analyzer, entries, where, dup }: Deduped, outputs: string[], route: (url: string) => number): Promise<MergeSummary[]> {
  // Per segment index, the output of each document (-1: not merged), read once a document.
  const dest = indexes.map((s) => new Int32Array(s.reader.meta.docCount).fill(-1));
  let total = 0;
  where.forEach(([k, id], i) => {
    const o = dup.has(i) ? -1 : route(entries[i]!.url);
    if (o >= 0) (dest[k]![id] = o), total++;
  });
  // Postings merged from the segment indexes' own, unless one was written without them (then every document is inverted again).
  const bare = indexes.filter((s) => s.reader.meta.postings === false);
  if (bare.length) log?.info(`${bare.length} segment indexes hold no postings (${bare[0]!.segment}${bare.length > 1 ? ', …' : ''}): inverting their documents again; 'hazelnut index' writes them with postings`);
  const postingsFrom = bare.length ? undefined : (o: number) => postingInputs(indexes, dest, o);
  const segments = segmentNames(indexes);
  const writers = outputs.map((_, o) => new IndexWriter({ analyzer, segments, postingsFrom: postingsFrom?.(o) }));
  const out: MergeSummary[] = [];
  try {
    const progress = log?.step('merge', 'documents', total);
    let done = 0;
    for (const [k, s] of indexes.entries()) {
      // The segment's dictionary mapped to each output's as terms are first met, not looked up term by term.
      const words = s.reader.terms();
      const toOutput: ((ids: Uint32Array) => Uint32Array)[] = [];
      const to = dest[k]!;
      for (const [id, stored, e] of s.reader.docEntries((id) => to[id]! >= 0)) {
        const o = to[id]!;
        progress?.update(++done, { extra: `${segments.length} segments` });
        const writer = writers[o]!;
        const toMerged = (toOutput[o] ??= termMap(words, writer));
        writer.addEntries(stored, { ...e, terms: toMerged(e.terms) });
      }
    }
    for (const [o, writer] of writers.entries()) {
      const published = await publishIndex(
        outputs[o]!,
        async (dir) => {
          await writer.write(dir);
          if (conf.getBoolean('indexer.related.terms')) await writeAssociations(dir);
        },
        { graceMs: conf.getDuration('index.generation.grace', 'ms') },
      );
      log?.clearProgress();
      log?.info(`published generation ${published.generation}: ${writer.docCount} documents from ${segments.length} segments`);
      out.push({ documents: writer.docCount, segments: segments.length, duplicates: dup.size, generation: published.generation, dir: published.dir });
    }
  } finally {
    for (const w of writers) w.discard();
    for (const s of indexes) s.reader.close();
  }
  return out;
}

/** The segment indexes as inputs of output `o`'s postings: each kept document's id there, numbered in the order the documents are added. */
function postingInputs(indexes: readonly SegmentIndex[], dest: readonly Int32Array[], o: number): PostingsInput[] {
  let next = 0;
  return indexes.map((s, k) => ({ dir: s.reader.dir, words: s.reader.terms(), docOf: dest[k]!.map((to) => (to === o ? next++ : -1)) }));
}

/** Maps ids of a segment index's dictionary `words` to ids of `writer`'s, each word looked up when first met. */
function termMap(words: readonly string[], writer: IndexWriter): (ids: Uint32Array) => Uint32Array {
  const map = new Int32Array(words.length).fill(-1);
  return (ids) => {
    const out = new Uint32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const t = ids[i]!;
      const m = map[t]!;
      out[i] = m >= 0 ? m : (map[t] = writer.termId(words[t]!));
    }
    return out;
  };
}

const MAX_SHARDS = 256;

/** The shard of `n` that holds a URL: by a hash of the URL, so a page's shard never depends on what else was crawled. */
export function shardOf(url: string, n: number): number {
  return createHash('md5').update(url).digest().readUInt32BE(0) % n;
}

/** Shard indexes written in one read of the segment indexes, at most (each writer holds its dictionary and a few 1 MB buffers). */
const SHARDS_PER_READ = 16;

/**
 * `n` shard indexes, shard i published under `<index>/<i>` the way one merged
 * index is, each holding the URLs that hash to it. Dedup runs once over every
 * document, so the shards together hold exactly what one merged index would;
 * the segment indexes are read once for every SHARDS_PER_READ shards.
 */
export async function mergeShards(conf: Conf, opts: MergeOptions, n: number): Promise<MergeSummary[]> {
  const deduped = await dedupSegments(conf, opts);
  const out: MergeSummary[] = [];
  for (let first = 0; first < n; first += SHARDS_PER_READ) {
    const count = Math.min(SHARDS_PER_READ, n - first);
    opts.log?.info(`shards ${first}–${first + count - 1} of ${n}`);
    const dirs = Array.from({ length: count }, (_, i) => shardIndexDir(opts.index, first + i));
    out.push(
      ...(await mergeDeduped(conf, opts.log, deduped, dirs, (url) => {
        const shard = shardOf(url, n) - first;
        return shard >= 0 && shard < count ? shard : -1;
      })),
    );
  }
  return out;
}

const tool: Tool = {
  name: 'merge',
  usage: 'Usage: hazelnut merge <index> (<segment> ... | -dir <segments>) [-shards <n>]',
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['dir', 'shards'] });
    const [index, ...rest] = a._;
    if (!index) throw new UsageError('missing arguments');
    const segments = segmentDirs(rest, a.dir as string | undefined);
    const shards = intOption(a.shards, 'shards');
    if (shards !== undefined) {
      if (shards < 1 || shards > MAX_SHARDS) throw new UsageError(`-shards must be 1–${MAX_SHARDS}, not ${shards}`);
      const all = await runWithLog(ctx, { tool: 'merge', crawlDir: crawlDirOf(index) }, (log) => mergeShards(ctx.conf, { index, segments, log }, shards));
      all.forEach((s, i) => ctx.out.write(`merge: shard ${i} of ${shards}: ${s.documents} documents published as ${s.dir}\n`));
      return 0;
    }
    const s = await runWithLog(ctx, { tool: 'merge', crawlDir: crawlDirOf(index) }, (log) => merge(ctx.conf, { index, segments, log }));
    ctx.out.write(
      `merge: ${s.documents} documents from ${s.segments} segments (${s.duplicates} duplicates left out) published as ${path.join(index, s.generation)}\n`,
    );
    return 0;
  },
};

export default tool;
