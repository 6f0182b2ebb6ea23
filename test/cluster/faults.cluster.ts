/**
 * What a deployment on PostgreSQL meets first, through the real CLI: the
 * database restarted (pg_ctl restart) while three fetchers run, none of
 * them dying, no page lost or asked for twice (counted at the web servers);
 * a database that stops answering (SIGSTOP), every tool ending within
 * webdb.timeout with one message naming the URL, password hidden; a crawl
 * killed (SIGKILL) leaving no lock behind, its rerun going on without -force;
 * `hazelnut partitions` showing who fetches what, and `fetch -release`
 * freeing a dead holder's lease at once; a fetcher in an empty directory,
 * bound to a loopback address of its own, fetching its partition with no
 * access to the segment, its results put in place on the crawl machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Segment } from '../../segments/segment.js';
import { segmentFile, segmentPartDir } from '../../shared/crawl-dir.js';
import { startTestWeb, type HostSpec, type TestWeb } from '../fixtures/testweb.js';
import { startPostgres, type PgServer } from './postgres.js';
import { clusterRuns, sleep } from './runs.js';

const BLOCK = '127.0.95';
const HOSTS = 6;
const PAGES = 16;
const PROCESS_TIMEOUT_MS = 120_000;
const COMMON = { 'http.agent.name': 'hzFaults', 'fetcher.server.delay': '0.1', 'fetcher.partition.lease': '3' };

let server: PgServer | undefined;
let web: TestWeb | undefined;
let tmp = '';
const { procs, hazelnut, ok, newestSegment } = clusterRuns({ cwd: () => tmp, defines: COMMON, timeoutMs: PROCESS_TIMEOUT_MS });
let resume: (() => void) | undefined;

function makeWeb(): Record<string, HostSpec> {
  const hosts: Record<string, HostSpec> = {};
  for (let h = 0; h < HOSTS; h++) {
    const pages: Record<string, HostSpec['pages'][string]> = {};
    const links = Array.from({ length: PAGES - 1 }, (_, p) => `<a href="/p${p + 1}">page ${p + 1}</a>`).join(' ');
    for (let p = 0; p < PAGES; p++)
      pages[p === 0 ? '/' : `/p${p}`] = { body: `<html><head><title>h${h} page ${p}</title></head><body><p>words of page ${p}</p>${links}</body></html>`, headerDelayMs: 200 };
    hosts[`h${h}`] = { pages, robots: 'User-agent: *\nDisallow:\n' };
  }
  return hosts;
}

/** Fetch records stored so far in every partition of a segment. */
function records(segDir: string): number {
  const seg = Segment.open(segDir, { readonly: true });
  try {
    return seg.count('fetch');
  } finally {
    seg.close();
  }
}

/** A copy of the WebDB that knows every page, with one segment generated in `n` partitions; returns its URL, the segment and what generate said. */
async function generated(name: string, n: number): Promise<{ url: string; seg: string; said: string }> {
  const url = await server!.createDatabase(name, undefined, 'known');
  const said = await ok(['generate', url, `${name}/segments`, '-numFetchers', String(n)]);
  return { url, seg: newestSegment(name), said };
}

test.before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-faults-'));
  server = await startPostgres();
  web = await startTestWeb({ block: BLOCK, hosts: makeWeb() });
  fs.writeFileSync(path.join(tmp, 'seeds.txt'), web.hosts.map((h) => `${web!.origin(h)}/`).join('\n') + '\n');
  // A WebDB that knows every page (the home pages list them, fetched by a first round), copied for each test.
  const url = await server.createDatabase('known');
  await ok(['inject', url, 'seeds.txt']);
  await ok(['generate', url, 'known/segments']);
  const first = newestSegment('known');
  await ok(['fetch', first], { 'webdb.url': url });
  await ok(['updatedb', url, first]);
});

