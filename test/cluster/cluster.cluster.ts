/**
 * Many machines, on one: a loopback web of several hosts crawled with the
 * WebDB on PostgreSQL by three `hazelnut fetch` processes claiming the
 * segment's partitions, one of them killed (SIGKILL) mid-partition and its
 * partition finished by another fetcher once the lease has run out; then
 * updatedb, invertlinks, linkrank, index, dedup and `merge -shards 2`, the two
 * shards served by shard searchers behind a broker. The broker's top 10 for
 * every query must be (URLs and order) that of the same pipeline on one
 * machine: SQLite, one fetcher, one merged index, one searcher. Then each
 * shard gets a second replica (`-shards a1|a2,b1|b2`) and one replica is
 * killed during a load: every answer stays whole (no partial result, no 5xx).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchedIn } from '../../crawler/fetch/fetch-partitions.js';
import { Segment } from '../../segments/segment.js';
import { shardIndexDir } from '../../shared/crawl-dir.js';
import { rng } from '../fixtures/rng.js';
import { startSearcher } from '../fixtures/searcher-process.js';
import { startTestWeb, type HostSpec, type TestWeb } from '../fixtures/testweb.js';
import { startPostgres, type PgServer } from './postgres.js';
import { clusterRuns, sleep } from './runs.js';

const BLOCK = '127.0.93';
const SEARCH_HOST = `${BLOCK}.200`;
const HOSTS = 6;
const PAGES = 12;
const FETCHERS = 3;
/** s; short, so the killed fetcher's partition is free again soon. */
const LEASE = 4;
const PROCESS_TIMEOUT_MS = 180_000;
const COMMON = {
  'http.agent.name': 'hzCluster',
  'http.timeout': '10000',
  'fetcher.server.delay': '0.1',
  'fetcher.partition.lease': String(LEASE),
};

const THEMES = [
  ['kestrel', 'falcon', 'nesting', 'migration', 'wingspan', 'prey'],
  ['postgres', 'replication', 'vacuum', 'index', 'backup', 'failover'],
  ['espresso', 'grinder', 'roast', 'crema', 'barista', 'beans'],
  ['glacier', 'moraine', 'crevasse', 'icefield', 'melt', 'altitude'],
  ['invoice', 'ledger', 'receipt', 'expense', 'audit', 'budget'],
  ['violin', 'sonata', 'rehearsal', 'orchestra', 'tempo', 'concert'],
];
const COMMON_WORDS = ['report', 'guide', 'notes', 'team', 'weekly', 'review', 'plan', 'history', 'summary', 'meeting'];

const QUERIES = [
  'kestrel',
  'replication failover',
  'espresso roast',
  'glacier melt altitude',
  'expense receipt',
  'orchestra',
  'weekly report',
  'guide',
  'review plan',
  '"weekly review"',
  'backup OR audit',
  'tempo -violin',
  `site:${BLOCK}.3 beans`,
  'notes history summary',
];

let server: PgServer | undefined;
let web: TestWeb | undefined;
let tmp = '';
const { procs, hazelnut, ok, newestSegment } = clusterRuns({ cwd: () => tmp, defines: COMMON, timeoutMs: PROCESS_TIMEOUT_MS });

/** A web of HOSTS hosts, PAGES pages each: each home page links to all its host's pages and the other homes. */
function makeWeb(): Record<string, HostSpec> {
  const r = rng(13);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const hosts: Record<string, HostSpec> = {};
  for (let h = 0; h < HOSTS; h++) {
    const pages: Record<string, HostSpec['pages'][string]> = {};
    for (let p = 0; p < PAGES; p++) {
      const words = Array.from({ length: 40 + Math.floor(r() * 80) }, () => (r() < 0.5 ? pick(THEMES[h]!) : r() < 0.7 ? pick(COMMON_WORDS) : pick(pick(THEMES))));
      const title = `${pick(THEMES[h]!)} ${pick(COMMON_WORDS)} ${p}`;
      const links = [1, 2, 3].map((k) => `<a href="/p${(p + k * (h + 1)) % PAGES || 1}">${pick(THEMES[h]!)} ${pick(COMMON_WORDS)}</a>`);
      // Slow answers, so that a fetcher is caught mid-partition.
      pages[p === 0 ? '/' : `/p${p}`] = { body: html(title, words.join(' '), links), headerDelayMs: 60 };
    }
    hosts[`h${h}`] = { pages, robots: 'User-agent: *\nDisallow:\n' };
  }
  return hosts;
}

