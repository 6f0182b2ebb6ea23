/**
 * Search speed on real documentation: the devweb crawl (../shared/devweb,
 * 1,170 long pages, 60 judged queries). In process, after warm-up passes:
 * search() alone and search + summaries + JSON (what /api/search does in
 * the server) per query, p50/p99 over 5 passes, beside search() scoring
 * every match (no pruning); the summaries of a page of
 * hits from stored word offsets beside a scan of the text and the whole
 * text, interleaved. Then `hazelnut-searcher` as its own process under
 * autocannon (16 connections, the 60 queries in turn at /api/search) beside
 * a trivial hono route in its own process, measured before and after it in
 * the same run, with each server's CPU time per request, each searcher
 * process first warmed by WARM_REQUESTS requests; then, apart, the
 * searcher as two worker processes behind its port (-workers 2), their CPU
 * summed. Each over HTTP again under wrk, when installed, a process of its
 * own that takes less of the cores than autocannon in this one. With
 * SEARCH_BASELINE (another checkout), that checkout's searcher beside this
 * one's, alternating, over HTTP and in process.
 * The crawl is made in a temp dir, or reused from DEVWEB_CRAWL (a crawl
 * directory with a published index). Skipped, saying why, when devweb is not served.
 * Run: npm run bench -- search-devweb
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Conf } from '../../shared/conf.js';
import { hitDetails, type SummaryWords } from '../../searcher/details.js';
import { searchJson } from '../../searcher/http/api.js';
import { search, type SearchResult } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { startSearcher, startServer } from '../fixtures/searcher-process.js';
import { cannon, wholeMs as ms, wrk, wrkMissing, type CannonResult } from './cannon.js';
import { crawlDevweb, DEVWEB_CRAWL_ARGS, devwebDir, devwebQueries, devwebUnavailable } from './ranking/devweb.js';
import type { BenchResult } from './run.js';

const HOST = '127.0.11.8';
const PASSES = 5;
/** Passes over the queries before the in-process passes are timed. */
const WARM_PASSES = 10;
/**
 * Requests a searcher process answers before it is measured: V8 compiles the
 * code as it runs, and over about the first 3,000 requests the server's CPU a
 * request falls by a quarter or more (its compiler threads busy meanwhile).
 * Measured after, a searcher is as it is once it has run a while; the CPU of
 * the warm-up requests is reported beside.
 */
const WARM_REQUESTS = 3000;
const root = path.resolve(import.meta.dirname, '..', '..');

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const f2 = (x: number) => x.toFixed(2);

/** CPU time a process and its child processes (a searcher's workers) have used, ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 + children.reduce((sum, c) => sum + cpuMs(Number(c)), 0);
  } catch {
    return NaN;
  }
}

/** WARM_REQUESTS a process (`workers` of them behind the port), 8 in flight; the server's CPU time per request over them. */
async function warmUp(proc: ChildProcess, base: string, paths: string[], workers = 1): Promise<number> {
  const c0 = cpuMs(proc.pid);
  await requests(base, paths, WARM_REQUESTS * workers, 8);
  return (cpuMs(proc.pid) - c0) / (WARM_REQUESTS * workers);
}

type Loaded = CannonResult & { cpuPerReq: number };

/** A load generator (autocannon by default) against a server process, with the server's CPU time per request. */
async function load(proc: ChildProcess, url: string, paths?: string[], generator = cannon): Promise<Loaded> {
  const c0 = cpuMs(proc.pid);
  const r = await generator(url, paths);
  return { ...r, cpuPerReq: (cpuMs(proc.pid) - c0) / r.requests };
}

/** CPU time of this process, ms. */
const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const median = (xs: number[]) => pct(xs, 50);

