/**
 * CPU of the crawl's fetch phase, thread by thread:
 * `tsx test/bench/fetch-cpu.ts [--against=<checkout>] [--rounds=2] [--hosts=20] [--pages=500] [--prof=<dir>]`.
 * Serves the crawl benchmark's web (crawl-web.ts) and runs the crawl's
 * rounds (inject, then generate, fetch and updatedb to the depth that
 * reaches every page) with this checkout's code and, interleaved, with
 * another's; each run is a process of its own. Per run it prints the fetch
 * phase's wall time and CPU a page (every thread of the process:
 * `process.cpuUsage()`), each thread's share (utime + stime from
 * /proc/self/task, Linux only), and the size of the segments. CPU a page is
 * the figure to compare on a shared machine: wall time moves with the load.
 * `--prof` writes each run's CPU profiles (`node --cpu-prof`, one a thread,
 * the whole run) under <dir>/run-<round>-<checkout index>.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { roundsToReach } from './crawl-web.js';

interface Run {
  pages: number;
  fetchMs: number;
  cpuMsPerPage: number;
  threadsMsPerPage: Record<string, number>;
  segmentsMB: number;
}

const CHILD = '--child=';

/** CPU milliseconds of each thread of this process, by thread id. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  const tick = 1000 / 100; // USER_HZ
  for (const t of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(t, (Number(f[11]) + Number(f[12])) * tick);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

function du(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? du(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size;
  return n;
}

/** One run in this process: the crawl's rounds with the code of `checkout`, the fetch phase measured. */
async function child(a: { checkout: string; origins: string[]; dir: string; depth: number }): Promise<Run> {
  // The first of a module's paths the checkout has: older checkouts lay the crawler out otherwise.
  const load = (files: string | string[]) => {
    const paths = ([] as string[]).concat(files);
    return import(path.join(a.checkout, paths.find((f) => fs.existsSync(path.join(a.checkout, f))) ?? paths[0]!));
  };
  if (fs.existsSync(path.join(a.checkout, 'crawler/builtins.ts'))) await load('crawler/builtins.ts');
  const [crawlM, fetchM, confM, injectM, generateM, updatedbM, pluginsM, layoutM] = await Promise.all(
    [
      'crawler/crawl.ts',
      'crawler/fetch/tool.ts',
      'shared/conf.ts',
      'crawler/inject.ts',
      'crawler/generate.ts',
      'crawler/updatedb/tool.ts',
      ['crawler/plugin/chains.ts', 'crawler/plugins.ts'],
      ['shared/crawl-dir.ts', 'shared/layout.ts'],
    ].map(load),
  );
  fs.mkdirSync(a.dir, { recursive: true });
  const seedsFile = path.join(a.dir, 'seeds.txt');
  fs.writeFileSync(seedsFile, a.origins.map((o) => `${o}/\n`).join(''));
  const seeds = injectM.readSeeds(seedsFile);
  const conf = crawlM.scopeToSeedHosts(crawlM.crawlConf(confM.PACKAGE_CONF_DIR, { 'http.agent.name': 'HzBench', 'fetcher.server.delay': '0', 'fetcher.threads.per.host': '1' }), seeds);
  const writers = fetchM.parseThreads(conf);
  const plugins = await pluginsM.loadCrawlerPlugins(conf);
  const { segments, webdb } = layoutM.crawlPaths(path.join(a.dir, 'crawl'));
  await injectM.inject(conf, { webdb, seeds, plugins });
  const threads = new Map<string, number>();
  let fetchMs = 0;
  let cpuMs = 0;
  let pages = 0;
  for (let d = 0; d < a.depth; d++) {
    const g = await generateM.generate(conf, webdb, segments, {});
    if (g.nothingDue) break;
    for (const seg of g.segments as string[]) {
      const before = threadCpu();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const f = await fetchM.fetch(conf, seg, { threads: a.origins.length, deferOnAbort: true, writers });
      fetchMs += performance.now() - t0;
      const c = process.cpuUsage(c0);
      cpuMs += (c.user + c.system) / 1000;
      for (const [t, ms] of threadCpu()) threads.set(t, (threads.get(t) ?? 0) + ms - (before.get(t) ?? 0));
      pages += f.byStatus.fetch_success ?? 0;
      await updatedbM.updatedb(conf, { webdb, segments: [seg], normalize: true, filter: true, plugins });
    }
  }
  await writers?.close();
  const named = [...threads].filter(([, ms]) => ms > 0).sort((x, y) => y[1] - x[1]);
  return {
    pages,
    fetchMs,
    cpuMsPerPage: cpuMs / pages,
    threadsMsPerPage: Object.fromEntries(named.map(([t, ms]) => [Number(t) === process.pid ? 'main' : `thread ${t}`, ms / pages])),
    segmentsMB: du(segments) / 1e6,
  };
}

