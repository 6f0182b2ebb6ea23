/**
 * @module searcher/tools
 * The searcher's commands: `serve` (the HTTP searcher, also the
 * `hazelnut-searcher` program) and `search` (one query in the terminal,
 * through the same search and summary code as the server).
 * The primary of `-workers n` only forks: the index, search and HTTP code
 * (most of a process's start-up) load where they serve, so the workers
 * start without waiting for the primary to load what it never runs.
 */
import path from 'node:path';
import type { Conf } from '../shared/conf.js';
import { HzError, UsageError } from '../shared/errors.js';
import { intOption, parseArgs, type Tool, type ToolContext } from '../shared/command.js';
import type { RunningServer } from './server.js';
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
  const { startBroker, startSearcher } = await import('./server.js');
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
  run: async (ctx, args) => (await import('./search-tool.js')).searchInTerminal(ctx, args),
};
