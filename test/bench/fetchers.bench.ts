/**
 * Many fetchers: pages/s as the number of fetcher processes N grows (1, 2, 4)
 * on a loopback web of many hosts (crawl-web.ts's pages, served by this
 * process, which otherwise only waits), once answering at once and once
 * 100 ms after each request, as hosts across a network would. Two measures
 * per N, each in fresh directories: the one-shot
 * `hazelnut crawl -fetchers N` (N = 1: the default crawl, fetching in its own
 * process), whole crawl and its fetch phase; and the fetch step alone — every
 * page injected, `generate -numFetchers N`, then N `hazelnut fetch <segment>`
 * processes started at once, each bound to a loopback address of its own
 * (http.bind.address), timed from their start to the last one's exit.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { page, pagePath, roundsToReach } from './crawl-web.js';

const HOSTS = 40;
const PAGES = 60;
const FETCHERS = [1, 2, 4];
const LATENCIES = [0, 100];
const THREADS = 10;
const root = path.resolve(import.meta.dirname, '..', '..');
const HAZELNUT = path.join(root, 'crawler', 'hazelnut.js');
const CONF = ['-D', 'http.agent.name=HzBench', '-D', 'fetcher.server.delay=0', '-D', 'fetcher.threads.per.host=1'];

/** The web: one server per host on 127.0.16.<n>, each answer `latencyMs` after its request. */
export async function startWeb(latencyMs: number): Promise<{ origins: string[]; stop: () => void }> {
  const origins: string[] = [];
  const servers = await Promise.all(
    Array.from({ length: HOSTS }, (_, h) => {
      const server = http.createServer((req, res) => {
        const url = req.url ?? '/';
        const m = url === '/' ? ['', '0'] : /^\/doc\/(\d+)\.html$/.exec(url);
        const p = m ? Number(m[1]) : -1;
        const answer = () =>
          p < 0 || p >= PAGES
            ? res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
            : res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(h, p, HOSTS, PAGES, origins));
        if (latencyMs > 0) setTimeout(answer, latencyMs);
        else answer();
      });
      server.keepAliveTimeout = 30_000;
      return new Promise<http.Server>((resolve) => server.listen(0, `127.0.16.${h + 1}`, () => resolve(server)));
    }),
  );
  for (const s of servers) origins.push(`http://${(s.address() as AddressInfo).address}:${(s.address() as AddressInfo).port}`);
  return { origins, stop: () => servers.forEach((s) => (s.closeAllConnections(), s.close())) };
}

export function hazelnut(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [HAZELNUT, ...CONF, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (b) => (out += b));
    p.stderr.on('data', (b) => (err = (err + b).slice(-4000)));
    p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`hazelnut ${args.join(' ')} exited with ${code}\n${err}`))));
  });
}

async function crawlRun(origins: string[], n: number, tmp: string) {
  const dir = fs.mkdtempSync(path.join(tmp, `crawl-${n}-`));
  const seeds = path.join(tmp, 'seeds-home.txt');
  fs.writeFileSync(seeds, origins.map((o) => `${o}/\n`).join(''));
  const t0 = performance.now();
  const out = await hazelnut(['crawl', seeds, '-dir', dir, '-depth', String(roundsToReach(PAGES)), '-threads', String(THREADS), ...(n > 1 ? ['-fetchers', String(n)] : [])]);
  const ms = performance.now() - t0;
  const pages = Number(/pages fetched +(\d+)/.exec(out)?.[1]);
  const fetchS = Number(/time per phase .*?fetch ([\d.]+) s/.exec(out)?.[1]);
  if (pages !== HOSTS * PAGES) throw new Error(`crawl -fetchers ${n}: ${pages} pages fetched, expected ${HOSTS * PAGES}\n${out}`);
  return { pages, ms, fetchMs: fetchS * 1000 };
}

/**
 * The fetch step alone: `pages` pages of every host injected, generated into
 * n partitions, fetched by n processes on addresses of their own (`defines`: more -D options).
 */