function spawnChild<T>(file: string, arg: unknown, cwd: string, keep = false, flags: string[] = []): { result: Promise<T>; stop: () => void } {
  const p = spawn(process.execPath, [...flags, '--import', 'tsx', file, arg === undefined ? '' : typeof arg === 'string' ? arg : JSON.stringify(arg)], { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
  const result = new Promise<T>((resolve, reject) => {
    createInterface({ input: p.stdout! }).once('line', (l) => resolve(JSON.parse(l) as T));
    p.once('exit', (c) => reject(new Error(`${file} exited with ${c} before answering`)));
  });
  if (!keep) p.stdin!.end();
  return { result, stop: () => p.stdin!.end() };
}

async function main(): Promise<void> {
  const opt = (name: string, dflt: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
  const here = path.resolve(import.meta.dirname, '../..');
  const against = opt('against', '');
  const rounds = Number(opt('rounds', '2'));
  const hosts = Number(opt('hosts', '20'));
  const pages = Number(opt('pages', '500'));
  const prof = opt('prof', '');
  const web = spawnChild<{ origins: string[] }>(path.join(import.meta.dirname, 'crawl-web.ts'), { block: '127.0.17', hosts, pages }, here, true);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-fetch-cpu-'));
  try {
    const { origins } = await web.result;
    const checkouts = against ? [here, path.resolve(against)] : [here];
    console.log('| checkout | load | fetch ms/page (wall) | CPU ms/page, all threads | main | other threads (ms/page) | segments MB |');
    console.log('|---|---|---|---|---|---|---|');
    for (let r = 0; r < rounds; r++)
      for (const co of checkouts) {
        const dir = path.join(tmp, `run-${r}-${checkouts.indexOf(co)}`);
        const arg = CHILD + JSON.stringify({ checkout: co, origins, dir, depth: roundsToReach(pages) });
        const flags = prof ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(prof, `run-${r}-${checkouts.indexOf(co)}`)}`] : [];
        const run = await spawnChild<Run>(path.join(import.meta.dirname, 'fetch-cpu.ts'), arg, co, false, flags).result;
        fs.rmSync(dir, { recursive: true, force: true });
        const { main: mainMs, ...others } = run.threadsMsPerPage;
        const other = Object.values(others).filter((ms) => ms >= 0.005).map((ms) => ms.toFixed(3));
        console.log(
          `| ${co} | ${os.loadavg()[0]!.toFixed(1)} | ${(run.fetchMs / run.pages).toFixed(3)} | **${run.cpuMsPerPage.toFixed(3)}** | ${(mainMs ?? 0).toFixed(3)} | ${other.join(', ')} | ${run.segmentsMB.toFixed(0)} |`,
        );
      }
  } finally {
    web.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const childArg = process.argv.find((a) => a.startsWith(CHILD));
if (childArg) process.stdout.write(JSON.stringify(await child(JSON.parse(childArg.slice(CHILD.length)))) + '\n');
else await main();
