import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../../crawler/cli.js';
import { invertlinks } from '../../../crawler/invertlinks.js';
import readlinkdbTool from '../../../crawler/readlinkdb.js';
import { linkrank } from '../../../crawler/linkrank.js';
import '../../../crawler/builtins.js';
import { loadCrawlerPlugins } from '../../../crawler/plugin/chains.js';
import updatedbTool, { updatedb } from '../../../crawler/updatedb/tool.js';
import type { PageRow } from '../../../crawler/webdb/webdb.js';
import { webDbSql } from '../../fixtures/webdb-sql.js';
import { Conf } from '../../../shared/conf.js';
import { Segment, type ParseRecord, type Phase } from '../../../segments/segment.js';
import { SegmentWriter } from '../../../segments/segment-writer.js';
import type { FetchStatus } from '../../../shared/page-status.js';
import type { Tool } from '../../../shared/command.js';

const H1 = 'http://127.0.4.1';
const H2 = 'http://127.0.4.2';
const A = `${H1}/`;
const B = `${H2}/b`;
const C = `${H2}/c`;
const R = `${H1}/r`;
const T = `${H2}/t`;
const G = `${H1}/gone`;
const X = `${H1}/flaky`;
const M = `${H1}/refresh`;
const MT = `${H1}/refreshed`;
const NOW = Date.UTC(2024, 0, 10);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-updatedb-'));
const crawl = path.join(tmp, 'crawl');
const webdb = path.join(crawl, 'webdb');
const segments = path.join(crawl, 'segments');
const conf = Conf.load().with({ 'db.ignore.internal.links': 'false' });

function seed(urls: string[]) {
  const db = webDbSql(webdb);
  const ins = db.prepare(
    "INSERT INTO pages (url, host, status, fetch_time, fetch_interval, retries, score) VALUES (?, ?, 'db_unfetched', ?, 2592000, 0, 1)",
  );
  for (const u of urls) ins.run(u, new URL(u).hostname, NOW - 1000);
  db.close();
}

function parse(url: string, over: Partial<ParseRecord> = {}): ParseRecord {
  return { url, status: 'success', title: url, text: `text of ${url}`, lang: 'en', signature: `sig-${url}`, outlinks: [], meta: {}, ...over };
}

async function makeSegment(at: number, pages: { url: string; status: FetchStatus; redirectTo?: string; parse?: ParseRecord }[], phases: readonly Phase[] = ['generated', 'fetched', 'parsed']) {
  const seg = Segment.create(segments, new Date(at));
  seg.addFetchlist(pages.map((p) => ({ url: p.url, host: new URL(p.url).hostname, score: 1, datum: { fetch_interval: 2592000, retries: 0 } })));
  const writer = new SegmentWriter(seg);
  for (const p of pages)
    writer.put(
      { url: p.url, status: p.status, protocolStatus: 'success', httpStatus: 200, fetchTime: NOW, headers: { etag: `"${p.url}"` }, redirectTo: p.redirectTo ?? null },
      p.parse ? { url: p.url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from('<p>x</p>'), truncated: false } : undefined,
      p.parse,
    );
  await writer.close();
  for (const ph of phases) seg.markPhase(ph);
  const dir = seg.dir;
  seg.close();
  return dir;
}

function pages(): Record<string, PageRow> {
  const db = webDbSql(webdb, { readonly: true });
  const rows = db.prepare('SELECT * FROM pages').all() as PageRow[];
  db.close();
  return Object.fromEntries(rows.map((r) => [r.url, r]));
}

function query<T>(sql: string, ...args: unknown[]): T[] {
  const db = webDbSql(webdb, { readonly: true });
  const rows = db.prepare(sql).all(...args) as T[];
  db.close();
  return rows;
}

async function cli(...argv: string[]) {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.on('data', (d) => (o += d));
  err.on('data', (d) => (e += d));
  const code = await main(argv, { out, err, tty: false, env: {} });
  return { code, out: o, err: e };
}

