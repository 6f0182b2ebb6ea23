/**
 * @module crawler/readindex
 * `hazelnut readindex <index> -stats`: what an index holds — documents,
 * deleted documents, distinct terms, the segments it covers and its size on
 * disk. `<index>` is a merged index root (`crawl/index`), one of its
 * generations, a segment index (`segments/<name>/index`) or a segment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../shared/errors.js';
import { currentIndex } from '../shared/index/publish.js';
import { openIndex } from '../shared/index/reader.js';
import { parseArgs, type Tool } from '../shared/command.js';
import { segmentIndexDir } from '../shared/crawl-dir.js';

export interface IndexStats {
  dir: string;
  generation?: string;
  documents: number;
  deleted: number;
  terms: number;
  segments: string[];
  bytes: number;
}

export async function indexStats(target: string): Promise<IndexStats> {
  const cur = currentIndex(target);
  const inSegment = segmentIndexDir(target);
  const dir = cur ? cur.dir : !fs.existsSync(path.join(target, 'meta')) && fs.existsSync(inSegment) ? inSegment : target;
  const r = await openIndex(dir);
  const bytes = fs.readdirSync(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
  const s = { dir, generation: cur?.generation, documents: r.meta.docCount, deleted: r.meta.deletedCount, terms: r.meta.termCount, segments: r.meta.segments, bytes };
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
        `bytes on disk: ${s.bytes}`,
      ].join('\n') + '\n',
    );
    return 0;
  },
};

export default tool;
