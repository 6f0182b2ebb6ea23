/**
 * Search speed on real documentation: the devweb crawl (../shared/devweb,
 * 1,170 long pages, 60 judged queries). In process, after a warm-up pass:
 * search() alone and search + summaries + JSON (what /api/search does in
 * the server) per query, p50/p99 over 5 passes, beside search() scoring
 * every match (no pruning); the summaries of a page of
 * hits from stored word offsets beside a scan of the text and the whole
 * text, interleaved. Then `hazelnut-searcher` as its own process under
 * autocannon (16 connections, the 60 queries in turn at /api/search) beside
 * a trivial hono route in its own process, measured before and after it in
 * the same run, with each server's CPU time per request; then, apart, the
 * searcher as two worker processes behind its port (-workers 2).
 * The crawl is made in a temp dir, or reused from DEVWEB_CRAWL (a crawl
 * directory with a published index). Skipped, saying why, when devweb is not served.
 * Run: npm run bench -- search-devweb
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Conf } from '../../shared/conf.js';
import { hitDetails, type SummaryWords } from '../../searcher/details.js';
import { searchJson } from '../../searcher/http/api.js';
import { search, type SearchResult } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { startSearcher, startServer } from '../fixtures/searcher-process.js';
import { cannon, wholeMs as ms, type CannonResult } from './cannon.js';
import { crawlDevweb, DEVWEB_CRAWL_ARGS, devwebDir, devwebQueries, devwebUnavailable } from './ranking/devweb.js';
import type { BenchResult } from './run.js';

const HOST = '127.0.11.8';
const PASSES = 5;
const root = path.resolve(import.meta.dirname, '..', '..');

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const f2 = (x: number) => x.toFixed(2);

/** CPU time a process has used, ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** autocannon against a server process, with the server's CPU time per request. */
async function load(proc: ChildProcess, url: string, paths?: string[]): Promise<CannonResult & { cpuPerReq: number }> {
  const c0 = cpuMs(proc.pid);
  const r = await cannon(url, paths);
  return { ...r, cpuPerReq: (cpuMs(proc.pid) - c0) / (r.rps * 6) };
}

