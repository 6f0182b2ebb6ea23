/**
 * @module crawler/inject
 * `hazelnut inject <webdb> <urlDir|file>`: Nutch's Injector. Seed files hold
 * one URL per line, `#` comments, and optional tab-separated `key=value`
 * metadata (`nutch.score`, `nutch.fetchInterval` in seconds, anything else is
 * kept in the page's metadata). Each URL is normalized (scope `inject`) and
 * filtered. New URLs enter the WebDB as db_unfetched, due now; URLs already
 * there are never touched, so injecting twice changes nothing. A bad line is
 * reported with its file and line and the others still go in, all in one
 * transaction.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Conf } from '../shared/conf.js';
import { HzError, partialExitCode, UsageError } from '../shared/errors.js';
import type { Log } from './log.js';
import { parseArgs, type Tool } from '../shared/command.js';
import { host } from './url/keys.js';
import { activePlugins } from './checkers/checker.js';
import { checkFilters } from './checkers/filterchecker.js';
import { isLoopbackHost } from './fetch/address.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from './plugin/chains.js';
import { runWithLog } from './tool-run.js';
import { openWebDb, type Seed } from './webdb/webdb.js';

export interface SeedLine {
  url: string;
  meta: Record<string, string>;
  /** `file:line`. */
  where: string;
}

export interface SeedBatch {
  lines: SeedLine[];
  /** Lines that could not be read as a seed (bad metadata). */
  malformed: { where: string; reason: string }[];
  files: string[];
}

export interface InjectSummary {
  injected: number;
  known: number;
  /** Known URLs replaced because of `overwrite`. */
  overwritten: number;
  filtered: number;
  malformed: number;
  /** Each malformed line with its reason, in file order. */
  problems: { where: string; reason: string }[];
}

const RESERVED_NUMBERS: Record<string, RegExp> = {
  'nutch.score': /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/,
  'nutch.fetchInterval': /^\d+$/,
};

/** The seed files of a path: the file itself, or a directory's visible regular files in name order. */
export function seedFiles(seedPath: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(seedPath);
  } catch {
    throw new HzError('HZ_ERR_SEED', `seed path ${seedPath} does not exist: give a text file, or a directory of text files, with one URL per line`);
  }
  if (!stat.isDirectory()) return [seedPath];
  return fs
    .readdirSync(seedPath, { withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('.') && !e.name.endsWith('~'))
    .map((e) => path.join(seedPath, e.name))
    .sort();
}

/** Reads the seed lines; throws when there is no URL at all, since a crawl could then do nothing. */
export function readSeeds(seedPath: string): SeedBatch {
  const files = seedFiles(seedPath);
  const batch: SeedBatch = { lines: [], malformed: [], files };
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    text.split(/\r?\n/).forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith('#')) return;
      const where = `${file}:${i + 1}`;
      const [url, ...fields] = line.split('\t');
      const meta: Record<string, string> = {};
      for (const f of fields) {
        const eq = f.indexOf('=');
        const key = f.slice(0, eq).trim();
        const value = f.slice(eq + 1).trim();
        const problem =
          eq <= 0 || !key
            ? `metadata ${JSON.stringify(f)} is not key=value`
            : RESERVED_NUMBERS[key] && !RESERVED_NUMBERS[key].test(value)
              ? `${key} must be ${key === 'nutch.score' ? 'a number' : 'a whole number of seconds'}, not ${JSON.stringify(value)}`
              : undefined;
        if (problem) {
          batch.malformed.push({ where, reason: problem });
          return;
        }
        meta[key] = value;
      }
      batch.lines.push({ url: url!.trim(), meta, where });
    });
  }
  if (batch.lines.length === 0 && batch.malformed.length === 0)
    throw new HzError(
      'HZ_ERR_SEED',
      files.length === 0
        ? `seed directory ${seedPath} holds no files: put a text file with one URL per line in it`
        : `${seedPath} holds no URL: write one URL per line (like https://intranet.example.com/), # starts a comment`,
    );
  return batch;
}

/**
 * Checks seeds before anything is written. Returns, for each seed the URL
 * filters reject, a warning naming the filter and, for regex-urlfilter.txt,
 * the file:line of the deciding rule; throws when not one seed could be
 * injected, with every reason and what to change.
 */
