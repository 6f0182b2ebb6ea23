/**
 * Many fetchers, as real processes: `generate -numFetchers` partitions by host;
 * three `hazelnut fetch <segment>` processes fetch a segment into the same
 * records as one fetcher, never two connections to one host at once (counted
 * by the servers); a fetcher killed mid-partition leaves the partition to
 * another fetcher, waiting for its lease to run out, which resumes it with no
 * record lost and no committed page asked for again (counted by the servers);
 * `crawl -fetchers 3` crawls what `crawl` does.
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetch } from '../../../crawler/fetch/tool.js';
import { generate } from '../../../crawler/generate.js';
import { inject } from '../../../crawler/inject.js';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { Segment } from '../../../segments/segment.js';
import { segmentPartDir, segmentFile, webDbFile } from '../../../shared/crawl-dir.js';
import { runHazelnut, type HazelnutRun } from '../../fixtures/hazelnut-process.js';
import { tempCrawl, testConf } from './helpers.js';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const HOSTS = 6;
const PAGES = 8;

/** One server per host; each counts the requests it is answering at once. */
interface Host {
  server: http.Server;
  origin: string;
  active: number;
  maxActive: number;
  requests: number;
  /** The page URLs asked for, robots.txt left out, in arrival order. */
  pages: string[];
  delayMs: number;
}

const hosts: Host[] = [];
const dirs: string[] = [];

