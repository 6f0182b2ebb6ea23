/**
 * inject → (generate → fetch → parse → updatedb) × 3 over a two-host test web:
 * every reachable page is fetched exactly once, nothing robots.txt forbids or
 * the URL filters reject is fetched or stored, and every broken link and
 * redirect ends in the right WebDB status.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetch } from '../../crawler/fetch/tool.js';
import { generate } from '../../crawler/generate.js';
import { inject } from '../../crawler/inject.js';
import { invertlinks } from '../../crawler/invertlinks.js';
import { linkrank } from '../../crawler/linkrank.js';
import { parseSegment } from '../../crawler/parse/tool.js';
import '../../crawler/builtins.js';
import { loadCrawlerPlugins } from '../../crawler/plugin/chains.js';
import { updatedb } from '../../crawler/updatedb/tool.js';
import type { PageRow } from '../../crawler/webdb/webdb.js';
import { webDbSql } from '../fixtures/webdb-sql.js';
import { Conf } from '../../shared/conf.js';
import { startTestWeb, type TestWeb } from '../fixtures/testweb.js';

let web: TestWeb;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-cycle-'));
const webdb = path.join(tmp, 'webdb');
const segments = path.join(tmp, 'segments');

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.4',
    hosts: {
      a: {
        robots: 'User-agent: *\nDisallow: /private',
        pages: {
          '/': '', // set below, once host b's address is known
          '/docs': '<nav><a href="/">Home</a></nav><p><a href="/docs/deep">deep</a></p>',
          '/docs/deep': '<p>deep page</p><a href="/docs">back</a>',
          '/docs/new': '<p>new home of moved</p>',
          '/docs/r-target': '<p>refresh target</p>',
          '/moved': { status: 301, location: '/docs/new' },
          '/gone': { status: 410 },
          '/flaky': { status: 503 },
          '/refresh': '<meta http-equiv="refresh" content="0; url=/docs/r-target"><p>moving</p>',
          '/private/secret': '<p>secret</p>',
          '/search?q=1': '<p>results</p>',
        },
      },
      b: {
        pages: {
          '/': '<a href="/b1">b1</a>',
          '/b1': '<p>b1</p><a href="/logo.png">logo</a><a href="/b1">self</a>',
          '/logo.png': { body: 'png', contentType: 'image/png' },
        },
      },
    },
  });
  web.setPage('a', '/', pageA());
});

function pageA(): string {
  return `<html><body><nav><a href="/">Home</a><a href="/docs">Docs</a></nav>
    <p><a href="/docs">Documentation</a> <a href="/private/secret">secret</a> <a href="/search?q=1">search</a>
    <a href="/moved">moved</a> <a href="/gone">gone</a> <a href="/missing">missing</a> <a href="/flaky">flaky</a>
    <a href="/refresh">refresh</a> <a href="${web.url('b', '/')}">other host</a></p></body></html>`;
}

test.after(async () => {
  await web?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('three crawl cycles find every reachable page once, with the right statuses', async () => {
  const conf = Conf.load({ overrides: { 'http.agent.name': 'HzTest', 'fetcher.server.delay': '0', 'http.timeout': '2000', 'db.ignore.internal.links': 'false' } });
  const plugins = await loadCrawlerPlugins(conf);
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${web.url('a', '/')}\n`);
  await inject(conf, { webdb, seeds, plugins });
  for (let round = 0; round < 3; round++) {
    const g = await generate(conf, webdb, segments, {});
    assert.is(g.segments.length, 1, `round ${round} generated a segment`);
    const seg = g.segments[0]!;
    await fetch(conf, seg, { parse: false });
    const p = await parseSegment(conf, { segment: seg, plugins });
    assert.ok(p.success > 0);
    const u = await updatedb(conf, { webdb, segments: [seg], normalize: true, filter: true, plugins });
    assert.is(u.applied.length, 1);
  }

  const db = webDbSql(webdb, { readonly: true });
  const rows = db.prepare('SELECT * FROM pages').all() as PageRow[];
  db.close();
  const byPath = Object.fromEntries(rows.map((r) => [r.url.replace(/^http:\/\/127\.0\.4\.(\d):\d+/, (_m, h) => (h === '1' ? 'a' : 'b')), r]));
  const status = (p: string) => byPath[p]?.status;

  for (const p of ['a/', 'a/docs', 'a/docs/deep', 'a/docs/new', 'a/docs/r-target', 'b/', 'b/b1']) assert.is(status(p), 'db_fetched', p);
  assert.is(status('a/moved'), 'db_redir_perm');
  assert.is(status('a/refresh'), 'db_redir_temp');
  assert.is(status('a/gone'), 'db_gone');
  assert.is(status('a/missing'), 'db_gone');
  assert.is(status('a/private/secret'), 'db_gone', 'robots-denied');
  assert.is(status('a/flaky'), 'db_unfetched');
  assert.is(byPath['a/flaky']!.retries, 1);
  assert.is(byPath['a/search?q=1'], undefined, 'filtered URLs never enter the WebDB');
  assert.is(byPath['b/logo.png'], undefined);
  assert.is(rows.length, 13, rows.map((r) => r.url).join(" "));

  for (const [host, p] of [['a', '/'], ['a', '/docs'], ['a', '/docs/deep'], ['a', '/docs/new'], ['a', '/docs/r-target'], ['a', '/moved'], ['a', '/refresh'], ['a', '/gone'], ['a', '/missing'], ['a', '/flaky'], ['b', '/'], ['b', '/b1']] as const)
    assert.is(web.requestsTo(host, p).length, 1, `${host}${p} fetched once`);
  assert.is(web.requestsTo('a', '/private/secret').length, 0);
  assert.is(web.requestsTo('a', '/search?q=1').length, 0);
  assert.is(web.requestsTo('b', '/logo.png').length, 0);

  // A fourth generate finds nothing due.
  const again = await generate(conf, webdb, segments, {});
  assert.is(again.segments.length, 0);

  await invertlinks(conf, { webdb, segments: fs.readdirSync(segments).map((n) => path.join(segments, n)), plugins });
  await linkrank(conf, { webdb });
  const db2 = webDbSql(webdb, { readonly: true });
  const docs = web.url('a', '/docs');
  const inl = db2.prepare('SELECT source, anchor FROM inlinks WHERE target = ? ORDER BY source').all(docs) as { source: string; anchor: string }[];
  const ls = Object.fromEntries((db2.prepare('SELECT url, link_score FROM pages').all() as { url: string; link_score: number }[]).map((r) => [r.url, r.link_score]));
  db2.close();
  assert.equal(inl.map((i) => i.anchor).sort(), ['Documentation', 'back'], 'anchors from content links only');
  assert.ok(ls[docs]! > 1, 'a page with content inlinks ranks above the mean');
});

test.run();