function html(title: string, text: string, links: string[]): string {
  return `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p><p>${links.join(' ')}</p></body></html>`;
}

interface PartitionRow {
  part: number;
  owner: string | null;
  leaseUntil: string | null;
  done: string | null;
}

async function partitions(url: string, segment: string): Promise<PartitionRow[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<PartitionRow>('SELECT part, owner, lease_until AS "leaseUntil", done FROM partitions WHERE segment = $1 ORDER BY part', [segment])).rows;
  } finally {
    await c.end();
  }
}

/** The pid in a lease owner's name (host/pid/random). */
const ownerPid = (owner: string | null) => Number(owner?.split('/').at(-2));

test.before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-cluster-'));
  server = await startPostgres();
  const spec = makeWeb();
  web = await startTestWeb({ block: BLOCK, hosts: spec, record: false });
  // Every home page links to the other hosts' home pages, so links (and link scores) span hosts.
  for (const h of web.hosts) {
    const home = spec[h]!.pages['/'] as { body: string; headerDelayMs: number };
    const others = web.hosts.filter((o) => o !== h).map((o) => `<a href="${web!.origin(o)}/">${o} home</a>`);
    const own = Array.from({ length: PAGES - 1 }, (_, p) => `<a href="/p${p + 1}">page ${p + 1}</a>`);
    web.setPage(h, '/', { ...home, body: home.body.replace('</body>', `<p>${[...own, ...others].join(' ')}</p></body>`) });
  }
  fs.writeFileSync(path.join(tmp, 'seeds.txt'), web.hosts.map((h) => `${web!.origin(h)}/`).join('\n') + '\n');
});

