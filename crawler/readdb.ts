/**
 * @module crawler/readdb
 * `hazelnut readdb <webdb> (-stats [-sort] | -dump <out> [-format normal|csv|json] | -url <url> | -topN <n> <out> [<min>])`:
 * Nutch's CrawlDbReader over the WebDB, in Nutch's output forms so scripts
 * written for `readdb` still work. Statistics and top-N are SQL aggregates,
 * not scans in JavaScript. Output files are single files (`-` is stdout),
 * where Nutch wrote a directory of part files. The WebDB is opened read-only.
 */
import fs from 'node:fs';
import { HzError, UsageError } from '../shared/errors.js';
import { STATUS_CODES, type DbStatus } from '../shared/page-status.js';
import { intOption, parseArgs, type Tool } from '../shared/command.js';
import { normalizeUrl } from './url/normalize.js';
import { openWebDb, shownWebDb, type PageRow, type WebDb } from './webdb/webdb.js';

export interface DbStats {
  total: number;
  retries: { retries: number; count: number }[];
  minScore: number;
  avgScore: number;
  maxScore: number;
  status: { status: DbStatus; count: number; hosts?: { host: string; count: number }[] }[];
}

const byCode = (a: { status: DbStatus }, b: { status: DbStatus }) => STATUS_CODES[a.status] - STATUS_CODES[b.status];

export function readDbStats(db: WebDb, opts: { sort?: boolean } = {}): DbStats {
  const agg = db.scoreStats();
  const retries = db.retryCounts();
  const status: DbStats['status'] = db.statusCounts().sort(byCode);
  if (opts.sort) {
    const rows = db.statusHostCounts();
    for (const s of status) s.hosts = rows.filter((r) => r.status === s.status).map(({ host, count }) => ({ host, count }));
  }
  return { total: agg.count, retries, minScore: agg.min ?? 0, avgScore: agg.avg ?? 0, maxScore: agg.max ?? 0, status };
}

const num = (x: number) => String(Math.round(x * 1000) / 1000);

/** Nutch's `-stats` text. */
export function formatStats(webdb: string, s: DbStats): string {
  const lines = [`Statistics for WebDB: ${webdb}`, `TOTAL urls:\t${s.total}`];
  for (const r of s.retries) lines.push(`retry ${r.retries}:\t${r.count}`);
  lines.push(`min score:\t${num(s.minScore)}`, `avg score:\t${num(s.avgScore)}`, `max score:\t${num(s.maxScore)}`);
  for (const st of s.status) {
    lines.push(`status ${STATUS_CODES[st.status]} (${st.status}):\t${st.count}`);
    for (const h of st.hosts ?? []) lines.push(`   ${h.host} :\t${h.count}`);
  }
  lines.push('WebDB statistics: done');
  return lines.join('\n') + '\n';
}

export type DumpFormat = 'normal' | 'csv' | 'json';

/** Nutch's column names, comma-separated as RFC 4180 has it (Nutch used `;`, which spreadsheets open as one column). */
export const CSV_HEADER = 'Url,Status code,Status name,Fetch Time,Modified Time,Retries since fetch,Retry interval,Score,Signature,Metadata';

const iso = (ms: number | null) => (ms ? new Date(ms).toISOString() : new Date(0).toISOString());