let seg1 = '';

/** Wrong arguments are a usage error (the CLI prints the usage and exits 2). */
async function usageError(tool: Tool, args: string[]) {
  const ctx = { conf, out: new PassThrough(), err: new PassThrough(), tty: false, confOverrides: {} };
  const e = await tool.run(ctx, args).then(() => undefined, (x: unknown) => x);
  assert.is((e as { code?: string } | undefined)?.code, 'HZ_ERR_USAGE');
}

test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('updatedb applies fetches, redirects, meta refresh and outlinks in one go', async () => {
  seed([A, R, G, X, M]);
  seg1 = await makeSegment(NOW, [
    { url: A, status: 'fetch_success', parse: parse(A, { outlinks: [{ url: B, anchor: 'Bee' }, { url: C, anchor: 'Home', nav: true }], meta: { outlinkCount: 2 } }) },
    { url: R, status: 'fetch_redir_perm', redirectTo: T },
    { url: G, status: 'fetch_gone' },
    { url: X, status: 'fetch_retry' },
    { url: M, status: 'fetch_success', parse: parse(M, { meta: { refresh: { url: MT, delay: 0 } } }) },
  ]);
  const s = await updatedb(conf, { webdb, segments: [seg1], now: NOW });
  assert.equal(s.applied, [path.basename(seg1)]);
  assert.is(s.fetched, 5);
  assert.is(s.added, 4, 'B, C, T and the refresh target are new');
  const p = pages();
  assert.is(p[A]!.status, 'db_fetched');
  assert.is(p[A]!.score, 0, 'A spent its cash on B and C');
  assert.is(p[A]!.etag, `"${A}"`);
  assert.is(p[A]!.signature, `sig-${A}`);
  assert.is(p[B]!.status, 'db_unfetched');
  assert.is(p[B]!.score, 0.5);
  assert.is(p[C]!.score, 0.5, 'navigation links still receive OPIC cash and are crawled');
  assert.is(p[R]!.status, 'db_redir_perm');
  assert.is(p[T]!.status, 'db_unfetched');
  assert.is(p[T]!.score, 1, 'a redirect target takes over the source cash');
  assert.is(p[G]!.status, 'db_gone');
  assert.is(p[X]!.status, 'db_unfetched');
  assert.is(p[X]!.retries, 1);
  assert.is(p[M]!.status, 'db_redir_temp', 'a 0 s meta refresh is a temporary redirect');
  assert.is(p[MT]!.status, 'db_unfetched');
  for (const u of [A, R, G, X, M]) assert.is(p[u]!.generate_time, null);
  const key = (l: object) => JSON.stringify(l);
  assert.equal(
    query<object>('SELECT source, target, anchor, nav FROM links').map(key).sort(),
    [
      { source: A, target: B, anchor: 'Bee', nav: 0 },
      { source: A, target: C, anchor: 'Home', nav: 1 },
      { source: R, target: T, anchor: '', nav: 0 },
      { source: M, target: MT, anchor: '', nav: 0 },
    ].map(key).sort(),
  );
});

test('applying the same segment twice changes nothing the second time', async () => {
  const before = pages();
  const s = await updatedb(conf, { webdb, segments: [seg1], now: NOW + 5000 });
  assert.equal(s.applied, []);
  assert.equal(s.skipped, { [path.basename(seg1)]: 'already applied' });
  assert.equal(pages(), before);
});

test('a segment not yet parsed is skipped', async () => {
  const dir = await makeSegment(NOW + 1000, [{ url: B, status: 'fetch_success' }], ['generated', 'fetched']);
  const s = await updatedb(conf, { webdb, segments: [dir], now: NOW });
  assert.equal(s.skipped, { [path.basename(dir)]: 'not parsed' });
  fs.rmSync(dir, { recursive: true });
});