test.after(async () => {
  resume?.();
  for (const p of procs) p.kill('SIGKILL');
  await web?.stop();
  server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('PostgreSQL restarted while three fetchers run: none dies, no page is lost or asked for twice', async () => {
  const { url, seg } = await generated('restart', 3);
  web!.reset();
  const db = { 'webdb.url': url };
  const fetchers = Array.from({ length: 3 }, () => hazelnut(['fetch', seg], db));
  // Restarted once the fetchers are well into their partitions, and again a little later: leases are renewed every second.
  const deadline = Date.now() + 60_000;
  while (records(seg) < 6 && Date.now() < deadline) await sleep(100);
  server!.restart();
  await sleep(1500);
  server!.restart();
  const restartedAt = records(seg);
  const runs = await Promise.all(fetchers);
  for (const r of runs) {
    assert.is(r.code, 0, `a fetcher ended with ${r.code ?? r.signal}\n${r.err}`);
    assert.not.match(r.err, /\n\s+at /, 'no stack trace');
  }
  const segment = Segment.open(seg, { readonly: true });
  try {
    const fetchlist = [...segment.fetchlist()].map((e) => e.url).sort();
    assert.ok(restartedAt < fetchlist.length, `restarted mid-fetch: ${restartedAt} of ${fetchlist.length} records`);
    assert.ok(segment.hasPhase('fetched'), 'the segment is fetched');
    assert.equal([...segment.fetchedUrls()].sort(), fetchlist, 'no page lost');
    const asked = web!.requests.filter((r) => r.path !== '/robots.txt').map((r) => web!.url(r.host, r.path));
    assert.equal(asked.sort(), fetchlist, 'each page asked for once');
  } finally {
    segment.close();
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const parts = (await c.query<{ done: number | null }>('SELECT done FROM partitions WHERE segment = $1', [path.basename(seg)])).rows;
    assert.is(parts.length, 3);
    assert.ok(parts.every((p) => p.done !== null), 'every partition finished');
  } finally {
    await c.end();
  }
});

test('a database that stops answering: every tool ends within webdb.timeout, naming the URL without its password', async () => {
  const { url, seg } = await generated('stopped', 2);
  const secret = url.replace('hazelnut@', 'hazelnut:s3cret@');
  const timeout = { 'webdb.timeout': '3', 'webdb.url': secret, 'fetcher.partition.lease': '30' };
  // One fetcher at work when the server stops, the other tools started after it.
  const running = hazelnut(['fetch', seg], timeout);
  const deadline = Date.now() + 60_000;
  while (records(seg) < 2 && Date.now() < deadline) await sleep(100);
  resume = server!.pause();
  try {
    const started = Date.now();
    const runs = await Promise.all([
      running,
      hazelnut(['readdb', secret, '-stats'], timeout),
      hazelnut(['inject', secret, 'seeds.txt'], timeout),
      hazelnut(['generate', secret, 'stopped/segments'], timeout),
      hazelnut(['fetch', seg], timeout),
    ]);
    // Each within its wait of 3 s (a connect, or a statement and a second connection), plus starting a process.
    assert.ok(Date.now() - started < 40_000, `the tools ended after ${Date.now() - started} ms`);
    for (const r of runs) {
      assert.is(r.code, 1, `exit 1\n${r.err}`);
      assert.match(r.err, /(cannot connect to|lost) the WebDB at postgresql:\/\/hazelnut:\*\*\*@127\.0\.0\.1:\d+\/stopped: /);
      assert.match(r.err, /no answer within 3 s|waited \d+(\.\d)? s for/);
      assert.not.match(r.err, /s3cret/, 'the password is not shown');
      assert.not.match(r.err, /\n\s+at /, 'no stack trace');
    }
  } finally {
    resume();
    resume = undefined;
  }
  // The server goes on; the segment's fetch resumes where it stopped.
  await ok(['fetch', seg], { 'webdb.url': url });
  assert.match(await ok(['readdb', url, '-stats']), /TOTAL urls:\t\d+/);
});

test('a crawl on PostgreSQL killed (SIGKILL) leaves no lock: the rerun goes on without -force', async () => {
  const url = await server!.createDatabase('killed_crawl');
  const killed = await hazelnut(['crawl', 'seeds.txt', '-dir', 'kc', '-depth', '2', '-webdb', url], {}, (p) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const segs = path.join(tmp, 'kc', 'segments');
      if ((fs.existsSync(segs) && fs.readdirSync(segs).length > 0) || Date.now() - started > 60_000) {
        clearInterval(poll);
        p.kill('SIGKILL');
      }
    }, 50);
  });
  assert.is(killed.signal, 'SIGKILL');
  assert.not.ok(fs.existsSync(path.join(tmp, 'kc', '.lock')), 'no lock file in the crawl directory');
  const again = await hazelnut(['crawl', 'seeds.txt', '-dir', 'kc', '-depth', '2', '-webdb', url]);
  assert.is(again.code, 0, again.err);
  assert.not.match(again.err, /-force|locked/);
  assert.match(again.out, /documents indexed\s+\d+/);
});

/** The row of partition `part` in `hazelnut partitions` output, split on its column gaps. */
function row(listing: string, part: number): string[] | undefined {
  return listing
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/))
    .find((r) => r[0] === String(part) && r.length === 6);
}

