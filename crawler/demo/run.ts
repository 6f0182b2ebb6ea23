/**
 * @module crawler/demo/run
 * `npm start`: serves the demo web (the Kestrel Labs intranet, four hosts on
 * loopback), crawls it with the one-shot `hazelnut crawl` into ./crawl-demo,
 * starts the searcher over the result and prints where to point a browser.
 * Every run starts from a fresh crawl directory, because a demo should show
 * the same thing every time. Ctrl-C (or SIGTERM) stops the searcher and the
 * demo web and exits 0; a child that dies takes everything down with exit 1.
 *
 *   npm start -- [-port <n>] [-host <address>] [-dir <crawl_dir>] [-ip <first demo web address>]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { intOption, parseArgs } from '../../shared/command.js';
import { DEMO_DEPTH } from './intranet.js';
import { DEFAULT_DEMO_IP, serveDemoWeb, type DemoWeb } from './serve.js';
import { crawlPaths } from '../../shared/crawl-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const USAGE = 'Usage: npm start -- [-port <n>] [-host <address>] [-dir <crawl_dir>] [-ip <first demo web address>]';
/** Marks a crawl directory this runner made, so a re-run may delete it and nothing else. */
const MARKER = '.hazelnut-demo';
const HEALTH_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;
/**
 * Ctrl-C reaches the children too (same process group), and their exit may be
 * seen before our own SIGINT handler runs: wait this long before calling a
 * child's exit unexpected.
 */
const SIGNAL_SETTLE_MS = 300;

/** Searches that show what the demo web holds, with what each should find. */
export const EXAMPLE_QUERIES: [query: string, why: string][] = [
  ['expense report receipts', 'the handbook expenses page (also served at a second address: one hit, not two)'],
  ['"exponential backoff" jitter', 'a phrase: the retry guide, the decision record and the blog post'],
  ['postgres disk', 'the wiki runbook and the incident review it came from'],
  ['how many vacation days do I get', 'the leave pages, which say "annual leave": the demo synonyms (crawler/demo/synonyms.txt)'],
  ['서울 사무소', 'the Seoul office page, written in Korean (try Urlaub for the German one)'],
  ['nightjar', 'nothing: it appears only in the wiki drafts, which robots.txt disallows'],
];

let stopping = false;
let child: ChildProcess | undefined;
let web: DemoWeb | undefined;
let wakeOnSignal: () => void = () => {};
const signalled = new Promise<void>((resolve) => (wakeOnSignal = resolve));

function exitOf(c: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) resolve(c.exitCode ?? 1);
    else c.once('exit', (code) => resolve(code ?? 1));
  });
}

/** The child's exit code, or -1 when a stop signal came first (or together with it). */
async function exitOrSignal(c: ChildProcess): Promise<number> {
  const code = await Promise.race([exitOf(c), signalled.then(() => -1)]);
  if (code !== -1) await new Promise((r) => setTimeout(r, SIGNAL_SETTLE_MS));
  return stopping ? -1 : code;
}

async function stopChild(): Promise<void> {
  const c = child;
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  c.kill('SIGTERM');
  const timer = setTimeout(() => c.kill('SIGKILL'), STOP_GRACE_MS);
  await exitOf(c);
  clearTimeout(timer);
}

async function shutdown(code: number, message?: string): Promise<never> {
  stopping = true;
  if (message) process.stderr.write(`demo: ${message}\n`);
  await stopChild();
  await web?.close();
  process.exit(code);
}

function onSignal(): void {
  if (stopping) return;
  stopping = true;
  process.stderr.write('\ndemo: stopping\n');
  wakeOnSignal();
}

/** A fresh crawl directory: one made by an earlier run is deleted, anything else is left alone. */
function prepareDir(dir: string): void {
  if (fs.existsSync(dir)) {
    if (fs.existsSync(path.join(dir, MARKER))) fs.rmSync(dir, { recursive: true, force: true });
    else if (fs.readdirSync(dir).length > 0)
      throw new Error(`${dir} exists and was not made by the demo; remove it or choose another with -dir`);
  }
  fs.mkdirSync(path.join(dir, 'urls'), { recursive: true });
  fs.writeFileSync(path.join(dir, MARKER), 'made by npm start; deleted and rebuilt on every run\n');
}

