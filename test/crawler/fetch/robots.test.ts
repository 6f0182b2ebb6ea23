/** robots.txt compliance measured by the server: every fetch-status class, redirects, size cap, the WebDB cache. */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetch } from '../../../crawler/fetch/tool.js';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { webDbSql } from '../../fixtures/webdb-sql.js';
import { Segment, type FetchRecord } from '../../../segments/segment.js';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { makeSegment, tempCrawl, testConf } from './helpers.js';

let web: TestWeb;
const dirs: string[] = [];
const pages = { '/': 'home', '/private/x': 'secret', '/public': 'public', '/big-tail': 'after 500 KiB' };
// A 2 MB robots.txt: the rule at the top counts, the one past 500 KiB must not.
const bigRobots = 'User-agent: *\nDisallow: /private\n' + '# padding\n'.repeat(200_000) + 'Disallow: /big-tail\n';

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.3',
    hosts: {
      rules: { robots: 'User-agent: *\nDisallow: /\n\nUser-agent: HzTest\nDisallow: /p\nAllow: /public$\n', pages },
      r404: { pages },
      r500: { robots: { status: 500 }, pages },
      r429: { robots: { status: 429 }, pages },
      r403: { robots: { status: 403 }, pages },
      redir: { robots: { status: 301, location: '/elsewhere/robots.txt' }, pages: { ...pages, '/elsewhere/robots.txt': 'User-agent: *\nDisallow: /private' } },
      loop: { robots: { status: 302, location: '/robots.txt' }, pages },
      slow: { robots: { headerDelayMs: 3000, body: 'User-agent: *\nDisallow:' }, pages },
      big: { robots: { body: bigRobots, contentType: 'text/plain' }, pages },
    },
  });
});

test.after(async () => {
  await web.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function run(host: string, overrides: Record<string, string> = {}, crawl = tempCrawl()): Promise<Map<string, FetchRecord>> {
  dirs.push(crawl);
  const seg = makeSegment(crawl, Object.keys(pages).map((p) => web.url(host, p)));
  await fetch(testConf({ 'fetcher.server.delay': '0', 'http.timeout': '500', ...overrides }), seg);
  const s = Segment.open(seg, { readonly: true });
  try {
    return new Map([...s.fetches()].map((r) => [new URL(r.url).pathname, r]));
  } finally {
    s.close();
  }
}

const paths = (host: string) => web.requestsTo(host).map((r) => r.path).sort();

test('disallowed paths are never requested; our own group wins over *, with longest match and $', async () => {
  const r = await run('rules');
  // `*` disallows everything, but the HzTest group applies: /p is out, except /public (the longer Allow wins).
  assert.equal(paths('rules'), ['/', '/big-tail', '/public', '/robots.txt']);
  assert.is(r.get('/private/x')!.protocolStatus, 'robots_denied');
  assert.is(r.get('/private/x')!.status, 'fetch_gone');
  assert.is(r.get('/public')!.status, 'fetch_success');
});

test('404 and 403 robots.txt allow everything', async () => {
  for (const h of ['r404', 'r403']) {
    const r = await run(h);
    assert.is(r.get('/private/x')!.status, 'fetch_success', h);
    assert.is(web.requestsTo(h).length, 5, h);
  }
});

test('500 and 429 robots.txt disallow everything for now: no page requested, pages retried later', async () => {
  for (const h of ['r500', 'r429']) {
    const r = await run(h);
    assert.equal(paths(h), ['/robots.txt'], h);
    for (const rec of r.values()) {
      assert.is(rec.status, 'fetch_retry', h);
      assert.match(rec.message!, /robots\.txt unreachable/);
    }
  }
});

test('a robots.txt that times out disallows everything', async () => {
  const r = await run('slow');
  assert.equal(paths('slow'), ['/robots.txt']);
  assert.ok([...r.values()].every((x) => x.status === 'fetch_retry'));
});

test('redirected robots.txt is followed and applies to the original host; a redirect loop allows all', async () => {
  const r = await run('redir');
  assert.is(r.get('/private/x')!.protocolStatus, 'robots_denied');
  assert.is(r.get('/public')!.status, 'fetch_success');
  assert.is(web.requestsTo('redir', '/private/x').length, 0);
  const l = await run('loop');
  assert.is(web.requestsTo('loop', '/robots.txt').length, 6, 'five redirects followed, then given up');
  assert.is(l.get('/private/x')!.status, 'fetch_success');
});

test('a 2 MB robots.txt: only the first 500 KiB counts', async () => {
  const r = await run('big');
  assert.is(r.get('/private/x')!.protocolStatus, 'robots_denied');
  assert.is(r.get('/big-tail')!.status, 'fetch_success');
});

test('rules are cached in the WebDB hosts table for the next fetch, and unreachable answers are asked again', async () => {
  const crawl = tempCrawl();
  const made = openWebDb(path.join(crawl, 'webdb'), { create: true });
  made.markSeedsOnLoopback(); // as inject does for seeds on loopback
  made.close();
  web.reset();
  await run('rules', {}, crawl);
  await run('rules', {}, crawl);
  assert.is(web.requestsTo('rules', '/robots.txt').length, 1);
  const db = webDbSql(path.join(crawl, 'webdb'), { readonly: true });
  const row = db.prepare('SELECT * FROM hosts WHERE host = ?').get(web.origin('rules')) as { robots_status: string; robots_txt: string };
  db.close();
  assert.is(row.robots_status, 'parsed');
  assert.match(row.robots_txt, /Allow: \/public\$/);
  await run('r500', {}, crawl);
  await run('r500', {}, crawl);
  assert.is(web.requestsTo('r500', '/robots.txt').length, 2);
});

test.run();
