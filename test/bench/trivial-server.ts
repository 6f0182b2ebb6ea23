/**
 * The search benchmarks' baseline server: a trivial hono `c.json` route on
 * @hono/node-server, as its own process like the searcher it is compared
 * with. Usage: node --import tsx trivial-server.ts <host>; prints its URL.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono().get('/', (c) => c.json({ ok: true }));
const server = createAdaptorServer({ fetch: app.fetch }) as Server;
server.listen(0, process.argv[2] ?? '127.0.0.1', () => {
  const a = server.address() as AddressInfo;
  process.stdout.write(`trivial route at http://${a.address}:${a.port}/\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