/** `n` requests for `paths` in turn, `inFlight` at a time; resolves when all are answered. */
async function requests(base: string, paths: string[], n: number, inFlight: number): Promise<void> {
  let i = 0;
  const worker = async () => {
    while (i < n) await (await fetch(base + paths[i++ % paths.length]!)).arrayBuffer();
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

const AB_ROUNDS = 5;
const AB_REQUESTS = 600;
/** In-process passes of the queries a side: under other work on the machine, ten passes left ±10 % between runs. */
const AB_PASSES = 40;

/** Medians of each side, and the median of the ratios of the rounds taken side by side (steadier under load than the ratio of the medians). */
function compared([base, mine]: number[][]): [number, number, number] {
  return [median(base!), median(mine!), median(mine!.map((x, i) => x / base![i]!))];
}

/**
 * This checkout's searcher beside another checkout's (`SEARCH_BASELINE`), on
 * the same crawl, in one run: over HTTP, each server's CPU per request over
 * AB_REQUESTS requests 8 in flight, the two alternating AB_ROUNDS times;
 * in process, each one's search() and search + summaries + JSON, CPU per
 * query over AB_PASSES passes of the queries, alternating (`compared`).
 */
async function versusBaseline(baseline: string, crawlDir: string, queries: string[], paths: string[], procs: ChildProcess[]) {
  const servers: { proc: ChildProcess; base: string }[] = [];
  for (const tree of [baseline, root]) {
    const s = await startServer([path.join(tree, 'searcher', 'hazelnut-searcher.js'), '-dir', crawlDir, '-port', '0', '-host', HOST, '-workers', '1'], tree);
    procs.push(s.proc);
    servers.push(s);
    await warmUp(s.proc, s.base, paths);
  }
  const http: number[][] = [[], []];
  for (let round = 0; round < AB_ROUNDS; round++)
    for (const k of round % 2 ? [1, 0] : [0, 1]) {
      const c0 = cpuMs(servers[k]!.proc.pid);
      await requests(servers[k]!.base, paths, AB_REQUESTS, 8);
      http[k]!.push((cpuMs(servers[k]!.proc.pid) - c0) / AB_REQUESTS);
    }
  await Promise.all(servers.map((s) => stop(s.proc)));

  const sides = [];
  for (const tree of [baseline, root]) {
    const mod = (file: string) => import(pathToFileURL(path.join(tree, file)).href);
    const [{ Conf: C }, { searchSettings: settings }, { CrawlSnapshots: Snaps }, { search: run }, { searchJson: json }] = await Promise.all(
      ['shared/conf.ts', 'searcher/settings.ts', 'searcher/snapshot.ts', 'searcher/search.ts', 'searcher/http/api.ts'].map(mod),
    );
    const snaps = await Snaps.open(crawlDir, settings(C.load()));
    sides.push({ snaps, search: (q: string) => run(snaps.current, { query: q }), json: (q: string) => JSON.stringify(json(snaps.current, run(snaps.current, { query: q }))) });
  }
  const inProcess = { search: [[], []] as number[][], json: [[], []] as number[][] };
  try {
    for (let pass = 0; pass < AB_PASSES; pass++)
      for (const k of pass % 2 ? [1, 0] : [0, 1])
        for (const what of ['search', 'json'] as const) {
          const c0 = ownCpuMs();
          for (const q of queries) sides[k]![what](q);
          inProcess[what][k]!.push((ownCpuMs() - c0) / queries.length);
        }
  } finally {
    for (const s of sides) s.snaps.close();
  }
  return { http: compared(http), search: compared(inProcess.search), json: compared(inProcess.json) };
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
    // CPU time of this process per query, beside the wall-clock percentiles (less sensitive to other work on the machine).
    const cpu = { search: 0, exhaustive: 0, request: 0 };
    const words: Record<SummaryWords, number[]> = { stored: [], scanned: [], whole: [] };
    try {
      for (let pass = 0; pass < WARM_PASSES; pass++) for (const q of queries) JSON.stringify(searchJson(snap, search(snap, { query: q })));
      const results: SearchResult[] = [];
      for (let pass = 0; pass < PASSES; pass++)
        for (const q of queries) {
          const [a, ca] = [performance.now(), ownCpuMs()];
          const r = search(snap, { query: q });
          const [b, cb] = [performance.now(), ownCpuMs()];
          JSON.stringify(searchJson(snap, r));
          searchMs.push(b - a);
          requestMs.push(performance.now() - a);
          cpu.search += cb - ca;
          cpu.request += ownCpuMs() - ca;
          if (pass === 0) results.push(r);
          // The same search scoring every match, for the pruning's share.
          const [c, cc] = [performance.now(), ownCpuMs()];
          search(snap, { query: q }, { exhaustive: true });
          exhaustiveMs.push(performance.now() - c);
          cpu.exhaustive += ownCpuMs() - cc;
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
    const searcher = await startSearcher(['-dir', crawlDir, '-port', '0', '-host', HOST, '-workers', '1'], root);
    procs.push(searcher.proc);
    const paths = queries.map((q) => `/api/search?query=${encodeURIComponent(q)}`);
    const cold = await warmUp(searcher.proc, searcher.base, paths);
    const before = await load(trivial.proc, `${trivial.base}/`);
    const api = await load(searcher.proc, searcher.base, paths);
    const after = await load(trivial.proc, `${trivial.base}/`);
    const base = (before.rps + after.rps) / 2;
    // The same with wrk, which leaves the server more of the cores than autocannon in this process.
    const noWrk = wrkMissing();
    const wrkApi = noWrk ? undefined : await load(searcher.proc, searcher.base, paths, wrk);
    const wrkTrivial = noWrk ? undefined : await load(trivial.proc, `${trivial.base}/`, undefined, wrk);
    await stop(searcher.proc);
    // The second core: the same searcher as two worker processes behind its port (the default on 2 cores: one a core).
    const two = await startSearcher(['-dir', crawlDir, '-port', '0', '-host', HOST, '-workers', '2'], root);
    procs.push(two.proc);
    const coldTwo = await warmUp(two.proc, two.base, paths, 2);
    const workers = await load(two.proc, two.base, paths);
    const wrkWorkers = noWrk ? undefined : await load(two.proc, two.base, paths, wrk);
    await stop(two.proc);
    const baseline = process.env.SEARCH_BASELINE;
    const ab = baseline ? await versusBaseline(path.resolve(baseline), crawlDir, queries, paths, procs) : undefined;

    const row = (what: string, xs: number[], cpuMs: number) => `| ${what} | ${f2(pct(xs, 50))} | ${f2(pct(xs, 99))} | – | – | ${Number.isNaN(cpuMs) ? '–' : f2(cpuMs / xs.length)} |`;
    const http = (what: string, r: Loaded, ratio: string) => `| ${what} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.rps.toFixed(0)} | ${ratio} | ${f2(r.cpuPerReq)} |`;
    return {
      title,
      markdown: [
        `The devweb crawl (${docs.toLocaleString('en')} documents; \`node crawler/hazelnut.js ${DEVWEB_CRAWL_ARGS.join(' ')} <seeds> -dir <tmp> -depth 10\`${reuse ? ', reused' : ''}), its ${queries.length} queries as served (10 hits, searcher.hits.per.site).`,
        `In process: ${WARM_PASSES} warm-up passes, then ${PASSES} passes. Over HTTP: \`hazelnut-searcher -dir <crawl>\` and a trivial hono route each in its own process, autocannon (16 connections, 6 s, loopback ${HOST}) in the bench process, the trivial route measured before and after /api/search; then the same with wrk (one thread, 16 connections, 6 s), a process of its own that takes less of the two cores than autocannon; each searcher process first answers ${WARM_REQUESTS.toLocaleString('en')} requests of the queries, 8 in flight (server CPU a request over them: ${f2(cold)} ms for one process, ${f2(coldTwo)} ms for two, against the figures below once warm).`,
        '',
        '| what | p50 ms | p99 ms | req/s | vs trivial route | server CPU ms/request |',
        '|---|---|---|---|---|---|',
        row(`search() in process (${queries.length} queries × ${PASSES})`, searchMs, cpu.search),
        row('search() scoring every match (no pruning), the same passes', exhaustiveMs, cpu.exhaustive),
        row('search + summaries + JSON in process (what /api/search does in the server)', requestMs, cpu.request),
        row('summaries of a page of hits: stored word offsets', words.stored, NaN),
        row('summaries of a page of hits: the text scanned for the query words (before stored offsets)', words.scanned, NaN),
        row('summaries of a page of hits: the whole text analyzed', words.whole, NaN),
        http('trivial hono `c.json` route, before', before, '1'),
        http('trivial hono `c.json` route, after', after, '1'),
        http(`\`/api/search\`, the ${queries.length} queries in turn, one process (\`-workers 1\`)`, api, (api.rps / base).toFixed(3)),
        http(`\`/api/search\`, \`-workers 2\` (two searcher processes behind the port, the default on 2 cores; ${(workers.rps / api.rps).toFixed(2)}× the one process's req/s)`, workers, (workers.rps / base).toFixed(3)),
        ...(wrkTrivial && wrkApi && wrkWorkers
          ? [
              http('wrk: trivial hono `c.json` route', wrkTrivial, '1'),
              http('wrk: `/api/search`, one process', wrkApi, (wrkApi.rps / wrkTrivial.rps).toFixed(3)),
              http(`wrk: \`/api/search\`, \`-workers 2\` (${(wrkWorkers.rps / wrkApi.rps).toFixed(2)}× one process)`, wrkWorkers, (wrkWorkers.rps / wrkTrivial.rps).toFixed(3)),
            ]
          : [`| wrk: skipped, ${noWrk} | – | – | – | – | – |`]),
        '',
        ...(ab
          ? [
              `Beside \`${path.basename(path.resolve(baseline!))}\` (\`SEARCH_BASELINE\`, another checkout on the same crawl), in this run: server CPU per request over ${AB_REQUESTS} requests of the queries, 8 in flight, the two servers alternating ${AB_ROUNDS} times; in process, CPU per query over ${AB_PASSES} alternating passes. Medians; the ratio is the median of the ratios of the rounds side by side.`,
              '',
              '| CPU ms | baseline | this checkout | ratio |',
              '|---|---|---|---|',
              ...(
                [
                  ['`/api/search`, server CPU per request', ab.http],
                  ['search() in process, per query', ab.search],
                  ['search + summaries + JSON in process, per query', ab.json],
                ] as const
              ).map(([what, [a, b, ratio]]) => `| ${what} | ${f2(a)} | ${f2(b)} | ${ratio.toFixed(2)} |`),
              '',
            ]
          : []),
        `Errors: ${[before, api, after, workers, wrkApi, wrkTrivial, wrkWorkers].reduce((n, r) => n + (r?.errors ?? 0), 0)}. Load average when the run began: ${loadAvg.map((x) => x.toFixed(1)).join(', ')} on ${os.cpus().length} cores (other work on the machine shares them; compare figures of one run). ` +
          'Server CPU per request is the server process\'s user + system time over the requests it answered, less sensitive to that load than req/s. Run: `npm run bench -- search-devweb` (`DEVWEB_CRAWL=<crawl dir>` reuses a crawl; `SEARCH_BASELINE=<checkout>` adds the comparison with another checkout, which needs its node_modules).',
      ].join('\n'),
    };
  } finally {
    await Promise.all(procs.map(stop));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