test('a re-parsed page replaces its links; a gone page loses them', async () => {
  const dir = await makeSegment(NOW + 2000, [
    { url: A, status: 'fetch_success', parse: parse(A, { signature: 'sig-2', outlinks: [{ url: T, anchor: 'Tee' }] }) },
    { url: M, status: 'fetch_gone' },
  ]);
  await updatedb(conf, { webdb, segments: [dir], now: NOW });
  assert.equal(query('SELECT source, target FROM links WHERE source IN (?, ?)', A, M), [{ source: A, target: T }]);
  assert.is(pages()[A]!.status, 'db_fetched', 'a changed signature keeps it fetched');
});

test('invertlinks builds inlinks and anchors from the links of the applied segments; navigation links left out', async () => {
  const all = fs.readdirSync(segments).map((n) => path.join(segments, n));
  const s = await invertlinks(conf, { webdb, segments: all });
  assert.is(s.applied.length, 2);
  assert.equal(
    query('SELECT target, source, anchor FROM inlinks ORDER BY target, source'),
    [
      { target: T, source: A, anchor: 'Tee' },
      { target: T, source: R, anchor: '' },
    ],
  );
  const again = await invertlinks(conf, { webdb, segments: all });
  assert.is(again.applied.length, 0);
});

test('readlinkdb -url and -dump', async () => {
  const r = await cli('readlinkdb', webdb, '-url', T);
  assert.is(r.code, 0);
  assert.ok(r.out.includes(` fromUrl: ${A} anchor: Tee`), r.out);
  const none = await cli('readlinkdb', webdb, '-url', `${H1}/nothing`);
  assert.is(none.out, ' - no link information.\n');
  const out = path.join(tmp, 'linkdump');
  assert.is((await cli('readlinkdb', webdb, '-dump', out)).code, 0);
  assert.match(fs.readFileSync(path.join(out, 'part-00000'), 'utf8'), `${T}\tInlinks:\n`);
  await usageError(readlinkdbTool, [webdb]);
});

test('linkrank stores scores with mean 1 over the crawl, or over each site\'s fetched pages, content links only', async () => {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const s = await linkrank(conf.with({ 'linkrank.within.site': 'false' }), { webdb });
  const p = pages();
  const scores = Object.values(p).map((r) => r.link_score);
  assert.is(s.pages, scores.length);
  assert.ok(Math.abs(mean(scores) - 1) < 1e-9);
  assert.ok(p[T]!.link_score > p[C]!.link_score, 'T has content inlinks, C only a navigation one');
  assert.ok(Math.abs(p[C]!.link_score - p[B]!.link_score) < 1e-12, 'B lost its link when A was re-parsed');
  await linkrank(conf, { webdb });
  const within = pages();
  const fetched = Object.entries(within).filter(([url, r]) => url.startsWith(`${H1}/`) && r.status === 'db_fetched');
  // One copy of each content, the best scored: what dedup leaves in the index.
  const best = new Map<string | null, number>();
  for (const [, r] of fetched) best.set(r.signature, Math.max(best.get(r.signature) ?? 0, r.link_score));
  assert.is(best.size, 1, `${H1}: its one fetched page`);
  assert.ok(Math.abs(mean([...best.values()]) - 1) < 1e-9, `${H1}: the mean of its fetched contents`);
  const ratio = within[A]!.link_score / p[A]!.link_score;
  assert.ok(Math.abs(ratio - 1) > 0.01, 'the site scaled');
  for (const url of Object.keys(within).filter((u) => u.startsWith(`${H1}/`))) assert.ok(Math.abs(within[url]!.link_score / p[url]!.link_score - ratio) < 1e-9, `${url}: one factor a site`);
  // Nothing of H2 was fetched: its pages keep the crawl-wide scores.
  for (const url of [B, C, T]) assert.is(within[url]!.link_score, p[url]!.link_score);
});

