/**
 * Sitemaps in `hazelnut crawl` on loopback hosts: pages that no link
 * reaches are found through a robots.txt Sitemap: line (a sitemap index
 * naming a gzipped sitemap and a plain one) and through /sitemap.xml;
 * changefreq and priority land in the WebDB; a newer lastmod makes a page
 * due on the next crawl; other hosts' URLs and the limits are respected.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { hz, tempConf } from '../checkers/run-cli.js';

let web: TestWeb;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-sitemap-'));
const conf = tempConf();
const page = (title: string, links: string[] = []) => `<html><head><title>${title}</title></head><body><p>${title} text.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
const urlset = (entries: string[]) => `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`;

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.10',
    hosts: {
      docs: { pages: { '/': page('Docs home', ['/a.html']), '/a.html': page('A'), '/orphan1.html': page('Orphan one'), '/orphan2.html': page('Orphan two') } },
      wiki: { pages: { '/': page('Wiki home'), '/hidden.html': page('Hidden wiki page') } },
    },
  });
  const d = (p: string) => web.url('docs', p);
  web.setRobots('docs', `User-agent: *\nDisallow: /private/\n\nSitemap: ${d('/maps/index.xml')}\n`);
  web.setPage('docs', '/maps/index.xml', {
    contentType: 'application/xml',
    body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${d('/maps/pages.xml.gz')}</loc></sitemap><sitemap><loc>${d('/maps/more.xml')}</loc></sitemap></sitemapindex>`,
  });
  web.setPage('docs', '/maps/pages.xml.gz', {
    contentType: 'application/gzip',
    body: zlib.gzipSync(
      urlset([
        `<url><loc>${d('/orphan1.html')}</loc><lastmod>2020-01-01</lastmod><changefreq>daily</changefreq><priority>1.0</priority></url>`,
        `<url><loc>${d('/private/secret.html')}</loc></url>`,
        `<url><loc>${web.url('wiki', '/not-mine.html')}</loc></url>`,
      ]),
    ),
  });
  web.setPage('docs', '/maps/more.xml', { contentType: 'application/xml', body: urlset([`<url><loc>${d('/orphan2.html')}</loc><changefreq>weekly</changefreq><priority>0.1</priority></url>`]) });
  web.setPage('wiki', '/sitemap.xml', { contentType: 'application/xml', body: urlset([`<url><loc>${web.url('wiki', '/hidden.html')}</loc></url>`]) });
});

test.after(async () => {
  await web.stop();
  conf.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const crawl = (dir: string, ...extra: string[]) => {
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${web.url('docs', '/')}\n${web.url('wiki', '/')}\n`);
  return hz(['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', ...extra, 'crawl', seeds, '-dir', dir, '-depth', '1'], { confDir: conf.dir });
};
const fetched = (host: string) => web.requests.filter((r) => r.host === host && !r.path.startsWith('/maps/') && r.path !== '/robots.txt' && r.path !== '/sitemap.xml').map((r) => r.path).sort();

test('pages only a sitemap lists are crawled in the first round, with their changefreq and priority', async () => {
  const dir = path.join(tmp, 'crawl');
  const r = await crawl(dir);
  assert.is(r.code, 0, r.err);
  // Depth 1: without the sitemaps only the seeds would be fetched.
  assert.equal(fetched('docs'), ['/', '/orphan1.html', '/orphan2.html']);
  assert.equal(fetched('wiki'), ['/', '/hidden.html']);
  assert.equal(web.requestsTo('docs', '/private/secret.html'), [], 'robots.txt still applies');
  assert.equal(web.requestsTo('wiki', '/not-mine.html'), [], "a sitemap lists its own host's pages only");
  assert.match(r.out, /from sitemaps\s+4 new, 0 due by lastmod \(4 URLs in 4 files\)/);

  const db = openWebDb(path.join(dir, 'webdb'), { readonly: true });
  try {
    const one = db.page(web.url('docs', '/orphan1.html'))!;
    const two = db.page(web.url('docs', '/orphan2.html'))!;
    assert.is(one.fetch_interval, 86400);
    assert.is(two.fetch_interval, 7 * 86400);
    assert.ok(one.score > two.score * 5, `priority 1.0 scores above 0.1 (${one.score} vs ${two.score})`);
  } finally {
    db.close();
  }

  // orphan2 changes, says so in its sitemap, and is fetched again although it is not due for a week.
  web.reset();
  const later = new Date(Date.now() + 60_000).toISOString();
  web.setPage('docs', '/maps/more.xml', { contentType: 'application/xml', body: urlset([`<url><loc>${web.url('docs', '/orphan2.html')}</loc><lastmod>${later}</lastmod></url>`]) });
  const again = await crawl(dir);
  assert.is(again.code, 0, again.err);
  assert.match(again.out, /from sitemaps\s+0 new, 1 due by lastmod/);
  // /a.html was only found as a link in the first round; orphan1 is not due.
  assert.equal(fetched('docs'), ['/a.html', '/orphan2.html']);
  assert.equal(fetched('wiki'), []);
});

test('sitemap.max.urls bounds what one host contributes; crawl.sitemaps=false reads none', async () => {
  web.reset();
  const bounded = await crawl(path.join(tmp, 'bounded'), '-D', 'sitemap.max.urls=1');
  assert.is(bounded.code, 0, bounded.err);
  assert.match(bounded.out, /from sitemaps\s+2 new/);
  web.reset();
  const off = await crawl(path.join(tmp, 'off'), '-D', 'crawl.sitemaps=false');
  assert.is(off.code, 0, off.err);
  assert.not.match(off.out, /from sitemaps/);
  assert.equal(web.requests.filter((r) => r.path.startsWith('/maps/') || r.path === '/sitemap.xml'), []);
});

test('the sitemaps of many seed hosts are read at most fetcher.threads.fetch at a time', async () => {
  const hosts: Record<string, { pages: Record<string, string | { body: string; contentType: string; headerDelayMs: number }> }> = {};
  for (let i = 0; i < 5; i++) hosts[`h${i}`] = { pages: { '/': page(`Host ${i}`) } };
  const many = await startTestWeb({ block: '127.0.14', hosts });
  try {
    for (let i = 0; i < 5; i++)
      many.setPage(`h${i}`, '/sitemap.xml', { contentType: 'application/xml', headerDelayMs: 200, body: urlset([`<url><loc>${many.url(`h${i}`, '/x.html')}</loc></url>`]) });
    const seeds = path.join(tmp, 'many.txt');
    fs.writeFileSync(seeds, Object.keys(hosts).map((h) => `${many.url(h, '/')}\n`).join(''));
    const r = await hz(['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', '-D', 'fetcher.threads.fetch=2', 'crawl', seeds, '-dir', path.join(tmp, 'many'), '-depth', '1'], { confDir: conf.dir });
    assert.is(r.code, 0, r.err);
    assert.match(r.out, /from sitemaps\s+5 new/);
    const maps = many.requests.filter((q) => q.path === '/sitemap.xml');
    // Each sitemap is held 200 ms before its headers are sent, so the client has it open at least that long; the
    // server's own end time is no bound, as it is noted after the client may already have moved on under load.
    const held = 200;
    const overlap = Math.max(...maps.map((a) => maps.filter((b) => b.start < a.start + held && a.start < b.start + held).length));
    assert.ok(overlap <= 2, `${overlap} sitemaps were read at once`);
  } finally {
    await many.stop();
  }
});

test.run();
