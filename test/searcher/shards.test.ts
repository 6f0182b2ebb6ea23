/**
 * Search over shards: the judged corpus merged once into one index and once
 * into two shard indexes (merge -shards 2), served by one searcher and by
 * two shard searchers behind a broker, all real processes over HTTP on
 * loopback. The broker's first page must be the single searcher's (URLs,
 * order, scores), for plain, phrase, site: and partial-match queries; cached
 * pages and explain come through it; a shard stopped mid-test leaves
 * partial results with a notice (seen in Chromium too), never a 500; a
 * slow shard is left out after the timeout; a new generation on a shard is
 * picked up, its cached statistics dropped; a query costs each shard one
 * call; a shard refuses a broker of another release.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium } from 'playwright-core';
import { FOLDED_FILE } from '../../crawler/folded-index.js';
import { merge, shardOf } from '../../crawler/merge.js';
import { Conf } from '../../shared/conf.js';
import { currentIndex } from '../../shared/index/publish.js';
import { DELETED_FILE, packColumns, writeIndexFile } from '../../shared/index/format.js';
import { openIndex, readDeleted } from '../../shared/index/reader.js';
import { segmentIndexDir, shardIndexDir } from '../../shared/crawl-dir.js';
import { startSearcher } from '../fixtures/searcher-process.js';
import { serveShards, type ShardedSearch } from '../fixtures/sharded-search.js';
import { JUDGED_QUERIES } from '../judged/queries.js';
import { tempCrawlDir } from './crawl-fixture.js';
import { buildJudgedCrawl } from './judged-crawl.js';

const HOST = '127.0.6.60';
let dir = '';
let wholeSegmentIndex = '';
const procs: ChildProcess[] = [];
let single = '';
let broker = '';
let shards: ShardedSearch['shards'] = [];
let sharded: ShardedSearch | undefined;

const QUERIES = [
  ...JUDGED_QUERIES.slice(0, 12).map((q) => q.q),
  '"disk buffer"',
  '"stack traces" multiline',
  'site:docs.judged.test install',
  'site:wiki.judged.test -linux',
  'lantern',
  'configuration',
  'lantern zzqxv',
  'multilin stak traces',
  'elasticsearh bulk',
  'install OR upgrade',
];

async function start(args: string[]) {
  const s = await startSearcher([...args, '-host', HOST, '-port', '0'], dir);
  procs.push(s.proc);
  return s;
}

async function json(base: string, pathAndQuery: string) {
  const res = await fetch(base + pathAndQuery, { signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: (await res.json()) as { hits: { url: string; score: number; title: string; summary: string; siteName: string }[]; total: number; didYouMean?: string | null; notice?: string | null; shards?: { answered: number; asked: number } } };
}

const search = (base: string, q: string, more = '') => json(base, `/api/search?query=${encodeURIComponent(q)}${more}`);

test.before(async () => {
  dir = tempCrawlDir();
  await buildJudgedCrawl(dir);
  // The published index as the crawl's one segment index, so merge reads it as the crawler leaves it.
  const seg = fs.readdirSync(path.join(dir, 'segments'))[0]!;
  const segDir = path.join(dir, 'segments', seg);
  const segIndex = segmentIndexDir(segDir);
  fs.cpSync(currentIndex(path.join(dir, 'index'))!.dir, segIndex, { recursive: true });
  // The crawl's merge folded the segment's index: whole again, and kept so, since the merges below fold it.
  fs.rmSync(path.join(segIndex, FOLDED_FILE), { force: true });
  wholeSegmentIndex = path.join(dir, 'whole-segment-index');
  fs.cpSync(segIndex, wholeSegmentIndex, { recursive: true });
  const conf = Conf.load();
  await merge(conf, { index: path.join(dir, 'index'), segments: [segDir] });
  single = (await start(['-dir', dir])).base;
  sharded = await serveShards(conf, dir, 2, HOST);
  shards = sharded.shards;
  broker = sharded.broker.base;
});

test.after(() => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
  sharded?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('merge -shards splits the documents by URL hash, every document in exactly one shard', async () => {
  const whole = await openIndex(currentIndex(path.join(dir, 'index'))!.dir);
  const parts = await Promise.all([0, 1].map(async (i) => openIndex(currentIndex(shardIndexDir(path.join(dir, 'shards'), i))!.dir)));
  try {
    assert.equal(parts[0]!.meta.docCount + parts[1]!.meta.docCount, whole.meta.docCount);
    assert.ok(parts[0]!.meta.docCount > 0 && parts[1]!.meta.docCount > 0, 'both shards hold documents');
    for (let i = 0; i < 2; i++) for (let id = 0; id < parts[i]!.meta.docCount; id++) assert.is(shardOf(parts[i]!.doc(id).url, 2), i);
  } finally {
    whole.close();
    for (const p of parts) p.close();
  }
});

test('two shards behind a broker give the top 10 of one searcher over the same crawl', async () => {
  for (const q of QUERIES) {
    for (const more of ['', '&hitsPerSite=0']) {
      const [a, b] = await Promise.all([search(single, q, more), search(broker, q, more)]);
      assert.is(b.status, 200, q);
      assert.equal(
        b.body.hits.map((h) => h.url),
        a.body.hits.map((h) => h.url),
        `${q}${more}`,
      );
      a.body.hits.forEach((h, i) => assert.ok(Math.abs(h.score - b.body.hits[i]!.score) <= 1e-3, `${q}: ${h.url} ${h.score} vs ${b.body.hits[i]!.score}`));
      assert.equal(
        b.body.hits.map((h) => [h.title, h.summary, h.siteName]),
        a.body.hits.map((h) => [h.title, h.summary, h.siteName]),
        `${q}: titles, summaries and site names`,
      );
      assert.is(b.body.total, a.body.total, `${q}: total`);
      assert.is(b.body.didYouMean, a.body.didYouMean, `${q}: did you mean`);
      if (/elasticsearh|multilin stak/.test(q)) assert.ok(a.body.didYouMean, `${q}: a misspelling is corrected`);
      assert.is(b.body.notice, null);
      assert.equal(b.body.shards, { asked: 2, answered: 2, missing: [] });
    }
  }
});

test('paging across shards gives the single searcher pages', async () => {
  for (const start of [10, 20]) {
    const [a, b] = await Promise.all([search(single, 'lantern', `&start=${start}`), search(broker, 'lantern', `&start=${start}`)]);
    assert.equal(
      b.body.hits.map((h) => h.url),
      a.body.hits.map((h) => h.url),
    );
  }
});

test('cached pages and explain come through the broker from the shard holding the page', async () => {
  const top = (await search(single, 'disk buffer')).body.hits[0]!.url;
  for (const p of [`/cached?url=${encodeURIComponent(top)}`, `/explain?url=${encodeURIComponent(top)}&query=disk%20buffer`]) {
    const [a, b] = await Promise.all([fetch(single + p), fetch(broker + p)]);
    assert.is(b.status, 200, p);
    assert.is(b.headers.get('content-security-policy'), a.headers.get('content-security-policy'), p);
    assert.is(b.headers.get('x-content-type-options'), 'nosniff', p);
    const [ta, tb] = [await a.text(), await b.text()];
    if (p.startsWith('/cached')) assert.is(tb, ta);
    else {
      // Explain scores with statistics over both shards: the same IDFs as one index, to the rounding the page prints.
      const scores = (t: string) => [...t.matchAll(/<td>idf<\/td><td>([\d.]+)/g)].map((m) => m[1]);
      assert.equal(scores(tb), scores(ta));
      assert.ok(tb.includes('Explanation for'));
    }
  }
  // Anchors pass through as the shard holding the page renders them; the RSS feed lists the single searcher's hits.
  const anchors = `/anchors?url=${encodeURIComponent(top)}`;
  assert.is(await (await fetch(broker + anchors)).text(), await (await fetch(single + anchors)).text());
  const links = async (base: string) => [...(await (await fetch(base + '/opensearch?query=disk+buffer')).text()).matchAll(/<link>([^<]*)<\/link>/g)].slice(1).map((m) => m[1]);
  const feed = await links(broker);
  assert.ok(feed.length > 0);
  assert.equal(feed, await links(single));
  const missing = await fetch(broker + '/cached?url=' + encodeURIComponent('http://nowhere.test/'));
  assert.is(missing.status, 404);
});

test('the search page through the broker', async () => {
  const res = await fetch(broker + '/search?query=disk+buffer');
  assert.is(res.status, 200);
  const html = await res.text();
  assert.ok(html.includes('class="hits"'));
  assert.not.ok(html.includes('Partial results'));
  // The front page and /stats count the documents of every shard.
  const stats = async (base: string) => (await (await fetch(base + '/stats?format=json')).json()) as { documents: number; shards?: { answered: number } };
  const [a, b] = [await stats(single), await stats(broker)];
  assert.is(b.documents, a.documents);
  assert.is(b.shards?.answered, 2);
  assert.is((await fetch(broker + '/')).status, 200);
});

async function version(base: string): Promise<string> {
  return ((await (await fetch(base + '/stats?format=json')).json()) as { version: string }).version;
}

async function until(what: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A loopback HTTP proxy in front of `target` that notes each call (`<name> METHOD path`) it passes on. */
async function countingProxy(name: string, target: string, calls: string[]) {
  const server = http.createServer((req, res) => {
    calls.push(`${name} ${req.method} ${req.url}`);
    const up = http.request(target + req.url, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, HOST, r));
  return {
    host: `${HOST}:${(server.address() as { port: number }).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

test('a query costs each shard one call once its words are known, and ranks as one searcher', async () => {
  const calls: string[] = [];
  const proxies = await Promise.all(shards.map((s, i) => countingProxy(String(i), s.base, calls)));
  const b = await start(['-shards', proxies.map((p) => p.host).join(',')]);
  try {
    for (const q of ['lantern windows service', '"disk buffer"', 'install OR upgrade', 'configuration']) {
      await search(b.base, q);
      calls.length = 0;
      const [a, again] = await Promise.all([search(single, q), search(b.base, q, '&hitsPerSite=0')]);
      assert.equal(calls.sort(), ['0 POST /shard/query', '1 POST /shard/query'], q);
      assert.equal(
        again.body.hits.map((h) => h.url),
        (await search(single, q, '&hitsPerSite=0')).body.hits.map((h) => h.url),
        q,
      );
      assert.ok(a.body.hits.length > 0, q);
    }
  } finally {
    b.proc.kill('SIGKILL');
    for (const p of proxies) p.close();
  }
});

test('a shard refuses a broker of another release with a message, and names its protocol', async () => {
  const post = (path: string, body: unknown) => fetch(shards[0]!.base + path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  for (const [path, body, theirs] of [
    ['/shard/search', { query: 'lantern' }, 'an older protocol'],
    ['/shard/query', { protocol: 1, query: 'lantern' }, 'protocol 1'],
    ['/shard/df', { terms: ['lantern'] }, 'an older protocol'],
  ] as const) {
    const r = await post(path, body);
    assert.is(r.status, 409, path);
    assert.is(((await r.json()) as { error: string }).error, `this shard speaks broker protocol 2 and the broker ${theirs}: run the same hazelnut release on the broker and its shards`);
  }
  assert.is(((await (await fetch(shards[0]!.base + '/shard/stats')).json()) as { protocol: number }).protocol, 2);
});

test('a shard that switches to a new index generation is picked up, with statistics over the new collection', async () => {
  const conf = Conf.load();
  const segDir = path.join(dir, 'segments', fs.readdirSync(path.join(dir, 'segments'))[0]!);
  // Both the single index and shard 0 lose the install pages of shard 0: the collection changes under the broker's cached statistics.
  const gone = (url: string) => shardOf(url, 2) === 0 && url.includes('install');
  const [before0, beforeSingle] = [await version(shards[0]!.base), await version(single)];
  const queries = ['install lantern linux', 'lantern windows service', 'docker container image'];
  // The broker knows these words' frequencies of the old generation before the switch.
  for (const q of queries) assert.equal((await search(broker, q)).body.hits.map((h) => h.url), (await search(single, q)).body.hits.map((h) => h.url), `${q}, before`);
  // Pages deleted in the segment index as dedup deletes them are left out by merge: the single index without
  // the gone pages, then shard 0 alone, merged from the segment with every other shard's page deleted too.
  const segIndex = segmentIndexDir(segDir);
  const restore = () => {
    fs.rmSync(segIndex, { recursive: true });
    fs.cpSync(wholeSegmentIndex, segIndex, { recursive: true });
  };
  restore();
  const seg = await openIndex(segIndex);
  const urls = Array.from({ length: seg.meta.docCount }, (_, id) => seg.doc(id).url);
  seg.close();
  const deleted = readDeleted(segIndex);
  const deleteAlso = (drop: (url: string) => boolean) => {
    const ids = urls.flatMap((u, id) => (deleted.has(id) || drop(u) ? [id] : []));
    writeIndexFile(segIndex, DELETED_FILE, packColumns({ ids: Uint32Array.from(ids) }));
  };
  deleteAlso(gone);
  await merge(conf, { index: path.join(dir, 'index'), segments: [segDir] });
  restore();
  deleteAlso((url) => gone(url) || shardOf(url, 2) !== 0);
  await merge(conf, { index: shardIndexDir(path.join(dir, 'shards'), 0), segments: [segDir] });
  deleteAlso(gone);
  await until(async () => (await version(shards[0]!.base)) !== before0 && (await version(single)) !== beforeSingle, 20_000);
  for (const q of queries) {
    const [a, b] = await Promise.all([search(single, q), search(broker, q)]);
    assert.ok(!b.body.hits.some((h) => gone(h.url)), `${q}: no page of the old generation`);
    assert.equal(
      b.body.hits.map((h) => h.url),
      a.body.hits.map((h) => h.url),
      q,
    );
    a.body.hits.forEach((h, i) => assert.ok(Math.abs(h.score - b.body.hits[i]!.score) <= 1e-3, `${q}: ${h.url} ${h.score} vs ${b.body.hits[i]!.score}`));
  }
});

test('a slow shard is left out after searcher.shards.timeout, with the notice', async () => {
  const slow = (await start(['-D', 'searcher.shards.timeout=1s', '-shards', shards.map((s) => new URL(s.base).host).join(',')])).base;
  assert.is((await search(slow, 'lantern')).body.shards?.answered, 2);
  shards[1]!.proc.kill('SIGSTOP');
  try {
    const r = await search(slow, 'lantern');
    assert.is(r.status, 200);
    assert.match(String(r.body.notice), /1 of 2 shards did not answer \(127\.0\.6\.60:\d+: no answer within 1000 ms\)/);
    assert.ok(r.body.hits.length > 0 && r.body.hits.every((h) => shardOf(h.url, 2) === 0));
  } finally {
    shards[1]!.proc.kill('SIGCONT');
  }
});

test('a shard stopped mid-test: partial results with a notice, no 500', async () => {
  const stopped = shards[1]!;
  stopped.proc.kill('SIGTERM');
  await new Promise((r) => stopped.proc.once('exit', r));
  const full = await search(single, 'lantern', '&hitsPerSite=0&hitsPerPage=50');
  const r = await search(broker, 'lantern', '&hitsPerSite=0&hitsPerPage=50');
  assert.is(r.status, 200);
  assert.ok(r.body.notice && /1 of 2 shards did not answer/.test(r.body.notice), String(r.body.notice));
  assert.equal(r.body.shards && { answered: r.body.shards.answered, asked: r.body.shards.asked }, { answered: 1, asked: 2 });
  assert.ok(r.body.hits.length > 0);
  for (const h of r.body.hits) assert.is(shardOf(h.url, 2), 0, `${h.url} comes from the shard that answered`);
  assert.ok(r.body.total < full.body.total);
  const page = await fetch(broker + '/search?query=lantern');
  assert.is(page.status, 200);
  assert.match(await page.text(), /class="notice" role="status">Partial results: 1 of 2 shards did not answer/);
  const gone = (await search(single, 'lantern', '&hitsPerSite=0&hitsPerPage=50')).body.hits.find((h) => shardOf(h.url, 2) === 1)!.url;
  assert.is((await fetch(broker + '/cached?url=' + encodeURIComponent(gone))).status, 404);
});

test('in Chromium with a shard down: the notice above the hits, and a cached copy from the shard that answered', async () => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const ctx = await browser.newContext();
    // Only the broker is reached: the judged sites' own hosts never are.
    await ctx.route((u) => u.host !== new URL(broker).host, (r) => r.abort());
    const page = await ctx.newPage();
    await page.goto(`${broker}/`);
    await page.getByLabel('Search').fill('lantern');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?query=lantern/);
    assert.match((await page.getByRole('status').first().textContent()) ?? '', /Partial results: 1 of 2 shards did not answer/);
    assert.ok(await page.getByRole('status').first().isVisible());
    const first = await page.locator('li.hit h2 a').allTextContents();
    assert.ok(first.length > 0);
    await page.locator('li.hit .links').first().getByRole('link', { name: 'cached' }).click();
    await page.waitForURL(/\/cached\?url=/);
    assert.match((await page.locator('[role=note]').textContent()) ?? '', /cached copy of http:\/\/\w+\.judged\.test\//);
  } finally {
    await browser.close();
  }
});

test('with no shard answering the broker says so: 503, not 500', async () => {
  shards[0]!.proc.kill('SIGTERM');
  await new Promise((r) => shards[0]!.proc.once('exit', r));
  const r = await fetch(broker + '/api/search?query=lantern');
  assert.is(r.status, 503);
  assert.match(((await r.json()) as { error: string }).error, /no shard answered/);
  assert.is((await fetch(broker + '/search?query=lantern')).status, 503);
});

test.run();