export async function screenSeeds(conf: Conf, seeds: SeedBatch, plugins: CrawlerPlugins): Promise<string[]> {
  const urls = seeds.lines.map((l) => {
    const url = plugins.normalizers.normalize(l.url, 'inject');
    return { where: l.where, raw: l.url, url, ok: url !== null && plugins.filters.filter(url) !== null };
  });
  const filtered = urls.filter((u) => u.url !== null && !u.ok);
  const filters = filtered.length ? await activePlugins(conf, 'url-filter') : [];
  const rejection = (u: (typeof urls)[number]) => `${u.where}: ${u.url} rejected by ${checkFilters(filters, u.url!, true).rejectedBy.join(', ')}`;
  const warnings = filtered.map(rejection);
  if (urls.some((u) => u.ok)) return warnings;
  const all = [
    ...urls.map((u) => (u.url === null ? `${u.where}: ${JSON.stringify(u.raw)} is not an absolute URL hazelnut can fetch` : rejection(u))),
    ...seeds.malformed.map((m) => `${m.where}: ${m.reason}`),
  ];
  const advice = warnings.some((w) => /\(rule /.test(w))
    ? "change or remove the '-' rule named, or put a '+' rule for the URL before it"
    : warnings.length
      ? "add a '+' rule for your hosts to the URL filter file"
      : 'put one URL per line (e.g. http://intranet.example.com/)';
  const shown = all.length > 10 ? [...all.slice(0, 10), `… and ${all.length - 10} more`] : all;
  throw new HzError('HZ_ERR_SEED', `no seed URL can be injected; nothing was written:\n  ${shown.join('\n  ')}\n${advice}; 'hazelnut filterchecker <url>' tests a URL`);
}

export interface InjectOptions {
  webdb: string;
  /** A seed path, or seeds already read with readSeeds. */
  seeds: string | SeedBatch;
  plugins?: CrawlerPlugins;
  /**
   * Replace existing records with the injected ones (Nutch 1.13's -overwrite):
   * the page becomes db_unfetched and due now, so the next generate picks it
   * up — the way to re-crawl pages you know have changed.
   */
  overwrite?: boolean;
  now?: number;
  log?: Log;
}

export async function inject(conf: Conf, opts: InjectOptions): Promise<InjectSummary> {
  const batch = typeof opts.seeds === 'string' ? readSeeds(opts.seeds) : opts.seeds;
  const plugins = opts.plugins ?? (await loadCrawlerPlugins(conf));
  opts.log?.info(`plugins: ${plugins.active.map((p) => `${p.id} (${p.point})`).join(', ')}`);
  const now = opts.now ?? Date.now();
  const defaultScore = conf.getFloat('db.score.injected');
  const defaultInterval = Math.round(conf.getDuration('db.fetch.interval.default', 's') / 1000);
  const summary: InjectSummary = { injected: 0, known: 0, overwritten: 0, filtered: 0, malformed: 0, problems: [...batch.malformed] };

  const rows: Seed[] = [];
  for (const seed of batch.lines) {
    const url = plugins.normalizers.normalize(seed.url, 'inject');
    if (url === null) {
      summary.problems.push({ where: seed.where, reason: `${JSON.stringify(seed.url)} is not an absolute URL hazelnut can fetch` });
      continue;
    }
    if (plugins.filters.filter(url) === null) {
      summary.filtered++;
      opts.log?.info(`${seed.where}: ${url} rejected by the URL filters`);
      continue;
    }
    const { 'nutch.score': score, 'nutch.fetchInterval': interval, ...rest } = seed.meta;
    rows.push({
      url,
      host: host(url),
      score: plugins.scoring.injectedScore(url, score === undefined ? defaultScore : Number(score)),
      interval: interval === undefined ? defaultInterval : Number(interval),
      meta: Object.keys(rest).length ? JSON.stringify(rest) : null,
    });
  }
  summary.malformed = summary.problems.length;
  summary.problems.sort((a, b) => a.where.localeCompare(b.where, undefined, { numeric: true }));

  const db = openWebDb(opts.webdb, { create: true });
  try {
    db.transaction(() => {
      Object.assign(summary, db.inject(rows, now, opts.overwrite === true));
      // The fetcher connects to loopback only for a crawl whose seeds are there (crawler/fetch/address.ts).
      if (rows.some((r) => isLoopbackHost(new URL(r.url).hostname))) db.markSeedsOnLoopback();
    });
  } finally {
    db.close();
  }
  for (const p of summary.problems) opts.log?.info(`${p.where}: ${p.reason}`);
  return summary;
}

const USAGE = `Usage: hazelnut inject <webdb> <url_dir|url_file> [-overwrite] [-force]
  -overwrite  replace known URLs' records: they become unfetched and due now (re-crawl changed pages)
  -force      take over a stale lock`;

const tool: Tool = {
  name: 'inject',
  usage: USAGE,
  async run(ctx, args) {
    const a = parseArgs(args, { boolean: ['force', 'overwrite'] });
    if (a._.length !== 2) throw new UsageError(a._.length < 2 ? 'missing arguments' : `unexpected argument ${a._[2]}`);
    const [webdb, seedPath] = a._ as [string, string];
    const seeds = readSeeds(seedPath);
    const plugins = await loadCrawlerPlugins(ctx.conf);
    const rejected = await screenSeeds(ctx.conf, seeds, plugins);
    const summary = await runWithLog(ctx, { tool: 'inject', webdb, lock: { force: a.force === true } }, (log) =>
      inject(ctx.conf, { webdb, seeds, plugins, log, overwrite: a.overwrite === true }),
    );
    for (const w of [...summary.problems.map((p) => `${p.where}: ${p.reason}`), ...rejected]) ctx.err.write(`inject: ${w}\n`);
    ctx.out.write(
      `inject: ${summary.injected} injected, ${summary.known} already known, ${summary.overwritten ? `${summary.overwritten} overwritten, ` : ''}${summary.filtered} rejected by filters, ${summary.malformed} malformed (${seeds.files.length} seed file${seeds.files.length === 1 ? '' : 's'})\n`,
    );
    // The good lines are in and the bad ones were warned about; only a run that took no line fails.
    return partialExitCode(summary.injected + summary.known + summary.overwritten, summary.malformed + summary.filtered);
  },
};

export default tool;
