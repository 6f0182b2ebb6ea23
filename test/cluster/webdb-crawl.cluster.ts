/**
 * The WebDB on PostgreSQL end to end, through the real CLI: a one-shot crawl
 * of a loopback web with `-webdb postgresql://...` leaves the same WebDB
 * (readdb -stats and every page of readdb -dump) as the same crawl on
 * SQLite; the step tools take the URL where they take a WebDB directory; a
 * second writer is refused by the advisory lock; an unknown schema version
 * is refused with a clear message.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestWeb, type TestWeb } from '../fixtures/testweb.js';
import { startPostgres, type PgServer } from './postgres.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const HAZELNUT = path.join(root, 'crawler', 'hazelnut.js');
const COMMON = ['-D', 'http.agent.name=hzCluster', '-D', 'fetcher.server.delay=0.01'];

let server: PgServer;
let web: TestWeb;
let tmp: string;

/** Runs the CLI in the temp dir; a run past its time is killed and fails. */
function hazelnut(args: string[], timeoutMs = 120_000): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [HAZELNUT, ...COMMON, ...args], { cwd: tmp, timeout: timeoutMs, maxBuffer: 64 << 20 }, (e, out, err) =>
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, out, err }),
    ),
  );
}

async function ok(args: string[]): Promise<string> {
  const r = await hazelnut(args);
  assert.is(r.code, 0, `hazelnut ${args.join(' ')}\n${r.err}`);
  return r.out;
}

/** readdb -stats without its first line, which names the WebDB. */
async function stats(webdb: string): Promise<string> {
  return (await ok(['readdb', webdb, '-stats', '-sort'])).split('\n').slice(1).join('\n');
}

