/**
 * The main job end to end: `hazelnut crawl` over a multi-host test web, then
 * `hazelnut-searcher` on the result, queried over HTTP; then a page changes and
 * a re-crawl on the same directory fetches only what is due (nothing), and,
 * once the changed page is forced due, that page alone — and the running
 * searcher serves its new text.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runBin } from '../fixtures/run-bin.js';
import { startSearcher } from '../fixtures/searcher-process.js';
import { startTestWeb, type TestWeb } from '../fixtures/testweb.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const HAZELNUT = path.join(root, 'crawler', 'hazelnut.js');
const SEARCHER = path.join(root, 'searcher', 'hazelnut-searcher.js');

async function api(base: string, query: string): Promise<{ total: number; hits: { url: string; title: string; summary: string }[] }> {
  const res = await fetch(`${base}/api/search?query=${encodeURIComponent(query)}`);
  assert.is(res.status, 200);
  return (await res.json()) as { total: number; hits: { url: string; title: string; summary: string }[] };
}

const page = (title: string, body: string, links: string[] = []) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p>${links
    .map((l) => `<a href="${l}">${l}</a>`)
    .join(' ')}</body></html>`;

let web: TestWeb;
let tmp: string;
let searcher: ChildProcess | undefined;

test.before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-crawl-'));
  web = await startTestWeb({
    block: '127.0.8',
    hosts: {
      handbook: {
        robots: 'User-agent: *\nDisallow: /private/\n',
        pages: {
          '/': page('Handbook home', 'Welcome to the handbook.', ['/leave.html', '/expenses.html', '/private/salaries.html']),
          '/leave.html': page('Parental leave', 'Parents receive sixteen weeks of paid parental leave.', ['/']),
          '/expenses.html': page('Expense reports', 'File your expense report within thirty days of travel.', ['/', '/old']),
          '/old': { status: 301, location: '/expenses.html' },
          '/private/salaries.html': page('Salaries', 'Confidential salary bands.'),
        },
      },
      wiki: {
        pages: {
          '/': page('Engineering wiki', 'Runbooks and design notes.', ['/deploy.html', '/missing.html']),
          '/deploy.html': page('Deploy process', 'Every deploy goes through the canary stage before production.', ['/']),
        },
      },
    },
  });
});

test.after(async () => {
  searcher?.kill('SIGTERM');
  await web.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('crawl, serve, change a page, re-crawl, and the searcher serves the new text', async () => {
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${web.url('handbook', '/')}\n${web.url('wiki', '/')}\n`);
  const dir = path.join(tmp, 'crawl');
  const common = ['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0.01'];

  const first = await runBin(HAZELNUT, [...common, 'crawl', seeds, '-dir', dir, '-depth', '3']);
  assert.is(first.code, 0, first.err);
  assert.match(first.out, /documents indexed\s+5/);
  // Each page once: 5 fetched, the 404 gone, the 301 redirected, the disallowed page robots-denied (not also gone).
  assert.match(first.out, /pages fetched\s+5 \(5 ok, 0 not modified\)/);
  assert.match(first.out, /gone\s+1\n/);
  assert.match(first.out, /redirected\s+1\n/);
  assert.match(first.out, /robots-denied\s+1\n/);
  assert.match(first.err, /crawl: details in .*crawl\.log/);
  assert.match(first.err, /crawl: round 1\/3: fetching 2 URLs from 2 hosts into \d{14}, about \d+ ms at 10 ms between requests to a host/);
  // Every write is in the files themselves, none left in a WAL: a copy of the .sqlite files alone is the whole crawl.
  const wals = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('-wal'));
  assert.equal(wals.filter((f) => fs.statSync(path.join(dir, f)).size > 0), []);
  // The log says what each round took, phase by phase.
  const log = fs.readFileSync(path.join(dir, 'logs', 'crawl.log'), 'utf8');
  const rounds = [...first.err.matchAll(/crawl: round (\d)\/3: fetching/g)].map((m) => m[1]);
  assert.equal([...log.matchAll(/crawl: round (\d)\/3 took \d+\.\d\d s: generate \d+\.\d\d s, fetch \d+\.\d\d s, updatedb \d+\.\d\d s\n/g)].map((m) => m[1]), rounds);
  assert.match(first.out, /Serve the result: hazelnut serve -dir/);
  assert.is(web.requestsTo('handbook', '/private/salaries.html').length, 0, 'robots.txt is obeyed');

  const s = await startSearcher(['-dir', dir, '-port', '0', '-host', '127.0.8.200'], root);
  searcher = s.proc;
  const leave = await api(s.base, 'parental leave');
  assert.is(leave.hits[0]?.url, web.url('handbook', '/leave.html'));
  assert.is(leave.hits[0]?.title, 'Parental leave');
  assert.match(leave.hits[0]!.summary, /sixteen weeks of paid/);
  const deploy = await api(s.base, 'canary');
  assert.equal(deploy.hits.map((h) => h.title), ['Deploy process']);
  assert.ok(
    (await api(s.base, 'salaries confidential')).hits.every((h) => !h.url.includes('/private/')),
    'a disallowed page is never indexed',
  );

  // Nothing is due: a re-crawl fetches no page.
  web.reset();
  const idle = await runBin(HAZELNUT, [...common, 'crawl', seeds, '-dir', dir, '-depth', '3']);
  assert.is(idle.code, 0, idle.err);
  assert.match(idle.out, /no more URLs to fetch: .*fetched recently/);
  assert.match(idle.out, /index unchanged\s+5 documents/);
  assert.not.match(idle.out, /documents indexed/);
  assert.equal(web.requests.filter((r) => !['/robots.txt', '/sitemap.xml'].includes(r.path)), []);

  // The page changes and is forced due: only it is fetched, and the searcher picks up the new index.
  web.setPage('wiki', '/deploy.html', page('Deploy process', 'Every deploy now goes through a blue-green switch.', ['/']));
  const changed = path.join(tmp, 'changed.txt');
  fs.writeFileSync(changed, `${web.url('wiki', '/deploy.html')}\n`);
  const inj = await runBin(HAZELNUT, [...common, 'inject', path.join(dir, 'webdb'), changed, '-overwrite']);
  assert.is(inj.code, 0, inj.err);
  assert.match(inj.out, /1 overwritten/);
  web.reset();
  const second = await runBin(HAZELNUT, [...common, 'crawl', seeds, '-dir', dir, '-depth', '3']);
  assert.is(second.code, 0, second.err);
  assert.equal(
    web.requests.filter((r) => !['/robots.txt', '/sitemap.xml'].includes(r.path)).map((r) => r.path),
    ['/deploy.html'],
  );

  let fresh = { total: 0, hits: [] } as Awaited<ReturnType<typeof api>>;
  for (let i = 0; i < 50 && fresh.total === 0; i++) {
    fresh = await api(s.base, 'blue-green');
    if (fresh.total === 0) await new Promise((r) => setTimeout(r, 200));
  }
  assert.is(fresh.hits[0]?.url, web.url('wiki', '/deploy.html'));
  assert.match(fresh.hits[0]!.summary, /blue-green switch/);
  assert.is((await api(s.base, 'canary')).total, 0, 'the old text is gone from the index');
});

test('a crawl without an agent name, or with a missing seed file, says what to do and writes nothing', async () => {
  const dir = path.join(tmp, 'crawl-bad');
  const noAgent = await runBin(HAZELNUT, ['crawl', path.join(tmp, 'seeds.txt'), '-dir', dir]);
  assert.is(noAgent.code, 1);
  assert.match(noAgent.err, /http\.agent\.name is empty/);
  assert.not.ok(fs.existsSync(dir));
  const noSeeds = await runBin(HAZELNUT, ['-D', 'http.agent.name=hzTest', 'crawl', path.join(tmp, 'nope.txt'), '-dir', dir]);
  assert.is(noSeeds.code, 1);
  assert.match(noSeeds.err, /nope\.txt does not exist/);
});

test('Ctrl-C stops a crawl cleanly, releases the lock, and the same command resumes it', async () => {
  const pages: Record<string, string> = { '/': page('Hub', 'All the pages.', Array.from({ length: 30 }, (_, i) => `/p${i}.html`)) };
  for (let i = 0; i < 30; i++) pages[`/p${i}.html`] = page(`Page ${i}`, `Paragraph number ${i} of the slow site.`);
  const slow = await startTestWeb({ block: '127.0.8', hosts: { slow: { pages } } });
  try {
    const seeds = path.join(tmp, 'slow-seeds.txt');
    fs.writeFileSync(seeds, `${slow.url('slow', '/')}\n`);
    const dir = path.join(tmp, 'crawl-interrupted');
    const args = [HAZELNUT, '-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0.1', '-D', 'log.progress.interval=0.3', 'crawl', seeds, '-dir', dir, '-depth', '3'];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    for (let i = 0; i < 200 && slow.requests.filter((r) => r.path.startsWith('/p')).length < 5; i++) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await exited;
    clearTimeout(killer);
    assert.is(code, 130, out);
    // Not a terminal: plain progress lines, with the ETA the 0.1 s delay implies for what is left.
    assert.match(out, /crawl depth 2\/3 · fetch \d+\/30 pages · [\d.]+\/s · 0 errors · ETA \d+ (ms|s) · \d+ KiB\/s · 1 host active\n/);
    assert.not.match(out, /\x1b\[/, 'no terminal escapes');
    assert.match(out, /interrupted: what was fetched is indexed; run the same command again to fetch the rest/);
    assert.not.ok(fs.existsSync(path.join(dir, '.lock')), 'the lock is released');
    const fetchedBefore = slow.requests.filter((r) => r.path.startsWith('/p')).length;
    assert.ok(fetchedBefore < 30, `stopped early (${fetchedBefore} of 30 fetched)`);
    // What was fetched before the interrupt is searchable now.
    const indexed = Number(/documents indexed\s+(\d+)/.exec(out)?.[1]);
    assert.ok(indexed >= 2 && indexed < 31, `${indexed} documents indexed after the interrupt\n${out}`);
    assert.match(out, /deferred\s+\d+ \(left for the next crawl\)/);
    const found = await runBin(HAZELNUT, ['search', dir, 'paragraph', '-json']);
    assert.is(found.code, 0, found.err);
    assert.is((JSON.parse(found.out) as { total: number }).total, indexed - 1, 'every page fetched but the hub holds the word');

    const again = await runBin(HAZELNUT, args.slice(1));
    assert.is(again.code, 0, again.err);
    assert.match(again.out, /documents indexed\s+31/);
    const perPath = new Map<string, number>();
    for (const r of slow.requests) perPath.set(r.path, (perPath.get(r.path) ?? 0) + 1);
    const twice = [...perPath].filter(([p, n]) => p !== '/robots.txt' && n > 1);
    assert.ok(twice.length <= 1, `at most the page in flight at the interrupt is fetched twice: ${JSON.stringify(twice)}`);
  } finally {
    await slow.stop();
  }
});

test('seeds a rule rejects are refused naming the rule, and nothing is written', async () => {
  const seeds = path.join(tmp, 'ftp-seeds.txt');
  fs.writeFileSync(seeds, 'ftp://127.0.8.9/pub/\n');
  const dir = path.join(tmp, 'crawl-ftp');
  const r = await runBin(HAZELNUT, ['-D', 'http.agent.name=hzTest', 'crawl', seeds, '-dir', dir]);
  assert.is(r.code, 1, r.out);
  assert.match(r.err, /ftp-seeds\.txt:1: ftp:\/\/127\.0\.8\.9\/pub\/ rejected by urlfilter-regex \(rule \S*regex-urlfilter\.txt:\d+\)/);
  assert.match(r.err, /change or remove the '-' rule named/);
  assert.not.ok(fs.existsSync(dir), 'no crawl directory, webdb/ or logs/');
});

test('seed hosts that are unreachable or disallow us are named with the reason', async () => {
  const closed = await startTestWeb({ block: '127.0.8', hosts: { shut: { robots: 'User-agent: *\nDisallow: /\n', pages: { '/': page('x', 'y') } } } });
  try {
    const seeds = path.join(tmp, 'bad-seeds.txt');
    // 127.0.8.251:9 has no listener: the connection is refused.
    fs.writeFileSync(seeds, `${closed.url('shut', '/')}\nhttp://127.0.8.251:9/\n`);
    const r = await runBin(HAZELNUT, ['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', 'crawl', seeds, '-dir', path.join(tmp, 'crawl-unreachable'), '-depth', '1']);
    assert.is(r.code, 0, r.err);
    assert.match(r.err, new RegExp(`no page of ${new URL(closed.url('shut', '/')).host.replace(/\./g, '\\.')}(:\\d+)? could be fetched: robots\\.txt disallows`));
    assert.match(r.err, /no page of 127\.0\.8\.251:9 could be fetched: /);
    assert.match(r.out, /documents indexed\s+0/);
  } finally {
    await closed.stop();
  }
});

test('the crawl follows every link of a long index page, and counts the links a cap or filter dropped', async () => {
  const n = 150;
  const pages: Record<string, string> = {};
  const links = Array.from({ length: n }, (_, i) => `/fn${i}.html`);
  for (const l of links) pages[l] = page(`Function ${l}`, 'One function.');
  pages['/'] = page('Function list', 'Every function.', [...links, 'http://127.0.8.252/elsewhere.html']);
  const big = await startTestWeb({ block: '127.0.8', hosts: { reference: { pages } } });
  try {
    const seeds = path.join(tmp, 'index-seeds.txt');
    fs.writeFileSync(seeds, `${big.url('reference', '/')}\n`);
    const args = ['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', 'crawl', seeds, '-depth', '2'];
    const all = await runBin(HAZELNUT, [...args, '-dir', path.join(tmp, 'crawl-index-all')]);
    assert.is(all.code, 0, all.err);
    assert.match(all.out, new RegExp(`documents indexed\\s+${n + 1}\\b`));
    assert.match(all.out, /links dropped\s+1 \(1 by URL filters\)/);
    const capped = await runBin(HAZELNUT, ['-D', 'db.max.outlinks.per.page=100', ...args, '-dir', path.join(tmp, 'crawl-index-capped')]);
    assert.is(capped.code, 0, capped.err);
    assert.match(capped.out, /documents indexed\s+101\b/);
    assert.match(capped.out, /links dropped\s+51 \(50 over db\.max\.outlinks\.per\.page, 1 by URL filters\)/);
  } finally {
    await big.stop();
  }
});

test('a crawl directory locked by a running tool is refused, naming the holder', async () => {
  const dir = path.join(tmp, 'crawl-locked');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, '.lock'), JSON.stringify({ pid: process.pid, tool: 'fetch', host: os.hostname(), started: new Date().toISOString() }));
  const r = await runBin(HAZELNUT, ['-D', 'http.agent.name=hzTest', 'crawl', path.join(tmp, 'seeds.txt'), '-dir', dir]);
  assert.is(r.code, 1);
  assert.match(r.err, new RegExp(`is locked by .*${process.pid}`));
  assert.equal(fs.readdirSync(dir), ['.lock'], 'nothing written');
  const serve = await runBin(HAZELNUT, ['serve', dir, '-port', '0', '-host', '127.0.8.201']);
  assert.is(serve.code, 1);
  assert.match(serve.err, new RegExp(`has no index yet: a fetch is running there, pid ${process.pid} .*; the index appears when it ends`));
});

test.run();
