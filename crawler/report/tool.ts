/**
 * @module crawler/report/tool
 * `hazelnut report <crawl> [-out file] [-since <segment|date>]`: writes the
 * crawl report, one self-contained HTML file (default `<crawl>/report.html`,
 * which the searcher serves at /report). `crawl` writes it at its end, with
 * what changed since that crawl began; written again, the report keeps
 * comparing from the same point unless `-since` moves it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HzError, UsageError } from '../../shared/errors.js';
import { crawlPaths } from '../../shared/crawl-dir.js';
import { parseArgs, type Tool } from '../../shared/command.js';
import { parseSince } from './changes.js';
import { collectReport, type ReportOptions } from './collect.js';
import { renderReport, sinceOf } from './html-report.js';

/**
 * Writes the report of a crawl directory (atomically: a searcher may be
 * reading it) and returns its path. Without `since`, "What changed" starts
 * where the crawl's last report started it.
 */
export function writeReport(crawlDir: string, out = crawlPaths(crawlDir).report, opts: ReportOptions = {}): string {
  const p = crawlPaths(crawlDir);
  if (!fs.existsSync(p.webdb) && !fs.existsSync(p.segments))
    throw new HzError('HZ_ERR_NOT_FOUND', `${crawlDir} is not a crawl directory: it has neither webdb/ nor segments/`);
  let since = opts.since;
  if (since === undefined && fs.existsSync(p.report)) since = sinceOf(fs.readFileSync(p.report, 'utf8'));
  const html = renderReport(collectReport(path.resolve(crawlDir), Date.now(), { ...opts, since }));
  const tmp = `${out}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, html);
  fs.renameSync(tmp, out);
  return out;
}

const tool: Tool = {
  name: 'report',
  usage: `Usage: hazelnut report <crawl_dir> [-out file.html] [-since <segment|date>]
  -out f      where to write it (default <crawl_dir>/report.html, served by the searcher at /report)
  -since s    "What changed" since segment s (yyyyMMddHHmmss) or a date (yyyy-MM-dd); default: since the last crawl began`,
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['out', 'since'] });
    if (a._.length !== 1) throw new UsageError(a._.length ? `unexpected argument ${a._[1]}` : 'missing <crawl_dir>');
    const since = typeof a.since === 'string' ? a.since : undefined;
    if (since !== undefined) parseSince(since);
    const out = writeReport(a._[0]!, typeof a.out === 'string' ? path.resolve(a.out) : undefined, {
      webdb: ctx.conf.get('webdb.url') || undefined,
      since,
      conf: ctx.conf,
    });
    ctx.out.write(`report: ${out}\n`);
    return 0;
  },
};

export default tool;
