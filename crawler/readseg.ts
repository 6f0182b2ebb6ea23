/**
 * @module crawler/readseg
 * `hazelnut readseg (-list (<segment_dir> ... | -dir <segments>) | -dump
 * <segment_dir> <output> | -get <segment_dir> <url>) [general options]`:
 * Nutch's SegmentReader. `-list` prints one line per segment (URLs generated,
 * fetch start and end, fetched, parsed); `-dump` writes every URL's records
 * to `<output>/dump`; `-get` prints one URL's. The general options leave out
 * parts: -nogenerate (the fetchlist entry), -nofetch (the fetch record),
 * -nocontent (the raw content), -noparse (parse status, signature,
 * language), -noparsedata (title, outlinks, parse meta), -noparsetext.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HzError, UsageError } from '../shared/errors.js';
import { parseArgs, type Tool, type ToolContext } from '../shared/command.js';
import { Segment } from '../segments/segment.js';
import { segmentDirs } from './segment-args.js';

export interface Parts {
  generate: boolean;
  fetch: boolean;
  content: boolean;
  parse: boolean;
  parseData: boolean;
  parseText: boolean;
}

export interface SegmentListing {
  name: string;
  generated: number;
  fetchStart: number | null;
  fetchEnd: number | null;
  fetched: number;
  parsed: number;
}

export function listSegment(seg: Segment): SegmentListing {
  const t = seg.fetchTimes();
  return { name: seg.name, generated: seg.count('fetchlist'), fetchStart: t.first, fetchEnd: t.last, fetched: seg.count('fetch'), parsed: seg.count('parse') };
}

const iso = (t: number | null | undefined) => (t ? new Date(t).toISOString() : '?');
const json = (v: unknown) => JSON.stringify(v, null, 2);

/** One URL's records in Nutch's dump layout; undefined when the segment knows nothing of the URL. */
export function dumpRecord(seg: Segment, url: string, parts: Parts, recno: number): string | undefined {
  const lines: string[] = [];
  if (parts.generate) {
    const g = seg.fetchlistEntry(url);
    if (g) lines.push(`CrawlDatum (generate)::\nposition: ${g.pos}\nscore: ${g.score}\n${json(g.datum)}\n`);
  }
  if (parts.fetch) {
    const f = seg.getFetch(url);
    if (f)
      lines.push(
        `CrawlDatum (fetch)::\nstatus: ${f.status}\nprotocol status: ${f.protocolStatus}${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}\n` +
          `fetch time: ${iso(f.fetchTime)}\ncontent type: ${f.contentType ?? ''}\n${f.redirectTo ? `redirect to: ${f.redirectTo}\n` : ''}` +
          `${f.message ? `message: ${f.message}\n` : ''}headers: ${json(f.headers)}\n${f.meta ? `meta: ${json(f.meta)}\n` : ''}`,
      );
  }
  if (parts.content) {
    const c = seg.getContent(url);
    if (c) lines.push(`Content::\ncontentType: ${c.contentType ?? ''}\ncharset: ${c.charset ?? ''}\nsize: ${c.bytes.length}${c.truncated ? ' (truncated)' : ''}\nContent:\n${c.bytes.toString('utf8')}\n`);
  }
  const p = parts.parse || parts.parseData || parts.parseText ? seg.getParse(url) : undefined;
  if (p && parts.parse) lines.push(`Parse::\nstatus: ${p.status}${p.message ? ` (${p.message})` : ''}\nsignature: ${p.signature ?? ''}\nlang: ${p.lang ?? ''}\n`);
  if (p && parts.parseData)
    lines.push(
      `ParseData::\nTitle: ${p.title}\nOutlinks: ${p.outlinks.length}\n` +
        p.outlinks.map((o) => `  outlink: toUrl: ${o.url} anchor: ${o.anchor}${o.nav ? ' (navigation)' : ''}\n`).join('') +
        `Parse Metadata: ${json(p.meta)}\n`,
    );
  if (p && parts.parseText) lines.push(`ParseText::\n${p.text}\n`);
  if (lines.length === 0) return undefined;
  return `Recno:: ${recno}\nURL:: ${url}\n\n${lines.join('\n')}\n`;
}

const USAGE = `Usage: hazelnut readseg (-list (<segment_dir> ... | -dir <segments>) | -dump <segment_dir> <output> | -get <segment_dir> <url>) [general options]
General options: -nocontent -nofetch -nogenerate -noparse -noparsedata -noparsetext`;

/** `-list`: one line per segment, with its phases' times and counts. */
function listSegments(out: NodeJS.WritableStream, dirs: readonly string[]): number {
  out.write('NAME\t\tGENERATED\tFETCHER START\t\t\tFETCHER END\t\t\tFETCHED\tPARSED\n');
  for (const d of dirs) {
    const seg = Segment.open(d, { readonly: true });
    try {
      const l = listSegment(seg);
      out.write(`${l.name}\t${l.generated}\t\t${iso(l.fetchStart)}\t${iso(l.fetchEnd)}\t${l.fetched}\t${l.parsed}\n`);
    } finally {
      seg.close();
    }
  }
  return 0;
}

/** `-get`: one URL's record; exit 1 when the segment does not hold it. */
function getRecord(ctx: ToolContext, seg: Segment, url: string, parts: Parts): number {
  const rec = dumpRecord(seg, url, parts, 0);
  if (!rec) {
    ctx.err.write(`readseg: ${url} is not in segment ${seg.name}\n`);
    return 1;
  }
  ctx.out.write(rec);
  return 0;
}

/** `-dump`: every record into `<output>/dump`; the output directory must be new. */
function dumpSegment(out: NodeJS.WritableStream, seg: Segment, output: string, parts: Parts): number {
  if (fs.existsSync(output)) throw new HzError('HZ_ERR_USAGE', `output directory ${output} already exists`, { exitCode: 1 });
  fs.mkdirSync(output, { recursive: true });
  const file = path.join(output, 'dump');
  const fd = fs.openSync(file, 'w');
  let n = 0;
  try {
    for (const url of seg.urls()) {
      const rec = dumpRecord(seg, url, parts, n);
      if (rec) {
        fs.writeSync(fd, rec);
        n++;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  out.write(`readseg: ${n} records of ${seg.name} dumped to ${file}\n`);
  return 0;
}

const tool: Tool = {
  name: 'readseg',
  usage: USAGE,
  async run(ctx, args) {
    const a = parseArgs(args, {
      string: ['dir'],
      boolean: ['list', 'dump', 'get', 'nocontent', 'nofetch', 'nogenerate', 'noparse', 'noparsedata', 'noparsetext'],
    });
    const modes = (['list', 'dump', 'get'] as const).filter((m) => a[m] === true);
    if (modes.length !== 1) throw new UsageError('give exactly one of -list, -dump, -get');
    const parts: Parts = {
      generate: a.nogenerate !== true,
      fetch: a.nofetch !== true,
      content: a.nocontent !== true,
      parse: a.noparse !== true,
      parseData: a.noparsedata !== true,
      parseText: a.noparsetext !== true,
    };
    if (modes[0] === 'list') return listSegments(ctx.out, segmentDirs(a._, a.dir as string | undefined));
    if (a._.length !== 2) throw new UsageError(modes[0] === 'dump' ? 'give <segment_dir> <output>' : 'give <segment_dir> <url>');
    const [dir, second] = a._ as [string, string];
    const seg = Segment.open(dir, { readonly: true });
    try {
      return modes[0] === 'get' ? getRecord(ctx, seg, second, parts) : dumpSegment(ctx.out, seg, second, parts);
    } finally {
      seg.close();
    }
  },
};

export default tool;