/** Every page of the WebDB, without the times that depend on when the crawl ran. */
async function dump(webdb: string): Promise<Record<string, unknown>[]> {
  const out = await ok(['readdb', webdb, '-dump', '-', '-format', 'json']);
  return out
    .trim()
    .split('\n')
    .map((l) => {
      const { fetch_time, last_fetch_time, modified_time, generate_time, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return { ...rest, timesSet: [fetch_time, last_fetch_time, modified_time, generate_time].map((t) => t !== null && t !== 0) };
    });
}

/** What differs between two dumps, page by page and field by field (a readable failure). */
function differences(got: Record<string, unknown>[], want: Record<string, unknown>[]): string[] {
  const out: string[] = [];
  const byUrl = new Map(got.map((p) => [p.url as string, p]));
  for (const w of want) {
    const g = byUrl.get(w.url as string);
    if (!g) out.push(`${w.url as string}: missing`);
    else for (const k of Object.keys(w)) if (JSON.stringify(g[k]) !== JSON.stringify(w[k])) out.push(`${w.url as string} ${k}: ${JSON.stringify(g[k])}, want ${JSON.stringify(w[k])}`);
  }
  if (got.length !== want.length) out.push(`${got.length} pages, want ${want.length}`);
  if (out.length === 0 && JSON.stringify(got.map((p) => p.url)) !== JSON.stringify(want.map((p) => p.url))) out.push('pages in another order');
  return out;
}

const page = (title: string, links: string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><p>${title} text</p>${links.map((l) => `<a href="${l}">to ${l}</a>`).join(' ')}</body></html>`;

test.before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-pgcrawl-'));
  server = await startPostgres();
  const hosts: Record<string, { robots?: string; pages: Record<string, string | { status: number; location?: string }> }> = {};
  for (const h of ['a', 'b', 'c']) {
    const pages: Record<string, string | { status: number; location?: string }> = {};
    for (let i = 0; i < 8; i++) pages[i === 0 ? '/' : `/p${i}`] = page(`${h} page ${i}`, [`/p${(i + 1) % 8}`, `/p${(i * 3) % 8}`, '/gone', '/moved', '/private/x']);
    pages['/moved'] = { status: 301, location: '/p2' };
    hosts[h] = { robots: 'User-agent: *\nDisallow: /private/\n', pages };
  }
  web = await startTestWeb({ block: '127.0.41', hosts });
  // Links across hosts, so inlinks and link scores span hosts.
  web.setPage('a', '/', page('a home', ['/p1', `${web.origin('b')}/`, `${web.origin('c')}/p3`]));
  web.setPage('b', '/', page('b home', ['/p1', `${web.origin('c')}/`, `${web.origin('a')}/p5`]));
  fs.writeFileSync(path.join(tmp, 'seeds.txt'), `${web.url('a', '/')}\n${web.url('b', '/')}\n`);
});

test.after(async () => {
  await web?.stop();
  server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('a one-shot crawl with -webdb postgresql:// leaves the same WebDB as on SQLite', async () => {
  const url = await server.createDatabase('crawl_pg');
  await ok(['crawl', 'seeds.txt', '-dir', 'sqlite', '-depth', '3']);
  const out = await ok(['crawl', 'seeds.txt', '-dir', 'pg', '-depth', '3', '-webdb', url]);
  assert.match(out, /documents indexed\s+\d+/);
  assert.not.ok(fs.existsSync(path.join(tmp, 'pg', 'webdb')), 'no SQLite WebDB beside the PostgreSQL one');
  // The crawl report counts the pages of the WebDB on the server.
  const known = (dir: string) => /(\d+) URLs known/.exec(fs.readFileSync(path.join(tmp, dir, 'report.html'), 'utf8'))?.[1];
  assert.ok(Number(known('sqlite')) >= 20);
  assert.is(known('pg'), known('sqlite'));
  const sqliteStats = await stats('sqlite/webdb');
  assert.match(sqliteStats, /TOTAL urls:\t\d+/);
  assert.is(await stats(url), sqliteStats);
  const pages = await dump('sqlite/webdb');
  assert.ok(pages.length >= 20, `${pages.length} pages`);
  assert.ok(pages.some((p) => (p.link_score as number) > 0), 'link scores were computed');
  assert.equal(differences(await dump(url), pages), []);
  // The inlinks invertlinks built are the same too, in the same order.
  await ok(['readlinkdb', url, '-dump', 'links-pg']);
  await ok(['readlinkdb', 'sqlite/webdb', '-dump', 'links-sqlite']);
  const links = fs.readFileSync(path.join(tmp, 'links-sqlite', 'part-00000'), 'utf8');
  assert.match(links, /Inlinks:\n fromUrl: /);
  assert.is(fs.readFileSync(path.join(tmp, 'links-pg', 'part-00000'), 'utf8'), links);
});

test('the step tools take a postgresql:// URL where they take a WebDB directory', async () => {
  const url = await server.createDatabase('steps_pg');
  const pipeline = async (webdb: string, dir: string, defines: string[]) => {
    await ok([...defines, 'inject', webdb, 'seeds.txt']);
    for (let round = 0; round < 2; round++) {
      await ok([...defines, 'generate', webdb, `${dir}/segments`]);
      const seg = path.join(dir, 'segments', fs.readdirSync(path.join(tmp, dir, 'segments')).sort().at(-1)!);
      await ok([...defines, 'fetch', seg]);
      await ok([...defines, 'updatedb', webdb, seg]);
    }
    await ok([...defines, 'invertlinks', webdb, '-dir', `${dir}/segments`]);
    await ok([...defines, 'linkrank', webdb]);
  };
  await pipeline('steps/webdb', 'steps', []);
  await pipeline(url, 'steps-pg', ['-D', `webdb.url=${url}`]);
  assert.is(await stats(url), await stats('steps/webdb'));
  assert.equal(differences(await dump(url), await dump('steps/webdb')), []);
  assert.is(await ok(['readdb', url, '-topN', '5', '-']), await ok(['readdb', 'steps/webdb', '-topN', '5', '-']));
  // The fetcher kept its robots.txt cache and the loopback note in the shared WebDB.
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    assert.ok(Number((await c.query('SELECT COUNT(*) AS n FROM hosts WHERE robots_status IS NOT NULL')).rows[0].n) >= 2);
  } finally {
    await c.end();
  }
});

test('a second writer is refused while one holds the WebDB; an unknown schema version is refused', async () => {
  const url = await server.createDatabase('locked_pg');
  await ok(['inject', url, 'seeds.txt']);
  const holder = new pg.Client({ connectionString: url, application_name: 'hazelnut holder-for-test' });
  await holder.connect();
  try {
    // The writer lock's key (crawler/webdb/postgres/schema.ts).
    await holder.query('SELECT pg_advisory_lock($1)', [0x687a_7772]);
    const r = await hazelnut(['inject', url, 'seeds.txt']);
    assert.is(r.code, 1);
    assert.match(r.err, /the WebDB at postgresql:\/\/hazelnut@127\.0\.0\.1:\d+\/locked_pg is locked by hazelnut holder-for-test/);
    assert.is((await ok(['readdb', url, '-stats'])).includes('TOTAL urls:\t2'), true, 'readers do not wait for the lock');
    await holder.query('SELECT pg_advisory_unlock_all()');
    await ok(['inject', url, 'seeds.txt']);

    await holder.query("UPDATE meta SET value = '99' WHERE key = 'version'");
    for (const args of [['readdb', url, '-stats'], ['inject', url, 'seeds.txt']]) {
      const v = await hazelnut(args);
      assert.is(v.code, 1);
      assert.match(v.err, /has schema version 99, which this hazelnut does not know \(it knows versions 1 to 2\)/);
    }
    assert.is((await holder.query("SELECT value FROM meta WHERE key = 'version'")).rows[0].value, '99', 'nothing changed');
  } finally {
    await holder.end();
  }
  const missing = await hazelnut(['readdb', url.replace('locked_pg', 'postgres'), '-stats']);
  assert.is(missing.code, 1);
  assert.match(missing.err, /no WebDB at postgresql:\/\/hazelnut@127\.0\.0\.1:\d+\/postgres/);
  const refused = await hazelnut(['readdb', 'postgresql://hazelnut:secret@127.0.0.1:1/nothing', '-stats']);
  assert.is(refused.code, 1);
  assert.match(refused.err, /cannot connect to the WebDB at postgresql:\/\/hazelnut:\*\*\*@127\.0\.0\.1:1\/nothing/);
  assert.not.match(refused.err, /secret/, 'the password is not shown');
  const notUrl = await hazelnut(['crawl', 'seeds.txt', '-dir', 'nothing', '-webdb', 'crawl/webdb']);
  assert.is(notUrl.code, 2);
  assert.match(notUrl.err, /-webdb takes a postgresql:\/\/user@host:port\/db URL, not crawl\/webdb/);
  assert.not.ok(fs.existsSync(path.join(tmp, 'nothing')), 'a refused crawl writes nothing');
});

test.run();