export async function fetchRun(origins: string[], n: number, tmp: string, pages = PAGES, defines: string[] = []) {
  const dir = fs.mkdtempSync(path.join(tmp, `fetch-${n}-`));
  const seeds = path.join(tmp, `seeds-${pages}.txt`);
  fs.writeFileSync(seeds, origins.flatMap((o) => Array.from({ length: pages }, (_, p) => `${o}${pagePath(p)}`)).join('\n') + '\n');
  await hazelnut([...defines, 'inject', path.join(dir, 'webdb'), seeds]);
  await hazelnut([...defines, 'generate', path.join(dir, 'webdb'), path.join(dir, 'segments'), ...(n > 1 ? ['-numFetchers', String(n)] : [])]);
  const segment = path.join(dir, 'segments', fs.readdirSync(path.join(dir, 'segments'))[0]!);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, (_, i) => hazelnut([...defines, '-D', `http.bind.address=127.0.61.${i + 1}`, 'fetch', segment, '-threads', String(THREADS)])));
  const ms = performance.now() - t0;
  return { pages: origins.length * pages, ms };
}

interface Row {
  latencyMs: number;
  n: number;
  crawl: Awaited<ReturnType<typeof crawlRun>>;
  fetch: Awaited<ReturnType<typeof fetchRun>>;
}

export default async function bench(): Promise<{ title: string; markdown: string }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-fetchers-'));
  const rows: Row[] = [];
  const loadBefore = os.loadavg()[0]!;
  try {
    for (const latencyMs of LATENCIES) {
      const web = await startWeb(latencyMs);
      try {
        for (const n of FETCHERS) {
          process.stderr.write(`  ${latencyMs} ms, ${n} fetchers: crawl …\n`);
          const crawl = await crawlRun(web.origins, n, tmp);
          process.stderr.write(`  ${latencyMs} ms, ${n} fetchers: fetch step …\n`);
          const fetch = await fetchRun(web.origins, n, tmp);
          process.stderr.write(`  ${latencyMs} ms, ${n} fetchers: ${JSON.stringify({ crawl, fetch })}\n`);
          rows.push({ latencyMs, n, crawl, fetch });
        }
      } finally {
        web.stop();
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const rate = (pages: number, ms: number) => (pages * 1000) / ms;
  const f = (x: number) => x.toFixed(1);
  const lines = [
    `Loopback web of ${HOSTS} hosts × ${PAGES} pages (${HOSTS * PAGES} pages, 10–20 KB each), \`fetcher.server.delay\` 0, one connection per host, ${THREADS} threads per fetcher.`,
    'Each fetcher is a process of its own; the web is served by the benchmark process on the same cores. Ratios are against N = 1 at the same answer time, in the same run.',
    `Load average (1 min) on the ${os.cpus().length} cores: ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end.`,
    '',
    '| answer time | fetchers N | crawl pages/s (whole) | × N = 1 | crawl fetch phase pages/s | × N = 1 | fetch step pages/s (own addresses) | × N = 1 |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const base = rows.find((b) => b.latencyMs === r.latencyMs && b.n === 1)!;
      const c = rate(r.crawl.pages, r.crawl.ms);
      const cf = rate(r.crawl.pages, r.crawl.fetchMs);
      const fs_ = rate(r.fetch.pages, r.fetch.ms);
      return (
        `| ${r.latencyMs} ms | ${r.n} | ${f(c)} | ${(c / rate(base.crawl.pages, base.crawl.ms)).toFixed(2)}× | ${f(cf)} | ` +
        `${(cf / rate(base.crawl.pages, base.crawl.fetchMs)).toFixed(2)}× | ${f(fs_)} | ${(fs_ / rate(base.fetch.pages, base.fetch.ms)).toFixed(2)}× |`
      );
    }),
    '',
    'The crawl: `hazelnut crawl <home pages> -depth 3 -threads 10 [-fetchers N]`; its fetch phase includes starting the fetcher processes (each loads the',
    'TypeScript sources) and the inline parse. The fetch step: `hazelnut generate <webdb> <segments> -numFetchers N`, then N × `hazelnut -D http.bind.address=127.0.61.<i> fetch <segment> -threads 10`',
    'started together, timed until the last exits (process start included). Command: `npm run bench -- fetchers`.',
  ];
  return { title: 'Many fetchers: pages/s with N fetcher processes', markdown: lines.join('\n') };
}