/** One RFC 4180 field: quoted, with quotes doubled, when it holds a comma, a quote or a line break; as is otherwise. */
export const csvField = (v: string | number): string => (/[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

/** One RFC 4180 record, ended by CRLF. */
export const csvRecord = (fields: (string | number)[]): string => fields.map(csvField).join(',') + '\r\n';

/** One page in a dump format (normal: Nutch's CrawlDatum.toString; json: one JSON object per line). */
export function formatPage(p: PageRow, format: DumpFormat): string {
  const meta = p.metadata ? (JSON.parse(p.metadata) as Record<string, unknown>) : {};
  if (format === 'json') return JSON.stringify({ ...p, statusCode: STATUS_CODES[p.status], metadata: meta }) + '\n';
  if (format === 'csv')
    return csvRecord([
      p.url,
      STATUS_CODES[p.status],
      p.status,
      iso(p.fetch_time),
      iso(p.modified_time),
      p.retries,
      p.fetch_interval,
      p.score,
      p.signature ?? '',
      Object.entries(meta).map(([k, v]) => `${k}:${String(v)}`).join(' '),
    ]);
  return [
    `${p.url}\tVersion: 1`,
    `Status: ${STATUS_CODES[p.status]} (${p.status})`,
    `Fetch time: ${iso(p.fetch_time)}`,
    `Modified time: ${iso(p.modified_time)}`,
    `Retries since fetch: ${p.retries}`,
    `Retry interval: ${p.fetch_interval} seconds (${num(p.fetch_interval / 86400)} days)`,
    `Score: ${p.score}`,
    `Signature: ${p.signature ?? 'null'}`,
    `Metadata: ${Object.entries(meta).map(([k, v]) => `${k}: ${String(v)}`).join(' ')}`,
    '',
    '',
  ].join('\n');
}

/** Writes to a file, or to `out` when the path is `-`. */
function withOutput(file: string, out: NodeJS.WritableStream, fn: (write: (s: string) => void) => void): void {
  if (file === '-') return fn((s) => out.write(s));
  const fd = fs.openSync(file, 'w');
  try {
    fn((s) => fs.writeSync(fd, s));
  } finally {
    fs.closeSync(fd);
  }
}

export function dumpDb(db: WebDb, file: string, format: DumpFormat, out: NodeJS.WritableStream): number {
  let n = 0;
  withOutput(file, out, (write) => {
    if (format === 'csv') write(CSV_HEADER + '\r\n');
    for (const p of db.pages()) {
      write(formatPage(p, format));
      n++;
    }
  });
  return n;
}

/** The n best-scored URLs at or above `min`, as Nutch's `score<TAB>url` lines. */
export function topN(db: WebDb, n: number, min = -Infinity): { url: string; score: number }[] {
  return db.topScores(n, min);
}

export function getPage(db: WebDb, url: string): PageRow | undefined {
  const normalized = normalizeUrl(url);
  return db.page(url) ?? (normalized ? db.page(normalized) : undefined);
}

const USAGE = `Usage: hazelnut readdb <webdb> (-stats [-sort] | -dump <out> [-format normal|csv|json] | -url <url> | -topN <n> <out> [<min>])
  -stats        print overall statistics to stdout; -sort adds counts per host
  -dump <out>   dump every page to the file <out> ('-' for stdout); json is one object per line
  -url <url>    print the WebDB entry of one URL
  -topN <n> <out> [<min>]  write the n highest-scored URLs (score >= min) to <out> as score<TAB>url`;

const tool: Tool = {
  name: 'readdb',
  usage: USAGE,
  async run(ctx, args) {
    const a = parseArgs(args, { boolean: ['stats', 'sort'], string: ['dump', 'format', 'url', 'topN'] });
    const [webdb, ...rest] = a._;
    const modes = ['stats', 'dump', 'url', 'topN'].filter((m) => a[m] !== undefined && a[m] !== false);
    if (!webdb || modes.length !== 1)
      throw new UsageError(!webdb ? 'missing arguments' : modes.length ? `choose one of ${modes.map((m) => '-' + m).join(', ')}` : 'missing -stats, -dump, -url or -topN');
    const format = (a.format as string | undefined) ?? 'normal';
    if (!['normal', 'csv', 'json'].includes(format)) throw new UsageError(`-format must be normal, csv or json, not ${format}`);
    const mode = modes[0]!;
    if (rest.length > (mode === 'topN' ? 2 : 0) || (mode === 'topN' && rest.length < 1))
      throw new UsageError(mode === 'topN' ? '-topN needs <n> <out> [<min>]' : `unexpected argument ${rest[0]}`);
    const db = openWebDb(webdb, { readonly: true });
    try {
      if (mode === 'stats') ctx.out.write(formatStats(shownWebDb(webdb), readDbStats(db, { sort: a.sort === true })));
      else if (mode === 'dump') {
        const n = dumpDb(db, a.dump as string, format as DumpFormat, ctx.out);
        if (a.dump !== '-') ctx.out.write(`readdb: dumped ${n} urls to ${a.dump as string}\n`);
      } else if (mode === 'url') {
        const page = getPage(db, a.url as string);
        if (!page) throw new HzError('HZ_ERR_NOT_FOUND', `URL not found in ${shownWebDb(webdb)}: ${a.url as string}`);
        ctx.out.write(`URL: ${page.url}\n${formatPage(page, format as DumpFormat)}`);
      } else {
        const n = intOption(a.topN, 'topN')!;
        if (n <= 0) throw new UsageError('-topN needs a positive number');
        const min = rest[1] === undefined ? -Infinity : Number(rest[1]);
        if (Number.isNaN(min)) throw new UsageError(`<min> must be a number, not ${rest[1]}`);
        const rows = topN(db, n, min);
        withOutput(rest[0]!, ctx.out, (write) => rows.forEach((r) => write(`${r.score}\t${r.url}\n`)));
        if (rest[0] !== '-') ctx.out.write(`readdb: wrote the top ${rows.length} urls to ${rest[0]}\n`);
      }
    } finally {
      db.close();
    }
    return 0;
  },
};

export default tool;
