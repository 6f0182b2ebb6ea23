/**
 * @module searcher/tools
 * The searcher's commands: `serve` (the HTTP searcher, also the
 * `hazelnut-searcher` program) and `search` (one query in the terminal,
 * through the same search and summary code as the server).
 */
import path from 'node:path';
import type { Conf } from '../shared/conf.js';
import { HzError, UsageError } from '../shared/errors.js';
import { intOption, parseArgs, type Tool, type ToolContext } from '../shared/command.js';
import { hitDetails } from './details.js';
import { searchJson } from './http/api.js';
import { openLink, totalText } from './http/results.js';
import { search } from './search.js';
import { startBroker, startSearcher, type RunningServer } from './server.js';
import { searchSettings } from './settings.js';
import { CrawlSnapshots } from './snapshot.js';
import { didYouMean } from './suggest.js';
import { summaryToText } from './summary.js';
import { listenForStop } from './stop.js';
import { isWorker, superviseWorkers, workerCount, type WorkerReport } from './workers.js';

const SERVE_USAGE = 'Usage: hazelnut serve [<crawl_dir> | -dir <crawl_dir>] [-index <dir>] [-shard] [-shards <host:port[|replica],...>] [-port <n>] [-host <address>] [-workers <n>]';

/** Serves until SIGTERM or SIGINT, then drains and exits 0; with `-workers n`, n processes behind the port (by default one a core). */
export async function serveUntilSignal(ctx: ToolContext, args: string[]): Promise<number> {
  try {
    return await serve(ctx, args);
  } finally {
    // A worker's channel to the primary would keep it alive once it is done. Not disconnected: a cluster worker
    // whose channel closes exits 0 at once, so one that could not start would look stopped, not failed.
    if (isWorker()) process.channel?.unref();
  }
}

/** `searcher.workers`: 0 (one a core) or more. */
function configuredWorkers(conf: Conf): number {
  const n = conf.getInt('searcher.workers');
  if (n < 0) throw new HzError('HZ_ERR_CONF_PROPERTY', `property searcher.workers must be 0 (one process a core) or more, not ${n}`);
  return n;
}

async function serve(ctx: ToolContext, args: string[]): Promise<number> {
  const a = parseArgs(args, { string: ['dir', 'port', 'host', 'index', 'shards', 'workers'], boolean: ['shard'] });
  if (a._.length > 1) throw new UsageError(`unexpected argument ${a._[1]}`);
  const port = intOption(a.port, 'port') ?? ctx.conf.getInt('searcher.port');
  const host = (a.host as string | undefined) ?? ctx.conf.get('searcher.host');
  const asked = intOption(a.workers, 'workers');
  if (asked !== undefined && asked < 1) throw new UsageError('-workers must be at least 1');
  const workers = workerCount(asked ?? configuredWorkers(ctx.conf));
  const log = (line: string) => ctx.err.write(`${new Date().toISOString()} searcher${isWorker() ? ` ${process.pid}` : ''}: ${line}\n`);
  if (workers > 1 && !isWorker()) return superviseWorkers(workers, ctx.out, log);
  // A worker reports where it serves to the primary, which says it once for all.
  const say = (line: string) => (isWorker() ? process.send!({ serving: line } satisfies WorkerReport) : ctx.out.write(line));
  const stop = listenForStop();
  try {
    const running = await start(ctx.conf, a, { port, host, log });
    if (!stop.isAsked) say(running.serving);
    log(`${await stop.asked}: finishing requests in flight, then stopping`);
    await running.close();
    return 0;
  } finally {
    stop.cancel();
  }
}

/** Opens the index (or the broker's shards) and listens; returns what to say once it serves. */
async function start(conf: Conf, a: ReturnType<typeof parseArgs>, net: { port: number; host: string; log: (line: string) => void }): Promise<RunningServer & { serving: string }> {
  const { port, host, log } = net;
  if (a.shards !== undefined) {
    if (a.shard || a.index || a.dir || a._.length) throw new UsageError('a broker (-shards) serves no crawl directory or index: give only -shards, -port and -host');
    const shards = String(a.shards).split(',').filter((s) => s.trim());
    const running = await startBroker(conf, { shards, port, host });
    return { ...running, serving: `searcher brokering ${shards.length} shards (${shards.join(', ')}) at ${running.url}/\n` };
  }
  const dir = path.resolve((a.dir as string | undefined) ?? a._[0] ?? conf.get('searcher.dir'));
  const index = a.index === undefined ? undefined : path.resolve(String(a.index));
  const searcher = await startSearcher(conf, { dir, port, host, log, index, shard: a.shard === true });
  const docs = searcher.snapshots.current.reader.meta.docCount;
  return { ...searcher, serving: `searcher serving ${docs} documents from ${index ?? dir}${a.shard ? ' as a shard' : ''} at ${searcher.url}/\n` };
}

export const serveTool: Tool = {
  name: 'serve',
  usage: SERVE_USAGE,
  run: (ctx, args) => serveUntilSignal(ctx, args),
};

export const searchTool: Tool = {
  name: 'search',
  usage: 'Usage: hazelnut search <crawl_dir> <query ...> [-n <hits>] [-start <n>] [-hitsPerSite <n>] [-json]',
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['n', 'start', 'hitsPerSite'], boolean: ['json'] });
    const [dir, ...words] = a._;
    if (!dir || words.length === 0) throw new UsageError('a crawl directory and a query are needed');
    const snapshots = await CrawlSnapshots.open(path.resolve(dir), searchSettings(ctx.conf));
    const lease = snapshots.acquire();
    try {
      const snap = lease.snapshot;
      const r = search(snap, {
        query: words.join(' '),
        hitsPerPage: intOption(a.n, 'n') ?? 10,
        start: intOption(a.start, 'start'),
        hitsPerSite: intOption(a.hitsPerSite, 'hitsPerSite'),
      });
      if (a.json) {
        ctx.out.write(JSON.stringify(searchJson(snap, r), null, 2) + '\n');
        return 0;
      }
      r.hits.forEach((h, i) => {
        const d = hitDetails(snap, h, r);
        const summary = summaryToText(d.summary);
        const section = d.section && d.section.heading !== h.doc.title.trim() ? `   § ${d.section.heading}\n` : '';
        ctx.out.write(`${r.start + i + 1}. ${h.doc.title.trim() || h.doc.url}\n   ${openLink({ hit: h, section: d.section }, snap.settings.fileUrlMap)}\n${section}${summary ? `   ${summary}\n` : ''}`);
      });
      const shown = r.hits.length ? `hits ${r.start + 1}-${r.start + r.hits.length}` : 'no hits';
      const hidden = r.hidden ? `, ${r.hidden} more from sites already shown (-hitsPerSite 0)` : '';
      ctx.out.write(`search: ${shown} of ${totalText(r)} for "${r.raw}" in ${r.ms.toFixed(1)} ms${hidden}\n`);
      const respelled = didYouMean(snap, r);
      if (respelled) ctx.out.write(`search: did you mean "${respelled.query}"?\n`);
      return 0;
    } finally {
      lease.release();
      snapshots.close();
    }
  },
};
