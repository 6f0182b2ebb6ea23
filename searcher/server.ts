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
import { crawlPaths } from '../shared/layout.js';
import { createApp } from './http/app.js';
import { searchSettings } from './settings.js';
import { CrawlSnapshots } from './snapshot.js';

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  /** Messages about index switches and failures. */
  log?: (line: string) => void;
}

export interface RunningSearcher {
  url: string;
  host: string;
  port: number;
  snapshots: CrawlSnapshots;
  /** Stops accepting, waits for requests in flight, closes the index. */
  close(): Promise<void>;
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

export async function startSearcher(conf: Conf, opts: ServeOptions): Promise<RunningSearcher> {
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new HzError('HZ_ERR_USAGE', `-port must be 0–65535, not ${opts.port}`, { exitCode: 2 });
  const snapshots = await CrawlSnapshots.open(opts.dir, searchSettings(conf));
  snapshots.onSwitch = (s) => opts.log?.(`switched to index ${s.version} (${s.reader.meta.docCount} documents)`);
  snapshots.onError = (e) => opts.log?.(`a new index could not be opened, still serving the old one: ${(e as Error).message}`);
  const app = createApp({ snapshots, reportFile: crawlPaths(opts.dir).report });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  try {
    await listen(server, opts.port, opts.host);
  } catch (e) {
    snapshots.close();
    throw e;
  }
  snapshots.watch();
  const addr = server.address() as AddressInfo;
  const hostPart = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostPart}:${addr.port}`,
    host: addr.address,
    port: addr.port,
    snapshots,
    close() {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS).unref();
        server.close(() => {
          clearTimeout(force);
          snapshots.close();
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
