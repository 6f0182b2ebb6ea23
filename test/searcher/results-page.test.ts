/**
 * The result page a documentation reader expects, in headless Chromium at a
 * desktop and a phone width: grouping that lists a site's hits under its
 * first and hides no page holding every word; summaries from the main
 * content (no menus, no repeated title) with the typed words marked; each
 * hit linked to the section it matched, with that heading shown; sites
 * named by their home page's title; "did you mean" from the index's own
 * words; facets that narrow the query. Pages go through the real HTML parser.
 */
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractHtml } from '../../crawler/parse/html.js';
import { Conf } from '../../shared/conf.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { buildCrawl, tempCrawlDir, type FixturePage } from './crawl-fixture.js';

const HOST = '127.0.6.7';

/** A page as the crawler would store it: title, text and parse data from the real HTML parser. */
function parsed(url: string, html: string, extra: Partial<FixturePage> = {}): FixturePage {
  const x = extractHtml(html, true);
  return { url, title: x.title, text: x.text, body: html, meta: { sections: x.sections, furniture: x.furniture }, ...extra };
}
const simple = (url: string, title: string, text: string, extra: Partial<FixturePage> = {}): FixturePage => ({ url, title, text, ...extra });

const VACUUM_HTML = `<!doctype html><html><head><title>VACUUM</title></head><body>
<div class="nosearch"><a href="/">Home</a> <a href="/docs.html">Documentation</a> Small. Fast. Reliable.</div>
<table><tr><td><a href="prev.html">Prev</a></td><td><a href="up.html">Up</a></td><td><a href="lang.html">SQL Commands</a></td><td><a href="/">Home</a></td><td><a href="next.html">Next</a></td></tr></table>
<h1>VACUUM</h1>
<h2 id="syntax">1. Syntax</h2><p>VACUUM schema-name INTO filename.</p>
<h2 id="description">2. Description</h2><p>The VACUUM command rebuilds the database file, repacking it into a minimal amount of disk space.</p>
<h2 id="how_vacuum_works">3. How VACUUM works</h2><p>It copies the database into a temporary journal file and then overwrites the original file.</p>
</body></html>`;

const PAGES: FixturePage[] = [
  simple('http://wiki.test/', 'Kestrel Wiki', 'Welcome to the team wiki.'),
  ...[1, 2, 3, 4].map((i) => simple(`http://wiki.test/runbooks/postgres-disk-${i}`, `Runbook ${i}: postgres disk full`, `When the postgres disk fills up, step ${i} of the runbook frees space.`)),
  simple('http://blog.test/postgres', 'Postgres upgrade notes', 'Postgres postgres postgres: how we upgraded postgres twice.', { boost: 5 }),
  simple('http://docs.test/postgres', 'Postgres settings', 'Postgres connection settings for postgres clients.', { boost: 5 }),
  simple('http://files.test/postgres.pdf', 'Postgres manual', 'The printable postgres manual.', { type: 'application/pdf', body: '%PDF-1.4 fake' }),
  simple('http://de.test/postgres', 'Postgres Handbuch', 'Postgres Datenbank Handbuch für postgres.', { lang: 'de' }),
  parsed('http://sqlite.test/lang_vacuum.html', VACUUM_HTML),
  simple('http://handbook.test/money/expenses', 'Expenses', 'Expensive hotels need approval first. Submit your expenses with an expense report and receipts.'),
  simple('http://handbook.test/money/travel', 'Travel', 'Book travel through the portal; an expense report follows the trip.'),
];

let dir = '';
let s: RunningSearcher;
let browser: Browser;
let page: Page;

