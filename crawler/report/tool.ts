/**
 * @module crawler/report/tool
 * `hazelnut report <crawl> [-out file]`: writes the crawl report, one
 * self-contained HTML file (default `<crawl>/report.html`, which the
 * searcher serves at /report). `crawl` writes it at its end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HzError, UsageError } from '../../shared/errors.js';
import { crawlPaths } from '../../shared/crawl-dir.js';
import { parseArgs, type Tool } from '../../shared/command.js';
import { collectReport } from './collect.js';
import { renderReport } from './html.js';

/**
 * Writes the report of a crawl directory (atomically: a searcher may be
 * reading it) and returns its path; `webdb` names a WebDB kept elsewhere (webdb.url).
 */
export function writeReport(crawlDir: string, out = crawlPaths(crawlDir).report, webdb?: string): string {
  const p = crawlPaths(crawlDir);
  if (!fs.existsSync(p.webdb) && !fs.existsSync(p.segments))
    throw new HzError('HZ_ERR_NOT_FOUND', `${crawlDir} is not a crawl directory: it has neither webdb/ nor segments/`);
  const html = renderReport(collectReport(path.resolve(crawlDir), Date.now(), webdb));
  const tmp = `${out}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, html);
  fs.renameSync(tmp, out);
  return out;
}

const tool: Tool = {
  name: 'report',
  usage: `Usage: hazelnut report <crawl_dir> [-out file.html]
  -out f  where to write it (default <crawl_dir>/report.html, served by the searcher at /report)`,
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['out'] });
    if (a._.length !== 1) throw new UsageError(a._.length ? `unexpected argument ${a._[1]}` : 'missing <crawl_dir>');
    const out = writeReport(a._[0]!, typeof a.out === 'string' ? path.resolve(a.out) : undefined, ctx.conf.get('webdb.url') || undefined);
    ctx.out.write(`report: ${out}\n`);
    return 0;
  },
};

export default tool;