test.after(async () => {
  for (const p of procs) p.kill('SIGKILL');
  await web?.stop();
  server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

let pgUrl = '';
let singleBase = '';
let brokerBase = '';
let shardIndexes: string[] = [];

/**
 * Three fetchers on `seg`: the first is killed (SIGKILL) once it has fetched
 * part of its partition, the two others go on; fetchers started after them
 * take what is left once the dead one's lease has run out. Checks that the
 * partition is taken over only after the lease, by another fetcher, and ends
 * with each of its URLs fetched once.
 */
async function fetchWithOneKilled(seg: string, db: Record<string, string>): Promise<void> {
  const name = path.basename(seg);
  let killed: { part: number; records: number; pid: number; leaseUntil: number } | undefined;
  let holds: () => void = () => {};
  const holding = new Promise<void>((r) => (holds = r));
  let noted: () => void = () => {};
  const killNoted = new Promise<void>((r) => (noted = r));
  const victim = hazelnut(['fetch', seg], db, (p) => {
    const started = Date.now();
    let busy = false;
    const poll = setInterval(() => {
      if (busy) return;
      busy = true;
      void (async () => {
        const mine = (await partitions(pgUrl, name)).find((x) => ownerPid(x.owner) === p.pid && x.done === null);
        if (mine) holds();
        const records = mine ? fetchedIn(seg, mine.part) : 0;
        if ((mine && records >= 2) || Date.now() - started > 90_000) {
          clearInterval(poll);
          p.kill('SIGKILL');
          holds();
          // Its lease as it died: nobody may take the partition before that.
          const row = mine && (await partitions(pgUrl, name))[mine.part]!;
          if (row && ownerPid(row.owner) === p.pid) killed = { part: row.part, records, pid: p.pid!, leaseUntil: Number(row.leaseUntil) };
          noted();
        }
      })()
        .catch(() => noted())
        .finally(() => (busy = false));
    }, 50);
  });
  // The two others start once the first holds a partition, so that it has one to die in.
  await holding;
  const others = Array.from({ length: FETCHERS - 1 }, () => hazelnut(['fetch', seg], db));
  const v = await victim;
  const diedAt = Date.now();
  assert.is(v.signal, 'SIGKILL');
  await killNoted;
  assert.ok(killed, `the fetcher was killed holding a partition\n${v.err}`);
  const { part, pid, leaseUntil } = killed;
  // Who holds the dead fetcher's partition next, and since when (a claim sets the lease to claim time + LEASE).
  let takenAt: number | undefined;
  let watching = true;
  const watch = (async () => {
    while (watching && takenAt === undefined) {
      const row = (await partitions(pgUrl, name))[part]!;
      if (ownerPid(row.owner) !== pid) takenAt = Number(row.leaseUntil) - LEASE * 1000;
      else await sleep(100);
    }
  })();
  try {
    for (const r of await Promise.all(others)) assert.is(r.code, 0, r.err);
    // The others may have finished while the lease still ran: a fetcher started now takes the rest once it has run out.
    const deadline = Date.now() + (LEASE + 60) * 1000;
    while ((await partitions(pgUrl, name)).some((x) => x.done === null) && Date.now() < deadline) {
      const r = await hazelnut(['fetch', seg], db);
      assert.is(r.code, 0, r.err);
      if ((await partitions(pgUrl, name)).some((x) => x.done === null)) await sleep(500);
    }
  } finally {
    watching = false;
    await watch;
  }
  const after = await partitions(pgUrl, name);
  assert.ok(
    after.every((x) => x.done !== null),
    `every partition fetched: ${JSON.stringify(after)}`,
  );
  assert.ok(ownerPid(after[part]!.owner) !== pid, `partition ${part} finished by another fetcher (${after[part]!.owner})`);
  // A live holder's lease is never taken; a dead one's is taken once it runs out, or at once by a
  // fetcher of this machine that sees the holder's process gone (crawler/fetch/leases.ts).
  assert.ok(takenAt !== undefined && takenAt >= Math.min(leaseUntil, diedAt - 1000), `partition ${part} taken over at ${takenAt}, after its fetcher died at ${diedAt} (lease to ${leaseUntil})`);
  const segment = Segment.open(seg, { readonly: true });
  try {
    const inPart = [...segment.fetchlist()].filter((e) => segment.partHosts().get(e.host) === part).length;
    assert.ok(killed.records < inPart, `killed mid-partition: ${killed.records} of ${inPart} URLs fetched`);
    assert.is(fetchedIn(seg, part), inPart, 'the partition holds each of its URLs once');
    assert.ok(segment.hasPhase('fetched'), 'the segment is fetched');
    assert.is(segment.count('fetch'), [...segment.fetchlist()].length, 'no URL fetched twice');
  } finally {
    segment.close();
  }
}

test('on one machine: SQLite, one fetcher, one index', async () => {
  await ok(['inject', 'single/webdb', 'seeds.txt']);
  for (let round = 0; round < 2; round++) {
    await ok(['generate', 'single/webdb', 'single/segments']);
    const seg = newestSegment('single');
    await ok(['fetch', seg]);
    await ok(['updatedb', 'single/webdb', seg]);
  }
  await ok(['invertlinks', 'single/webdb', '-dir', 'single/segments']);
  await ok(['linkrank', 'single/webdb']);
  await ok(['index', 'single/webdb', '-dir', 'single/segments']);
  await ok(['dedup', '-dir', 'single/segments']);
  await ok(['merge', 'single/index', '-dir', 'single/segments']);
  const s = await startSearcher(['-dir', 'single', '-host', SEARCH_HOST, '-port', '0'], tmp);
  procs.add(s.proc);
  singleBase = s.base;
});

test('on PostgreSQL with three fetcher processes: one killed mid-partition, its partition finished by another after the lease', async () => {
  pgUrl = await server!.createDatabase('cluster');
  const db = { 'webdb.url': pgUrl };
  await ok(['inject', pgUrl, 'seeds.txt'], db);
  for (let round = 0; round < 2; round++) {
    await ok(['generate', pgUrl, 'cluster/segments', '-numFetchers', String(FETCHERS)], db);
    const seg = newestSegment('cluster');
    const name = path.basename(seg);
    if (round === 0) {
      const runs = await Promise.all(Array.from({ length: FETCHERS }, () => hazelnut(['fetch', seg], db)));
      for (const r of runs) assert.is(r.code, 0, r.err);
    } else {
      await fetchWithOneKilled(seg, db);
    }
    await ok(['updatedb', pgUrl, seg], db);
  }
  await ok(['invertlinks', pgUrl, '-dir', 'cluster/segments'], db);
  await ok(['linkrank', pgUrl], db);
  await ok(['index', pgUrl, '-dir', 'cluster/segments'], db);
  await ok(['dedup', '-dir', 'cluster/segments'], db);
  const merged = await ok(['merge', 'cluster/shards', '-dir', 'cluster/segments', '-shards', '2'], db);
  assert.match(merged, /shard 1 of 2: \d+ documents/);
});

test('two shards behind a broker: the top 10 of the single machine for every query', async () => {
  const shards = [];
  shardIndexes = [0, 1].map((i) => shardIndexDir(path.join(tmp, 'cluster', 'shards'), i));
  for (const i of [0, 1]) {
    const s = await startSearcher(['-dir', 'cluster', '-index', shardIndexes[i]!, '-shard', '-host', SEARCH_HOST, '-port', '0'], tmp);
    procs.add(s.proc);
    shards.push(s);
  }
  const b = await startSearcher(['-shards', shards.map((s) => new URL(s.base).host).join(','), '-host', SEARCH_HOST, '-port', '0'], tmp);
  procs.add(b.proc);
  brokerBase = b.base;
  const search = async (base: string, q: string) => {
    const res = await fetch(`${base}/api/search?query=${encodeURIComponent(q)}`, { signal: AbortSignal.timeout(30_000) });
    assert.is(res.status, 200, `${base}: ${q}`);
    return (await res.json()) as { hits: { url: string }[]; total: number; notice?: string | null };
  };
  let nonEmpty = 0;
  for (const q of QUERIES) {
    const [one, many] = [await search(singleBase, q), await search(brokerBase, q)];
    assert.equal(
      many.hits.map((h) => h.url),
      one.hits.map((h) => h.url),
      q,
    );
    assert.is(many.total, one.total, `${q}: total`);
    assert.not.ok(many.notice, `${q}: no notice`);
    if (one.hits.length >= 5) nonEmpty++;
  }
  assert.ok(nonEmpty >= QUERIES.length - 2, `${nonEmpty} queries with 5 hits or more`);
});

test('a replica killed during a load: every answer whole, no partial result, no 5xx', async () => {
  const replicas: { proc: ChildProcess; base: string }[] = [];
  for (const i of [0, 1, 0, 1]) {
    const s = await startSearcher(['-dir', 'cluster', '-index', shardIndexes[i]!, '-shard', '-host', SEARCH_HOST, '-port', '0'], tmp);
    procs.add(s.proc);
    replicas.push(s);
  }
  const host = (k: number) => new URL(replicas[k]!.base).host;
  const b = await startSearcher(['-shards', `${host(0)}|${host(2)},${host(1)}|${host(3)}`, '-host', SEARCH_HOST, '-port', '0'], tmp);
  procs.add(b.proc);
  const want = new Map<string, string[]>();
  for (const q of QUERIES) {
    const res = await fetch(`${singleBase}/api/search?query=${encodeURIComponent(q)}`, { signal: AbortSignal.timeout(30_000) });
    want.set(q, ((await res.json()) as { hits: { url: string }[] }).hits.map((h) => h.url));
  }
  const answers: { q: string; status: number; urls: string[]; notice: string | null; at: number }[] = [];
  const until = Date.now() + 6000;
  // Four clients, each one query at a time, for 6 s and 400 queries at most; the first replica of shard 0 dies at 2 s.
  const client = async (c: number) => {
    for (let n = 0; n < 100 && Date.now() < until; n++) {
      const q = QUERIES[(c * 7 + n) % QUERIES.length]!;
      const res = await fetch(`${b.base}/api/search?query=${encodeURIComponent(q)}`, { signal: AbortSignal.timeout(30_000) });
      const body = (await res.json()) as { hits?: { url: string }[]; notice?: string | null };
      answers.push({ q, status: res.status, urls: (body.hits ?? []).map((h) => h.url), notice: body.notice ?? null, at: Date.now() });
    }
  };
  let killedAt = Infinity;
  const killer = sleep(2000).then(() => {
    replicas[0]!.proc.kill('SIGKILL');
    killedAt = Date.now();
  });
  await Promise.all([killer, ...[0, 1, 2, 3].map(client)]);
  const after = answers.filter((a) => a.at > killedAt).length;
  assert.ok(answers.length - after >= 10 && after >= 10, `${answers.length - after} answers before the kill, ${after} after`);
  for (const a of answers) {
    assert.is(a.status, 200, a.q);
    assert.is(a.notice, null, `${a.q}: no notice`);
    assert.equal(a.urls, want.get(a.q), a.q);
  }
});

test.run();