function stop(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

export default async function searchDevwebBench(): Promise<BenchResult> {
  const title = 'Search speed on devweb: latency and /api/search throughput';
  const dir = devwebDir();
  const reuse = process.env.DEVWEB_CRAWL;
  const why = reuse ? undefined : await devwebUnavailable(dir);
  if (why || !dir) return { title, markdown: `Skipped: ${why ?? 'no devweb folder (set DEVWEB_DIR)'}.` };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-search-devweb-'));
  const procs: ChildProcess[] = [];
  try {
    const crawlDir = reuse ?? (await crawlDevweb(tmp)).dir;
    const queries = devwebQueries(dir).map(({ q }) => q);
    const loadAvg = os.loadavg();

    // In process: the searcher's functions on the published index.
    const snaps = await CrawlSnapshots.open(crawlDir, searchSettings(Conf.load()));
    const snap = snaps.current;
    const docs = snap.reader.meta.docCount;
    const searchMs: number[] = [];
    const exhaustiveMs: number[] = [];
    const requestMs: number[] = [];
    const words: Record<SummaryWords, number[]> = { stored: [], scanned: [], whole: [] };
    try {
      for (const q of queries) JSON.stringify(searchJson(snap, search(snap, { query: q })));
      const results: SearchResult[] = [];
      for (let pass = 0; pass < PASSES; pass++)
        for (const q of queries) {
          const a = performance.now();
          const r = search(snap, { query: q });
          const b = performance.now();
          JSON.stringify(searchJson(snap, r));
          searchMs.push(b - a);
          requestMs.push(performance.now() - a);
          if (pass === 0) results.push(r);
          // The same search scoring every match, for the pruning's share.
          const c = performance.now();
          search(snap, { query: q }, { exhaustive: true });
          exhaustiveMs.push(performance.now() - c);
        }
      // Summaries of each page of hits three ways, the order rotated per page.
      const ways: SummaryWords[] = ['stored', 'scanned', 'whole'];
      for (let pass = 0; pass < 3; pass++)
        results.forEach((r, i) => {
          for (let k = 0; k < ways.length; k++) {
            const w = ways[(i + pass + k) % ways.length]!;
            const a = performance.now();
            for (const h of r.hits) hitDetails(snap, h, r, { words: w });
            words[w].push(performance.now() - a);
          }
        });
    } finally {
      snaps.close();
    }

    // Over HTTP: each server its own process, autocannon in this one.
    const trivial = await startServer(['--import', 'tsx', path.join(import.meta.dirname, 'trivial-server.ts'), HOST], root);
    procs.push(trivial.proc);
    const searcher = await startSearcher(['-dir', crawlDir, '-port', '0', '-host', HOST], root);
    procs.push(searcher.proc);
    const paths = queries.map((q) => `/api/search?query=${encodeURIComponent(q)}`);
    // One pass over the queries first, as in process: the server loads what it loads on first use.
    for (const p of paths) await (await fetch(searcher.base + p)).arrayBuffer();
    const before = await load(trivial.proc, `${trivial.base}/`);
    const api = await load(searcher.proc, searcher.base, paths);
    const after = await load(trivial.proc, `${trivial.base}/`);
    const base = (before.rps + after.rps) / 2;
    await stop(searcher.proc);
    // The second core: the same searcher as two worker processes behind its port (an addition, not the figure above).
    const two = await startSearcher(['-dir', crawlDir, '-port', '0', '-host', HOST, '-workers', '2'], root);
    procs.push(two.proc);
    for (let i = 0; i < 2; i++) for (const p of paths) await (await fetch(two.base + p)).arrayBuffer();
    const workers = await cannon(two.base, paths);

    const row = (what: string, xs: number[]) => `| ${what} | ${f2(pct(xs, 50))} | ${f2(pct(xs, 99))} | – | – | – |`;
    const http = (what: string, r: CannonResult & { cpuPerReq: number }, ratio: string) =>
      `| ${what} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.rps.toFixed(0)} | ${ratio} | ${f2(r.cpuPerReq)} |`;
    return {
      title,
      markdown: [
        `The devweb crawl (${docs.toLocaleString('en')} documents; \`node crawler/hazelnut.js ${DEVWEB_CRAWL_ARGS.join(' ')} <seeds> -dir <tmp> -depth 10\`${reuse ? ', reused' : ''}), its ${queries.length} queries as served (10 hits, searcher.hits.per.site).`,
        `In process: one warm-up pass, then ${PASSES} passes. Over HTTP: \`hazelnut-searcher -dir <crawl>\` and a trivial hono route each in its own process, autocannon (16 connections, 6 s, loopback ${HOST}) in the bench process, the trivial route measured before and after /api/search.`,
        '',
        '| what | p50 ms | p99 ms | req/s | vs trivial route | server CPU ms/request |',
        '|---|---|---|---|---|---|',
        row(`search() in process (${queries.length} queries × ${PASSES})`, searchMs),
        row('search() scoring every match (no pruning), the same passes', exhaustiveMs),
        row('search + summaries + JSON in process (what /api/search does in the server)', requestMs),
        row('summaries of a page of hits: stored word offsets', words.stored),
        row('summaries of a page of hits: the text scanned for the query words (before stored offsets)', words.scanned),
        row('summaries of a page of hits: the whole text analyzed', words.whole),
        http('trivial hono `c.json` route, before', before, '1'),
        http('trivial hono `c.json` route, after', after, '1'),
        http(`\`/api/search\`, the ${queries.length} queries in turn`, api, (api.rps / base).toFixed(3)),
        `| \`/api/search\`, \`-workers 2\` (two searcher processes behind the port; not the single-process figure) | ${ms(workers.p50)} | ${ms(workers.p99)} | ${workers.rps.toFixed(0)} | ${(workers.rps / base).toFixed(3)} | – |`,
        '',
        `Errors: ${before.errors + api.errors + after.errors + workers.errors}. Load average when the run began: ${loadAvg.map((x) => x.toFixed(1)).join(', ')} on ${os.cpus().length} cores (other work on the machine shares them; compare figures of one run). ` +
          'Server CPU per request is the server process\'s user + system time over the requests it answered, less sensitive to that load than req/s. Run: `npm run bench -- search-devweb` (`DEVWEB_CRAWL=<crawl dir>` reuses a crawl).',
      ].join('\n'),
    };
  } finally {
    await Promise.all(procs.map(stop));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
