/**
 * @module searcher/server
 * Runs the searcher: opens the crawl's current index, watches for a newly
 * published one, and serves the hono app through @hono/node-server. Closing
 * stops accepting connections, lets requests in flight finish, then closes
 * the index. A port already taken is a user error with a clear message.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Conf } from '../shared/conf.js';
import { HzError } from '../shared/errors.js';
import { crawlPaths } from '../shared/crawl-dir.js';
import type { Broker } from './broker/broker.js';
import { createApp } from './http/app.js';
import { loadBrand, useBrand } from './http/brand.js';
import { searchSettings } from './settings.js';
import { CrawlSnapshots, indexSource } from './snapshot.js';

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  /** Messages about index switches and failures. */
  log?: (line: string) => void;
  /** The index directory to serve instead of `<dir>/index` (a shard's, from `merge -shards`). */
  index?: string;
  /** Also answers a broker's calls (`-shard`). */
  shard?: boolean;
}

export interface RunningSearcher extends RunningServer {
  snapshots: CrawlSnapshots;
  /** The commonest term's warm-up after the start (searcher/warm.ts warmCommonest): resolves when it is done or stopped. */
  warming: Promise<void>;
}

/** How long close() waits for slow requests before cutting their connections. */
const DRAIN_MS = 5000;

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (e.code === 'EADDRINUSE')
        reject(new HzError('HZ_ERR_PORT_IN_USE', `port ${port} on ${host} is already in use (another searcher?): stop that process, or pick a free port with -port <n>`));
      else if (e.code === 'EACCES')
        reject(new HzError('HZ_ERR_PORT_IN_USE', `not allowed to listen on port ${port} on ${host}: ports below 1024 need privileges; pick another with -port <n>`));
      else if (e.code === 'EADDRNOTAVAIL')
        reject(new HzError('HZ_ERR_PORT_IN_USE', `${host} is not an address of this machine: pick another with -host <address>`));
      else reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  /** Stops accepting, waits for requests in flight, then runs the server's own closing. */
  close(): Promise<void>;
}

/** Serves `fetch` on host:port; `onClose` runs once requests in flight are done. */
export async function serveHttp(fetch: (req: Request) => Response | Promise<Response>, port: number, host: string, onClose: () => void): Promise<RunningServer> {
  checkPort(port);
  const server = createAdaptorServer({ fetch }) as Server;
  await listen(server, port, host);
  const addr = server.address() as AddressInfo;
  const hostPart = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostPart}:${addr.port}`,
    host: addr.address,
    port: addr.port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS).unref();
        server.close(() => {
          clearTimeout(force);
          onClose();
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

/** A bad port fails before anything is opened. */
export function checkPort(port: number): void {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new HzError('HZ_ERR_USAGE', `-port must be 0–65535, not ${port}`, { exitCode: 2 });
}

export async function startSearcher(conf: Conf, opts: ServeOptions): Promise<RunningSearcher> {
  checkPort(opts.port);
  useBrand(loadBrand(conf));
  const snapshots = await CrawlSnapshots.open(opts.dir, searchSettings(conf), indexSource(opts.index));
  snapshots.onSwitch = (s) => opts.log?.(`switched to index ${s.version} (${s.reader.meta.docCount} documents)`);
  snapshots.onError = (e) => opts.log?.(`a new index could not be opened, still serving the old one: ${(e as Error).message}`);
  snapshots.onSegmentProblem = (message) => opts.log?.(message);
  const app = createApp({ snapshots, reportFile: crawlPaths(opts.dir).report, shard: opts.shard });
  let running: RunningServer;
  try {
    running = await serveHttp(app.fetch, opts.port, opts.host, () => snapshots.close());
  } catch (e) {
    snapshots.close();
    throw e;
  }
  snapshots.watch();
  // Only a speed-up: a query meanwhile works the same numbers out itself, and would meet the same failure.
  const warming = snapshots.warmAfterStart().catch((e) => opts.log?.(`could not warm the commonest term: ${(e as Error).message}`));
  return { ...running, snapshots, warming };
}

export interface BrokerOptions {
  /** The shard searchers, `host:port` each, or a shard's replicas as `host:port|host:port`. */
  shards: string[];
  port: number;
  host: string;
}

/**
 * A broker over shard searchers (`-shards host:port,...`); it opens nothing, so it starts while shards are down.
 * Its code (and its HTTP client, undici, some 55 ms of a start) loads only here: a searcher never calls shards.
 */
export async function startBroker(conf: Conf, opts: BrokerOptions): Promise<RunningServer & { broker: Broker }> {
  checkPort(opts.port);
  useBrand(loadBrand(conf));
  if (!opts.shards.length) throw new HzError('HZ_ERR_USAGE', '-shards needs at least one host:port', { exitCode: 2 });
  const [{ Broker }, { createBrokerApp }, { ReplicaSet }] = await Promise.all([import('./broker/broker.js'), import('./broker/broker-routes.js'), import('./broker/replicas.js')]);
  const timeout = conf.getDuration('searcher.shards.timeout', 'ms');
  const clients = opts.shards.map((spec) => {
    try {
      return new ReplicaSet(spec.split('|').map((r) => r.trim()), timeout);
    } catch (e) {
      throw new HzError('HZ_ERR_USAGE', `-shards: ${(e as Error).message}`, { exitCode: 2 });
    }
  });
  const broker = new Broker(clients, searchSettings(conf));
  return { ...(await serveHttp(createBrokerApp(broker).fetch, opts.port, opts.host, () => {})), broker };
}