test('partitions shows state, holder, lease and progress; fetch -release frees a dead holder at once', async () => {
  const { url, seg, said } = await generated('listing', 9);
  const name = path.basename(seg);
  assert.match(said, new RegExp(`segment \\S+${name}: 6 fetch partitions, not 9: a partition holds whole hosts .* URLs of 6 hosts; 3 of the 9 fetchers will find nothing to fetch`));
  const db = { 'webdb.url': url, 'fetcher.partition.lease': '6' };
  let pid = 0;
  const holder = hazelnut(['fetch', seg, '-part', '0'], db, (p) => (pid = p.pid!));
  let listing = '';
  const deadline = Date.now() + 40_000;
  // Reported at the claim and at each renewal (every 2 s): fetching, with pages done and a rate.
  while (Date.now() < deadline) {
    listing = await ok(['partitions', url]);
    const r = row(listing, 0);
    if (r && r[1] === 'fetching' && /^[1-9]\d*\/\d+$/.test(r[4]!) && r[5] !== '-') break;
    await sleep(500);
  }
  const r0 = row(listing, 0)!;
  assert.is(r0[1], 'fetching', listing);
  assert.is(r0[2], `${os.hostname()} pid ${pid}`);
  assert.ok(Date.parse(r0[3]!) > Date.now() - 2000, `lease until ${r0[3]}`);
  assert.match(r0[5]!, /^\d+\.\d pages\/s$/);
  assert.match(listing, new RegExp(`^segment ${name}: 6 fetch partitions: 1 fetching, 5 waiting; \\d+ of \\d+ URLs fetched$`, 'm'));
  assert.equal(row(listing, 5)!.slice(1, 4), ['waiting', '-', '-']);
  process.kill(pid, 'SIGKILL');
  await holder;
  // As if it had died on another machine: a fetcher here cannot tell, only -release frees the lease before it runs out.
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query("UPDATE partitions SET owner = 'far.example' || substr(owner, strpos(owner, '/')), lease_until = $2 WHERE segment = $1 AND part = 0", [
      name,
      Date.now() + 600_000,
    ]);
  } finally {
    await c.end();
  }
  assert.is(row(await ok(['partitions', url, seg]), 0)![2], `far.example pid ${pid}`);
  const refused = await hazelnut(['fetch', seg, '-part', '0'], db);
  assert.is(refused.code, 1);
  assert.match(refused.err, /fetch partition 0 of .* is being fetched by far\.example\//);
  assert.match(await ok(['fetch', seg, '-release', '-part', '0'], db), new RegExp(`fetch partition 0 of \\S+: released the lease of far\\.example/${pid}/`));
  assert.is(row(await ok(['partitions', url, name]), 0)![1], 'free');
  const started = Date.now();
  const resumed = await ok(['fetch', seg, '-part', '0'], db);
  assert.match(resumed, /already done/);
  assert.ok(Date.now() - started < 60_000);
  assert.equal(row(await ok(['partitions', url, name]), 0)!.slice(1, 2), ['done']);
  const bad = await hazelnut(['fetch', seg, '-release'], db);
  assert.is(bad.code, 2);
  assert.match(bad.err, /-release needs -part i/);
});

test('a fetcher in an empty directory on another address fetches its partition; the crawl machine gets the results', async () => {
  const { url, seg } = await generated('remote', 2);
  const name = path.basename(seg);
  const far = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-far-'));
  try {
    web!.reset();
    const db = { 'webdb.url': url };
    const r = await hazelnut(['fetch', `segments/${name}`, '-part', '0'], { ...db, 'http.bind.address': '127.0.96.1' }, undefined, far);
    assert.is(r.code, 0, r.err);
    assert.match(r.out, /fetch \d+: \d+ fetched/);
    // Its own copy of its partition, its own log; nothing of the crawl machine's segment was touched.
    assert.ok(fs.existsSync(segmentFile(segmentPartDir(path.join(far, 'segments', name), 0))));
    assert.equal(
      fs.readdirSync(path.join(far, 'logs')).filter((f) => /^fetch-.+-\d+\.log$/.test(f)).length,
      1,
      'the fetcher logs to a file of its own',
    );
    const local = Segment.open(segmentPartDir(seg, 0), { readonly: true });
    try {
      assert.is(local.count('fetch'), 0, 'the crawl machine has no record of partition 0 yet');
    } finally {
      local.close();
    }
    // The crawl machine fetches the other partition and puts the shipped one in place.
    await ok(['fetch', seg], db);
    const segment = Segment.open(seg, { readonly: true });
    try {
      const fetchlist = [...segment.fetchlist()].map((e) => e.url).sort();
      assert.ok(segment.hasPhase('fetched'), 'the segment is fetched');
      assert.equal([...segment.fetchedUrls()].sort(), fetchlist, 'every URL has its record');
      const asked = web!.requests.filter((q) => q.path !== '/robots.txt').map((q) => web!.url(q.host, q.path));
      assert.equal(asked.sort(), fetchlist, 'each page asked for once');
    } finally {
      segment.close();
    }
    // The crawl machine's fetcher of the partitioned segment logged to a file of its own too, not to the shared fetch.log.
    const logs = path.join(tmp, 'remote', 'logs');
    assert.ok(fs.readdirSync(logs).some((f) => /^fetch-.+-\d+\.log$/.test(f) && fs.readFileSync(path.join(logs, f), 'utf8').includes(name)));
    assert.not.ok(fs.existsSync(path.join(logs, 'fetch.log')), 'no shared fetch.log');
    await ok(['updatedb', url, seg]);
    const missing = await hazelnut(['fetch', 'segments/20000101000000'], db, undefined, far);
    assert.is(missing.code, 1);
    assert.match(missing.err, /segment segments\/20000101000000 is not on this machine, and the WebDB at postgresql:\/\/\S+ has no fetch partitions of a segment 20000101000000/);
  } finally {
    fs.rmSync(far, { recursive: true, force: true });
  }
});

test.run();