test('readseg -list, -get and -dump with the general options', async () => {
  const list = await cli('readseg', '-list', '-dir', segments);
  assert.is(list.code, 0);
  assert.match(list.out, new RegExp(`${path.basename(seg1)}\\t5\\t`));
  const get = await cli('readseg', '-get', seg1, A, '-nocontent');
  assert.is(get.code, 0);
  assert.match(get.out, 'outlink: toUrl: http://127.0.4.2/c anchor: Home (navigation)');
  assert.not.match(get.out, 'Content::');
  const only = await cli('readseg', '-get', seg1, A, '-nogenerate', '-nofetch', '-nocontent', '-noparse', '-noparsedata');
  assert.is(only.out, `Recno:: 0\nURL:: ${A}\n\nParseText::\ntext of ${A}\n\n`);
  const out = path.join(tmp, 'segdump');
  const dump = await cli('readseg', '-dump', seg1, out);
  assert.is(dump.code, 0, dump.err);
  assert.is(fs.readFileSync(path.join(out, 'dump'), 'utf8').match(/^Recno:: /gm)!.length, 5);
  assert.is((await cli('readseg', '-get', seg1, `${H1}/none`)).code, 1);
});

test('an updatedb stopped half-way through a segment leaves the WebDB as before it; the rerun ends as an uninterrupted run', async () => {
  // 2,500 pages each linking to the next five: the merge runs over three batches of URLs.
  const N = 2500;
  const url = (i: number) => `${H1}/many/${i % N}`;
  const dir = await makeSegment(
    NOW + 500_000,
    Array.from({ length: N }, (_, i) => ({
      url: url(i),
      status: 'fetch_success' as const,
      parse: parse(url(i), { outlinks: [1, 2, 3, 4, 5].map((k) => ({ url: url(i + k), anchor: `to ${k}` })) }),
    })),
  );
  const table = (db: string, sql: string) => {
    const h = webDbSql(db, { readonly: true });
    try {
      return h.prepare(sql).all();
    } finally {
      h.close();
    }
  };
  const state = (db: string) => ({
    pages: table(db, 'SELECT * FROM pages ORDER BY url'),
    links: table(db, 'SELECT source, target, anchor, nav FROM links ORDER BY source, target, anchor'),
    applied: table(db, 'SELECT tool, segment FROM applied'),
  });
  const [broken, whole] = [path.join(tmp, 'stopped'), path.join(tmp, 'whole')];
  webDbSql(broken).close();
  webDbSql(whole).close();
  const empty = state(broken);
  const plugins = await loadCrawlerPlugins(conf);
  const scoring = plugins.scoring;
  const score = scoring.updateDbScore.bind(scoring);
  let calls = 0;
  scoring.updateDbScore = (...a) => {
    if (++calls === 1500) throw new Error('stopped');
    return score(...a);
  };
  try {
    await updatedb(conf, { webdb: broken, segments: [dir], plugins, now: NOW }).then(
      () => assert.unreachable('the stopped run fails'),
      (e: Error) => assert.is(e.message, 'stopped'),
    );
  } finally {
    scoring.updateDbScore = score;
  }
  assert.ok(calls >= 1500, 'stopped in the second batch of URLs');
  assert.equal(state(broken), empty, 'nothing of the half-applied segment is visible');
  await updatedb(conf, { webdb: broken, segments: [dir], plugins, now: NOW });
  await updatedb(conf, { webdb: whole, segments: [dir], plugins, now: NOW });
  const after = state(broken);
  assert.is(after.pages.length, N);
  assert.is(after.links.length, 5 * N);
  assert.equal(after, state(whole), 'the rerun applies the whole segment');
  fs.rmSync(dir, { recursive: true });
});

test('updatedb CLI: usage errors and the summary line', async () => {
  await usageError(updatedbTool, [webdb]);
  const r = await cli('updatedb', webdb, '-dir', segments, '-normalize', '-filter');
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /^updatedb: 0 segments applied, 2 skipped/, r.out + r.err);
});

test.run();