test.before(async () => {
  for (let i = 1; i <= HOSTS; i++) {
    const h: Host = { server: http.createServer(), origin: '', active: 0, maxActive: 0, requests: 0, pages: [], delayMs: 20 };
    h.server.on('request', (req, res) => {
      h.active++;
      h.requests++;
      h.maxActive = Math.max(h.maxActive, h.active);
      if (req.url !== '/robots.txt') h.pages.push(h.origin + req.url);
      setTimeout(() => {
        h.active--;
        if (req.url === '/robots.txt') {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const page = Number(/^\/p\/(\d+)\.html$/.exec(req.url ?? '')?.[1] ?? 0);
        const next = hosts[i % HOSTS]!.origin;
        res.end(
          `<html><head><title>host ${i} ${req.url}</title></head><body><p>Page ${req.url} of host ${i}.</p>` +
            `<a href="/p/${(page + 1) % PAGES}.html">next</a> <a href="${next}/p/${page}.html">over there</a></body></html>`,
        );
      }, h.delayMs);
    });
    await new Promise<void>((r) => h.server.listen(0, `127.0.91.${i}`, r));
    h.origin = `http://127.0.91.${i}:${(h.server.address() as AddressInfo).port}`;
    hosts.push(h);
  }
});

test.after(async () => {
  for (const h of hosts) await new Promise((r) => h.server.close(r));
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function resetCounts(delayMs = 20): void {
  for (const h of hosts) Object.assign(h, { active: 0, maxActive: 0, requests: 0, pages: [], delayMs });
}

/** How often each page URL was asked for since the last `resetCounts`, over all hosts. */
function pageCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const u of hosts.flatMap((h) => h.pages)) counts.set(u, (counts.get(u) ?? 0) + 1);
  return counts;
}

const conf = (extra: Record<string, string> = {}) => ({ 'fetcher.server.delay': '0.02', 'fetcher.partition.lease': '2', ...extra });

/** A crawl directory with every page of every host injected and generated into one segment. */
async function generated(numFetchers: number): Promise<string> {
  const crawl = tempCrawl();
  dirs.push(crawl);
  const seeds = path.join(crawl, 'seeds.txt');
  fs.writeFileSync(seeds, hosts.flatMap((h) => Array.from({ length: PAGES }, (_, p) => `${h.origin}/p/${p}.html`)).join('\n') + '\n');
  const c = testConf(conf());
  await inject(c, { webdb: path.join(crawl, 'webdb'), seeds });
  const g = await generate(c, path.join(crawl, 'webdb'), path.join(crawl, 'segments'), { numFetchers });
  return g.segments[0]!;
}

/** `hazelnut fetch` as a process of its own; `onStart` may kill it. */
function fetchProcess(args: string[], extra: Record<string, string> = {}, onStart?: (p: ChildProcess) => void): Promise<HazelnutRun> {
  return hazelnut(['fetch', ...args], extra, onStart);
}

function hazelnut(args: string[], extra: Record<string, string> = {}, onStart?: (p: ChildProcess) => void): Promise<HazelnutRun> {
  return runHazelnut(args, { cwd: root, defines: { 'http.agent.name': 'HzTest', 'http.timeout': '2000', ...conf(extra) }, timeoutMs: 90_000, onStart });
}

/** What a fetch stored, by URL: fetch status, HTTP status, a digest of the content, the parse title. */
function records(segDir: string): Map<string, string> {
  const seg = Segment.open(segDir, { readonly: true });
  try {
    const out = new Map<string, string>();
    for (const f of seg.fetches()) {
      const c = seg.getContent(f.url);
      const digest = c ? crypto.createHash('sha1').update(c.bytes).digest('hex') : '-';
      out.set(f.url, [f.status, f.httpStatus, digest, seg.getParse(f.url)?.title ?? '-'].join(' '));
    }
    return out;
  } finally {
    seg.close();
  }
}

const hostname = (h: string) => new URL(`http://${h}`).hostname;

test('generate -numFetchers: every host in one partition, partitions balanced, recorded in the segment and the WebDB', async () => {
  const segDir = await generated(4);
  const seg = Segment.open(segDir, { readonly: true });
  try {
    assert.is(seg.partCount(), 4);
    const byHost = seg.partHosts();
    assert.is(byHost.size, HOSTS);
    const perPart = [0, 0, 0, 0];
    for (const e of seg.fetchlist()) perPart[byHost.get(e.host)!]!++;
    // 6 hosts of 8 URLs over 4 partitions: 2 + 2 + 1 + 1 hosts.
    assert.equal(perPart.sort((a, b) => a - b), [8, 8, 16, 16]);
    const names = new Map<string, number>();
    for (const [h, p] of byHost) {
      assert.is(names.get(hostname(h)) ?? p, p, h);
      names.set(hostname(h), p);
    }
  } finally {
    seg.close();
  }
  const db = openWebDb(path.join(path.dirname(path.dirname(segDir)), 'webdb'));
  try {
    assert.equal(
      db.partitions(path.basename(segDir)).map((p) => [p.part, p.owner, p.done]),
      [0, 1, 2, 3].map((p) => [p, null, null]),
    );
  } finally {
    db.close();
  }
});

test('three fetcher processes store what one fetcher stores, one connection per host at a time', async () => {
  resetCounts();
  const one = await generated(1);
  const r1 = await fetchProcess([one]);
  assert.is(r1.code, 0, r1.err);
  const single = records(one);
  assert.is(single.size, HOSTS * PAGES);

  resetCounts();
  const many = await generated(3);
  const runs = await Promise.all([fetchProcess([many]), fetchProcess([many]), fetchProcess([many])]);
  for (const r of runs) assert.is(r.code, 0, r.err);
  for (const h of hosts) assert.is(h.maxActive, 1, `${h.origin}: ${h.maxActive} requests at once`);
  // robots.txt once per host, then each page once.
  assert.is(hosts.reduce((n, h) => n + h.requests, 0), HOSTS * (PAGES + 1));
  const seg = Segment.open(many, { readonly: true });
  try {
    assert.ok(seg.hasPhase('fetched') && seg.hasPhase('parsed'));
    for (let p = 0; p < 3; p++) assert.ok(fs.existsSync(segmentFile(segmentPartDir(many, p))), `part ${p}`);
    assert.is(seg.count('fetch'), HOSTS * PAGES);
    assert.is(seg.unfetchedCount(), 0);
    assert.equal(pageCounts(), new Map([...seg.fetchlist()].map((e) => [e.url, 1])), 'each page asked for once');
  } finally {
    seg.close();
  }
  assert.equal(records(many), single);
});

/** A `fetch -part 0` killed (SIGKILL) once it has stored 3 records of partition 0 (or after 60 s). */
function killedInPart0(segDir: string, lease: string): Promise<HazelnutRun> {
  const part0 = segmentFile(segmentPartDir(segDir, 0));
  return fetchProcess([segDir, '-part', '0'], { 'fetcher.partition.lease': lease }, (p) => {
    const started = Date.now();
    const poll = setInterval(() => {
      let n = 0;
      if (fs.existsSync(part0)) {
        const seg = Segment.open(path.dirname(part0), { readonly: true });
        n = seg.count('fetch');
        seg.close();
      }
      if (n >= 3 || Date.now() - started > 60_000) {
        clearInterval(poll);
        p.kill('SIGKILL');
      }
    }, 50);
  });
}

test('a fetcher killed mid-partition: the partition is claimable once its lease runs out, and a waiting fetcher finishes it', async () => {
  resetCounts(150);
  const segDir = await generated(2);
  const part0 = segmentFile(segmentPartDir(segDir, 0));
  const killed = await killedInPart0(segDir, '8');
  assert.is(killed.code, null, 'killed');
  const webdbDir = path.join(path.dirname(path.dirname(segDir)), 'webdb');
  // As if it had run on another machine: a fetcher here cannot tell whether it still runs, so waits for its lease.
  const raw = new Database(webDbFile(webdbDir));
  raw.prepare("UPDATE partitions SET owner = 'elsewhere.example' || substr(owner, instr(owner, '/')) WHERE part = 0").run();
  raw.close();
  const lease = openWebDb(webdbDir);
  const expires = lease.partitions(path.basename(segDir))[0]!.leaseUntil!;
  lease.close();
  // The dead fetcher's lease still holds: the partition is not claimable yet.
  const early = await fetch(testConf(conf()), segDir, { part: 0 }).then(
    () => 'claimed',
    (e: Error) => e.message,
  );
  assert.match(early, /fetch partition 0 of .* is being fetched by .*; run it again after that if that fetcher died/);
  assert.ok(Date.now() < expires, 'checked while the lease held');
  const seg0 = Segment.open(path.dirname(part0), { readonly: true });
  const before = seg0.count('fetch');
  // Committed before the kill: the pages the resuming fetcher must not ask for again.
  const committed = seg0.fetchedUrls();
  seg0.close();
  assert.ok(before >= 3 && before < 3 * PAGES, `${before} records before the kill`);
  assert.is(committed.size, before);
  const killedRun = pageCounts();
  for (const [u, n] of killedRun) assert.is(n, 1, `${u} requested ${n} times before the kill`);
  for (const u of committed) assert.ok(killedRun.has(u), `${u} committed but never requested`);

  // Started at once, a fetcher fetches partition 1, waits for the dead one's lease to run out, then resumes partition 0.
  resetCounts(20);
  const rest = await fetchProcess([segDir]);
  assert.is(rest.code, 0, rest.err);
  assert.ok(Date.now() > expires, 'finished after the lease ran out');
  assert.match(rest.err, /fetch partitions 0 of .* are held by other fetchers: waiting/);
  assert.match(rest.out, new RegExp(`, ${before} already done`));
  const seg = Segment.open(segDir, { readonly: true });
  try {
    assert.ok(seg.hasPhase('fetched'));
    const fetchlist = [...seg.fetchlist()].map((e) => e.url).sort();
    assert.equal([...seg.fetchedUrls()].sort(), fetchlist);
    assert.is(seg.count('fetch'), fetchlist.length);
    // A later record overwrites an earlier one, so the servers say what was fetched twice: the resuming fetcher
    // asks once for each URL without a committed record (those not reached, and those fetched but lost
    // uncommitted at the kill, how many depends on the load) and never for a committed one.
    const rerun = pageCounts();
    for (const [u, n] of rerun) assert.is(n, 1, `${u} requested ${n} times after the kill`);
    assert.equal([...rerun.keys()].sort(), fetchlist.filter((u) => !committed.has(u)), 'no URL fetched twice');
    assert.is(seg.count('parse'), fetchlist.length);
  } finally {
    seg.close();
  }
  const db = openWebDb(webdbDir);
  try {
    assert.ok(db.partitions(path.basename(segDir)).every((p) => p.done !== null));
  } finally {
    db.close();
  }
});

test('a dead fetcher of this machine: a fetcher here frees its lease at once and resumes its partition', async () => {
  resetCounts(150);
  const segDir = await generated(2);
  const killed = await killedInPart0(segDir, '120');
  assert.is(killed.code, null, 'killed');
  const webdbDir = path.join(path.dirname(path.dirname(segDir)), 'webdb');
  const db = openWebDb(webdbDir);
  const expires = db.partitions(path.basename(segDir))[0]!.leaseUntil!;
  db.close();
  resetCounts(20);
  const rest = await fetchProcess([segDir], { 'fetcher.partition.lease': '120' });
  assert.is(rest.code, 0, rest.err);
  assert.ok(Date.now() < expires, 'finished long before the dead fetcher\'s lease would have run out');
  assert.match(rest.err, new RegExp(`fetch partition 0 of ${path.basename(segDir)}: its holder \\S+ is no longer running on this machine; its lease is freed`));
  const seg = Segment.open(segDir, { readonly: true });
  try {
    assert.ok(seg.hasPhase('fetched'));
    assert.is(seg.count('fetch'), [...seg.fetchlist()].length);
  } finally {
    seg.close();
  }
});

test('crawl -fetchers 3 crawls, updates and indexes what a crawl with one fetcher does', async () => {
  const seeds = path.join(tempCrawl(), 'seeds.txt');
  dirs.push(path.dirname(seeds));
  fs.writeFileSync(seeds, hosts.map((h) => `${h.origin}/p/0.html\n`).join(''));
  const summary = async (fetchers: string[]) => {
    resetCounts();
    const dir = path.join(path.dirname(seeds), `crawl${fetchers.length}`);
    const r = await hazelnut(['crawl', seeds, '-dir', dir, '-depth', '3', ...fetchers]);
    assert.is(r.code, 0, r.err);
    for (const h of hosts) assert.is(h.maxActive, 1, `${h.origin}: ${h.maxActive} requests at once`);
    // What was fetched and indexed; the segment names, paths and times differ.
    return r.out.split('\n').filter((l) => /^ {2}(pages fetched|failed|gone|redirected|documents indexed|links dropped) /.test(l));
  };
  const one = await summary([]);
  const many = await summary(['-fetchers', '3']);
  assert.ok(one.includes('  pages fetched      18 (18 ok, 0 not modified)'), one.join('\n'));
  assert.ok(one.includes('  documents indexed  18'), one.join('\n'));
  assert.equal(many, one);
  const segs = path.join(path.dirname(seeds), 'crawl2', 'segments');
  for (const name of fs.readdirSync(segs)) assert.ok(fs.existsSync(segmentFile(segmentPartDir(path.join(segs, name), 2))), name);
});

test.run();