test.before(async () => {
  dir = tempCrawlDir();
  await buildCrawl(dir, PAGES);
  s = await startSearcher(Conf.load({ overrides: { 'analysis.stem.english': 'true' } }), { dir, port: 0, host: HOST });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const ctx = await browser.newContext();
  page = await ctx.newPage();
  await ctx.route(/^https?:\/\/(?!127\.0\.6\.7)/, (r) => r.abort());
});
test.after(async () => {
  await browser?.close();
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const WIDTHS = [
  ['desktop', 1280, 800],
  ['phone', 360, 740],
] as const;

const search = (q: string, extra = '') => page.goto(`${s.url}/search?query=${encodeURIComponent(q)}${extra}`);
const hitUrls = () => page.locator('li.hit > .url').allTextContents();

for (const [name, width, height] of WIDTHS) {
  test(`${name}: every page holding all the words is listed, its site's further hits indented under the first`, async () => {
    await page.setViewportSize({ width, height });
    await search('postgres disk');
    const urls = (await hitUrls()).map((u) => u.replace(/^.*› /, ''));
    const full = urls.filter((u) => u.includes('/runbooks/'));
    assert.is(full.length, 4, 'all four runbooks on the first page');
    const lastFull = Math.max(...full.map((u) => urls.indexOf(u)));
    assert.ok(urls.slice(0, lastFull).every((u) => u.includes('/runbooks/')), `no partial match before a full one: ${urls.join(', ')}`);
    const grouped = page.locator('ul.grouped > li.hit');
    assert.is(await grouped.count(), 3);
    const head = await page.locator('ol.hits > li.hit').first().locator(':scope > h2').boundingBox();
    const under = await grouped.first().locator(':scope > h2').boundingBox();
    assert.ok(head && under && under.x > head.x + 8, `indented: ${head?.x} → ${under?.x}`);
    assert.is(await page.getByRole('link', { name: /Show all hits/ }).count(), 0, 'nothing hidden');
    assert.is(await page.locator('li.hit .url .site').first().textContent(), 'Kestrel Wiki', 'site named by its home page title');
    assert.ok(await page.evaluate((w) => document.documentElement.scrollWidth <= w, width), 'no sideways scrolling');
  });

  test(`${name}: one site in the results is listed whole, nothing grouped`, async () => {
    await page.setViewportSize({ width, height });
    await search('runbook');
    assert.is((await hitUrls()).length, 4);
    assert.is(await page.locator('ul.grouped').count(), 0);
    assert.is(await page.getByRole('link', { name: /more from|Show all hits/ }).count(), 0);
  });

  test(`${name}: the summary comes from the content and the hit links to the section it matched`, async () => {
    await page.setViewportSize({ width, height });
    await search('vacuum');
    const summary = (await page.locator('li.hit .summary').first().textContent()) ?? '';
    assert.not.match(summary, /Prev|Next|Home|SQL Commands|Small\. Fast/, summary);
    assert.match(summary, /VACUUM/);
    await search('vacuum temporary journal');
    const hit = page.locator('li.hit').first();
    assert.is(await hit.locator('h2 a').getAttribute('href'), 'http://sqlite.test/lang_vacuum.html#how_vacuum_works');
    assert.is(await hit.locator('.section').textContent(), '§ 3. How VACUUM works');
    assert.match((await hit.locator('.summary mark').allTextContents()).join(' '), /temporary journal/);
  });

  test(`${name}: the typed word and its inflections are marked, not every word with its stem`, async () => {
    await page.setViewportSize({ width, height });
    await search('expense');
    const marks = await page.locator('li.hit', { hasText: 'handbook.test/money/expenses' }).locator('.summary mark').allTextContents();
    assert.equal(marks, ['expenses', 'expense']);
  });

  test(`${name}: a miss shows the results of its respelling from the index's words, and offers the query as typed`, async () => {
    await page.setViewportSize({ width, height });
    await search('expnse reprt');
    assert.is(await page.locator('p.suggest').textContent(), 'Showing results for expense report. Search instead for expnse reprt.');
    assert.ok((await hitUrls()).includes('http://handbook.test/money/expenses'), 'the respelled query\'s hits are on the page');
    await page.locator('p.suggest a', { hasText: 'expnse reprt' }).click();
    await page.waitForURL(/asTyped=1/);
    assert.equal(await hitUrls(), [], 'the query as typed finds nothing');
    const suggestion = page.locator('p.suggest a');
    assert.is(await suggestion.textContent(), 'expense report', 'and offers the respelling');
    await suggestion.click();
    await page.waitForURL(/query=expense\+report$/);
    assert.ok((await hitUrls()).includes('http://handbook.test/money/expenses'));
    assert.is(await page.locator('p.suggest').count(), 0, 'no suggestion for known words');
  });

  test(`${name}: facets count the matches by site, type and language, and narrow the query`, async () => {
    await page.setViewportSize({ width, height });
    await search('postgres');
    const facets = page.getByRole('navigation', { name: 'Narrow the results' });
    assert.ok(await facets.isVisible());
    assert.is(await facets.getByRole('link', { name: 'Kestrel Wiki (4)' }).count(), 1);
    assert.is(await facets.getByRole('link', { name: 'German (1)' }).count(), 1);
    await facets.getByRole('link', { name: 'PDF (1)' }).click();
    await page.waitForURL(/type%3Aapplication%2Fpdf/);
    assert.equal(await hitUrls(), ['http://files.test/postgres.pdf']);
    assert.ok(await page.evaluate((w) => document.documentElement.scrollWidth <= w, width), 'no sideways scrolling');
  });
}

test('the JSON carries the section link, the site name, grouping, facets and did-you-mean', async () => {
  const r = (await (await fetch(`${s.url}/api/search?query=${encodeURIComponent('vacuum temporary journal')}`)).json()) as {
    hits: { link: string; section: { heading: string; id: string } | null; siteName: string; grouped: boolean; allWords: boolean }[];
    facets: Record<string, { value: string; label: string; count: number; query: string }[]>;
    didYouMean: string | null;
  };
  assert.is(r.hits[0]!.link, 'http://sqlite.test/lang_vacuum.html#how_vacuum_works');
  assert.equal(r.hits[0]!.section, { heading: '3. How VACUUM works', id: 'how_vacuum_works' });
  assert.is(r.didYouMean, null);
  const miss = (await (await fetch(`${s.url}/api/search?query=${encodeURIComponent('expnse reprt')}`)).json()) as typeof r;
  assert.is(miss.didYouMean, 'expense report');
  const pg = (await (await fetch(`${s.url}/api/search?query=postgres`)).json()) as typeof r;
  assert.equal(pg.facets.type!.map((v) => [v.label, v.count]), [['HTML', 7], ['PDF', 1]]);
  assert.is(pg.facets.lang!.find((v) => v.value === 'de')?.query, 'postgres lang:de');
});

test('explain shows the fetch time as a date; pages without results have no "Skip to results"', async () => {
  const explain = await (await fetch(`${s.url}/explain?url=${encodeURIComponent('http://wiki.test/')}&query=wiki`)).text();
  assert.match(explain, /<th scope="row">tstamp<\/th><td>2024-05-01 12:00:00 UTC \(\d+\)<\/td>/);
  for (const path of ['/stats', `/explain?url=${encodeURIComponent('http://wiki.test/')}`, '/search?query=zzzzqqq', '/']) {
    const html = await (await fetch(s.url + path)).text();
    assert.not.match(html, /Skip to results/, path);
    assert.match(html, /Skip to content/, path);
  }
  assert.match(await (await fetch(`${s.url}/search?query=wiki`)).text(), /Skip to results/);
});

test.run();
