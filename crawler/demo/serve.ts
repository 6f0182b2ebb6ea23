/**
 * @module crawler/demo/serve
 * Serves the demo web (crawler/demo/site/<host>/) on loopback, one address
 * per host: 127.0.10.1 for the handbook, .2 for the wiki and so on, all on
 * one fixed port so URLs stay the same from run to run. A taken port falls
 * back to an ephemeral one; a system where only 127.0.0.1 exists (macOS)
 * falls back to distinct ports on 127.0.0.1. Pages name hosts by their
 * invented origins (http://wiki.kestrel.test); responses rewrite those to the
 * real ones, so every link points where the host really listens.
 *
 *   npx tsx crawler/demo/serve.ts [-ip 127.0.10.1] [-port 8800]
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { intOption, parseArgs } from '../../shared/command.js';
import { authoredOrigin, DEMO_HOSTS, DEMO_REDIRECTS, type DemoHost } from './intranet.js';

export const DEMO_SITE_DIR = fileURLToPath(new URL('./site/', import.meta.url));
export const DEFAULT_DEMO_IP = '127.0.10.1';
export const DEFAULT_DEMO_PORT = 8800;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface DemoWebOptions {
  /** Address of the first host; the others follow in the last octet. @default 127.0.10.1 */
  firstAddress?: string;
  /** Port every host tries first; 0 for ephemeral. @default 8800 */
  port?: number;
  siteDir?: string;
}

export interface ServedHost {
  host: DemoHost;
  /** Where the host really listens, e.g. http://127.0.10.2:8800 */
  origin: string;
}

export interface DemoWeb {
  hosts: ServedHost[];
  /** The real URL of a host's home page, by key (`wiki`). */
  home(key: string): string;
  /** Turns an authored URL (http://wiki.kestrel.test/x) into the served one. */
  rewrite(text: string): string;
  close(): Promise<void>;
}

function nthAddress(first: string, n: number): string {
  const parts = first.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255) || parts[3]! + n > 254)
    throw new Error(`demo web: ${first} is not an IPv4 address with room for ${DEMO_HOSTS.length} hosts after it`);
  parts[3]! += n;
  return parts.join('.');
}

function listen(server: http.Server, port: number, address: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen(port, address, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Fixed port first, then an ephemeral one; 127.0.0.1 when the address does not exist here. */
async function bind(server: http.Server, port: number, address: string): Promise<AddressInfo> {
  try {
    return await listen(server, port, address);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' && port !== 0) return listen(server, 0, address);
    if (code === 'EADDRNOTAVAIL') return listen(server, 0, '127.0.0.1');
    throw e;
  }
}

/** Resolves a request path to a file under root, or null when it escapes root. */
export function fileFor(root: string, urlPath: string): string | null {
  let p: string;
  try {
    p = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (p.endsWith('/')) p += 'index.html';
  const file = path.resolve(root, '.' + p);
  return file.startsWith(root + path.sep) ? file : null;
}

function handler(root: string, host: DemoHost, web: () => DemoWeb): http.RequestListener {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const target = DEMO_REDIRECTS[host.key]?.[url.pathname];
    if (target) {
      res.writeHead(301, { Location: web().rewrite(authoredOrigin(host) + target), 'Content-Length': 0 }).end();
      return;
    }
    const file = fileFor(root, url.pathname);
    let stat: fs.Stats | undefined;
    try {
      stat = file ? fs.statSync(file) : undefined;
    } catch {
      stat = undefined;
    }
    if (!file || !stat?.isFile()) {
      const body = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1></body></html>\n';
      res.writeHead(404, { 'Content-Type': TYPES['.html']!, 'Content-Length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const modified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000);
    const since = Date.parse(req.headers['if-modified-since'] ?? '');
    if (!Number.isNaN(since) && modified.getTime() <= since) {
      res.writeHead(304, { 'Last-Modified': modified.toUTCString() }).end();
      return;
    }
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const body = type.startsWith('text/') ? Buffer.from(web().rewrite(fs.readFileSync(file, 'utf8'))) : fs.readFileSync(file);
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length, 'Last-Modified': modified.toUTCString() });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

export async function serveDemoWeb(opts: DemoWebOptions = {}): Promise<DemoWeb> {
  const siteDir = path.resolve(opts.siteDir ?? DEMO_SITE_DIR);
  const servers: http.Server[] = [];
  const hosts: ServedHost[] = [];
  const web: DemoWeb = {
    hosts,
    home: (key) => {
      const h = hosts.find((x) => x.host.key === key);
      if (!h) throw new Error(`demo web: no host ${key}`);
      return h.origin + '/';
    },
    rewrite: (text) => hosts.reduce((t, h) => t.replaceAll(authoredOrigin(h.host), h.origin), text),
    close: () =>
      Promise.all(
        servers.map((s) => new Promise<void>((resolve) => { s.close(() => resolve()); s.closeAllConnections(); })),
      ).then(() => undefined),
  };
  try {
    for (const [i, host] of DEMO_HOSTS.entries()) {
      const server = http.createServer(handler(path.join(siteDir, host.name), host, () => web));
      servers.push(server);
      const addr = await bind(server, opts.port ?? DEFAULT_DEMO_PORT, nthAddress(opts.firstAddress ?? DEFAULT_DEMO_IP, i));
      hosts.push({ host, origin: `http://${addr.address}:${addr.port}` });
    }
  } catch (e) {
    await web.close();
    throw e;
  }
  return web;
}

/** `tsx crawler/demo/serve.ts`: serve until Ctrl-C. */
async function serveFromCommandLine(argv: string[]): Promise<void> {
  const args = parseArgs(argv, { string: ['ip', 'port'] });
  const web = await serveDemoWeb({ firstAddress: args.ip as string | undefined, port: intOption(args.port, 'port') });
  for (const h of web.hosts) console.log(`${h.host.title.padEnd(26)} ${h.origin}/`);
  console.log('Serving the demo web; Ctrl-C stops it.');
  const stop = () => void web.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  serveFromCommandLine(process.argv.slice(2)).catch((e: Error) => {
    console.error(`demo web: ${e.message}`);
    process.exit(1);
  });
}