function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve(false) : reject(e)));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/** The asked port; without -port, the first free one from 8080 on. */
async function choosePort(host: string, asked: number | undefined): Promise<number> {
  if (asked !== undefined) {
    if (await portFree(host, asked)) return asked;
    throw new Error(`port ${asked} on ${host} is in use; choose another with -port`);
  }
  for (let p = 8080; p < 8100; p++) if (await portFree(host, p)) return p;
  throw new Error(`ports 8080-8099 on ${host} are all in use; choose one with -port`);
}

async function waitHealthy(url: string, c: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline && !stopping) {
    if (c.exitCode !== null || c.signalCode !== null) return false;
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return false;
}

function banner(url: string, dir: string, demo: DemoWeb): string {
  const hosts = demo.hosts.map((h) => `  ${h.host.title.padEnd(26)} ${h.origin}/`).join('\n');
  const queries = EXAMPLE_QUERIES.map(
    ([q, why]) => `  ${q}\n      ${why}\n      ${url}search?query=${encodeURIComponent(q)}`,
  ).join('\n');
  return `
hazelnut demo is ready: open ${url}

The demo web, an invented company intranet crawled into ${dir}:
${hosts}

Try these searches:
${queries}

Ctrl-C stops the searcher and the demo web.
`;
}

async function main(argv: string[]): Promise<void> {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let args;
  try {
    args = parseArgs(argv, { string: ['port', 'host', 'dir', 'ip'] });
    if (args._.length > 0) throw new Error(`unexpected argument ${args._[0]}`);
  } catch (e) {
    process.stderr.write(`demo: ${(e as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  const host = (args.host as string | undefined) ?? '127.0.0.1';
  const dir = path.resolve((args.dir as string | undefined) ?? 'crawl-demo');
  // Before the crawl, so a busy -port is said at once, not after a minute's crawl.
  const port = await choosePort(host, intOption(args.port, 'port'));

  web = await serveDemoWeb({ firstAddress: (args.ip as string | undefined) ?? DEFAULT_DEMO_IP });
  prepareDir(dir);
  const seedDir = path.join(dir, 'urls');
  fs.writeFileSync(path.join(seedDir, 'seed.txt'), web.hosts.map((h) => h.origin + '/').join('\n') + '\n');
  process.stderr.write(`demo: serving the demo web on ${web.hosts.map((h) => h.origin).join(' ')}; crawling it into ${dir}\n`);

  child = spawn(process.execPath, [
    path.join(ROOT, 'crawler/hazelnut.js'),
    '-D', 'http.agent.name=hazelnut-demo',
    '-D', 'fetcher.server.delay=0.05',
    'crawl', seedDir, '-dir', dir, '-depth', String(DEMO_DEPTH), '-threads', '8',
  ], { stdio: ['inherit', 'pipe', 'inherit'], cwd: ROOT });
  // The crawl's closing hint names the searcher's default address; the banner below gives the one this demo really got.
  child.stdout!.on('data', (d: Buffer) => process.stdout.write(d.toString().replace(/^Serve the result: .*\n/m, '')));
  const crawled = await exitOrSignal(child);
  if (crawled === -1) await shutdown(0);
  if (crawled !== 0) await shutdown(1, `the crawl failed (exit ${crawled}); see the messages above and ${crawlPaths(dir).logs}`);

  child = spawn(process.execPath, [
    path.join(ROOT, 'searcher/hazelnut-searcher.js'), '-D', `searcher.synonyms.file=${path.join(ROOT, 'crawler/demo/synonyms.txt')}`,
    '-dir', dir, '-port', String(port), '-host', host,
  ], { stdio: ['ignore', 'inherit', 'inherit'], cwd: ROOT });
  // The searcher's own messages (a port taken since the check above, a bad index) reach the terminal as it writes them, once.
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  if (!(await waitHealthy(url + 'healthz', child))) {
    await new Promise((r) => setTimeout(r, SIGNAL_SETTLE_MS));
    if (stopping) await shutdown(0);
    await shutdown(1, `the searcher did not come up on ${url}; see its message above`);
  }
  process.stdout.write(banner(url, dir, web));

  const code = await exitOrSignal(child);
  if (code === -1) await shutdown(0);
  await shutdown(1, `the searcher exited (code ${code}); see its message above`);
}

main(process.argv.slice(2)).catch((e: Error) => shutdown(1, e.message));
