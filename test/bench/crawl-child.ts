/**
 * One measured run of the crawl benchmark, in its own process so its peak
 * RSS is its own: `tsx test/bench/crawl-child.ts '<json>'` prints one JSON
 * line with the figures.
 *
 * - `{"mode":"bare","origins":[…],"pages":n}`: the floor any crawler stands
 *   on — one keep-alive connection per host, undici `request` for every page
 *   (decompressed when the server compressed it, as a crawler must) and
 *   htmlparser2 pulling out and resolving each link; nothing stored. With
 *   `"urls":[[…],…]` (a list per host) it fetches those instead of the
 *   generated web's pages.
 * - `{"mode":"crawl","origins":[…],"pages":n,"dir":"…","depth":d}`: the
 *   one-shot crawl as `hazelnut crawl` runs it, seeded with every host's `/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Parser } from 'htmlparser2';
import { Agent, interceptors, request } from 'undici';
import { crawl, crawlConf } from '../../crawler/crawl.js';
import { PACKAGE_CONF_DIR } from '../../shared/conf.js';
import { Log } from '../../crawler/log.js';
import { pagePath } from './crawl-web.js';
import { etaAccuracy, etaRecorder } from './fetch-eta.js';

interface Args {
  mode: 'bare' | 'crawl';
  origins: string[];
  pages: number;
  /** For the bare loop: the URLs to fetch, a list per host, instead of the generated web's pages. */
  urls?: string[][];
  dir?: string;
  depth?: number;
  /** -D properties for the crawl, to compare settings. */
  overrides?: Record<string, string>;
  /** Sample process.memoryUsage() every this many ms and report the sample of the highest RSS. */
  sampleMs?: number;
  /** Record the fetch's progress lines and report how close its ETA came (fetch-eta.ts). */
  eta?: boolean;
}

const args = JSON.parse(process.argv[2]!) as Args;

const DECODE: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync };

async function bare(): Promise<Record<string, number>> {
  const agent = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 10_000, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const dispatcher = agent.compose(interceptors.dns());
  let pages = 0;
  let links = 0;
  const t0 = performance.now();
  const lists = args.urls ?? args.origins.map((o) => Array.from({ length: args.pages }, (_, p) => o + pagePath(p)));
  await Promise.all(
    lists.map(async (urls) => {
      for (const url of urls) {
        const res = await request(url, { dispatcher, headers: { 'user-agent': 'HzBench/1.0', 'accept-encoding': 'gzip, deflate, br' } });
        const decode = DECODE[String(res.headers['content-encoding'] ?? '')];
        const html = decode ? decode(Buffer.from(await res.body.arrayBuffer())).toString('utf8') : await res.body.text();
        const found: string[] = [];
        new Parser(
          {
            onopentag(name, attrs) {
              if (name === 'a' && attrs.href) found.push(new URL(attrs.href, url).href);
            },
          },
          { decodeEntities: true },
        ).end(html);
        links += found.length;
        pages++;
      }
    }),
  );
  const ms = performance.now() - t0;
  await agent.close();
  return { pages, links, ms };
}

async function oneShot(): Promise<Record<string, unknown>> {
  const dir = args.dir!;
  const seeds = path.join(dir, 'seeds.txt');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(seeds, args.origins.map((o) => `${o}/\n`).join(''));
  const conf = crawlConf(PACKAGE_CONF_DIR, {
    'http.agent.name': 'HzBench',
    'fetcher.server.delay': '0',
    'fetcher.threads.per.host': '1',
    ...args.overrides,
  });
  const eta = args.eta ? etaRecorder() : undefined;
  const log = new Log({ tool: 'crawl', dir: path.join(dir, 'crawl', 'logs'), tty: eta !== undefined, err: eta?.stream });
  const sampler = args.sampleMs ? sampleMemory(args.sampleMs) : undefined;
  const t0 = performance.now();
  const s = await crawl(conf, { seeds, dir: path.join(dir, 'crawl'), depth: args.depth!, threads: args.origins.length, log });
  const ms = performance.now() - t0;
  log.close();
  return { ms, ...(sampler ? { sample: sampler() } : {}), ...(eta ? { eta: etaAccuracy(eta.readings) } : {}), phases: s.phases, peakRssMB: s.peakRssMB, fetched: s.byStatus.fetch_success ?? 0, documents: s.documents, segments: s.segments.length };
}

/**
 * Samples process.memoryUsage() every `ms` (as far as the main thread lets the timer run); returns a
 * stop function that gives the sample of the highest RSS (MB).
 */
function sampleMemory(ms: number): () => Record<string, number> {
  const mb = (n: number) => Math.round(n / 2 ** 20);
  let high: Record<string, number> = { rss: 0 };
  const t0 = performance.now();
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    if (mb(m.rss) > high.rss!)
      high = { atS: Math.round(performance.now() - t0) / 1000, rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed), arrayBuffers: mb(m.arrayBuffers) };
  }, ms);
  return () => {
    clearInterval(timer);
    return high;
  };
}

const result = args.mode === 'bare' ? await bare() : await oneShot();
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ ...result, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMB: process.resourceUsage().maxRSS / 1024 }) + '\n');
