/**
 * @module crawler/readindex
 * `hazelnut readindex <index> -stats`: what an index holds — documents,
 * deleted documents, distinct terms, the segments it covers and its size on
 * disk. `<index>` is a merged index root (`crawl/index`), one of its
 * generations, a segment index (`segments/<name>/index`) or a segment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HzError, UsageError } from '../shared/errors.js';
import { currentIndex } from '../shared/index/publish.js';
import { openIndex } from '../shared/index/reader.js';
import { parseArgs, type Tool } from '../shared/command.js';
import { segmentIndexDir } from '../shared/crawl-dir.js';
import { foldingIndex, isFolded } from './folded-index.js';

export interface IndexStats {
  dir: string;
  generation?: string;
  documents: number;
  deleted: number;
  terms: number;
  segments: string[];
  /** The index format version (shared/index/format). */
  version: number;
  bytes: number;
  /** Bytes of each file of the index. */
  files: Record<string, number>;
}

export async function indexStats(target: string): Promise<IndexStats> {
  const cur = currentIndex(target);
  const inSegment = segmentIndexDir(target);
  if (isFolded(target))
    throw new HzError(
      'HZ_ERR_NOT_FOUND',
      `segment ${target}: its own index was folded into the crawl's merged index after a merge, which holds its pages now: read that ('hazelnut readindex ${foldingIndex(target)} -stats')`,
    );
  const dir = cur ? cur.dir : !fs.existsSync(path.join(target, 'meta')) && fs.existsSync(inSegment) ? inSegment : target;
  const r = await openIndex(dir);
  const files = Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.statSync(path.join(dir, f)).size]));
  const bytes = Object.values(files).reduce((n, b) => n + b, 0);
  const { meta } = r;
  const s = { dir, generation: cur?.generation, documents: meta.docCount, deleted: meta.deletedCount, terms: meta.termCount, segments: meta.segments, version: meta.version, bytes, files };
  r.close();
  return s;
}

const tool: Tool = {
  name: 'readindex',
  usage: 'Usage: hazelnut readindex <index> -stats',
  async run(ctx, args) {
    const a = parseArgs(args, { boolean: ['stats'] });
    if (a._.length !== 1) throw new UsageError(a._.length ? `unexpected argument ${a._[1]}` : 'missing <index>');
    if (!a.stats) throw new UsageError('nothing to do: give -stats');
    const s = await indexStats(a._[0]!);
    ctx.out.write(
      [
        `index: ${s.dir}${s.generation ? ` (generation ${s.generation})` : ''}`,
        `documents: ${s.documents}`,
        `deleted documents: ${s.deleted}`,
        `live documents: ${s.documents - s.deleted}`,
        `distinct terms: ${s.terms}`,
        `segments covered: ${s.segments.length}${s.segments.length ? ` (${s.segments[0]} .. ${s.segments[s.segments.length - 1]})` : ''}`,
        `format version: ${s.version}`,
        `bytes on disk: ${s.bytes} (${Object.entries(s.files)
          .map(([f, b]) => `${f} ${b}`)
          .join(', ')})`,
      ].join('\n') + '\n',
    );
    return 0;
  },
};

export default tool;
