/**
 * The search page in headless Chromium: search from the front page, page
 * forward, open a cached copy, follow "more from this site", on a phone
 * width too; and a page with script in its title, body and URL never runs
 * any of it in results, summaries, text or the cached view.
 */
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';
import { EVIL_URL, PAGES } from './pages.js';

const HOST = '127.0.6.4';
const EXTRA = Array.from({ length: 14 }, (_, i) => ({ url: `http://h${i}.test/page`, title: `Crawler page ${i}`, text: `Another crawler page number ${i}.` }));
let dir = '';
let s: RunningSearcher;
let browser: Browser;
let page: Page;
let fired = 0;

test.before(async () => {
  dir = tempCrawlDir();
  await buildCrawl(dir, [...PAGES, ...EXTRA]);
  s = await startSearcher(Conf.load(), { dir, port: 0, host: HOST });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const ctx = await browser.newContext();
  // Anything the hostile page manages to run would also show up here.
  ctx.on('page', (p) => p.on('dialog', (d) => (fired++, void d.dismiss())));
  page = await ctx.newPage();
  page.on('dialog', (d) => (fired++, void d.dismiss()));
  // Requests to hosts other than the searcher (the fixture's fake sites) never leave the machine.
  await ctx.route(/^https?:\/\/(?!127\.0\.6\.4)/, (r) => r.abort());
});
test.after(async () => {
  await browser?.close();
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function pwned(): Promise<unknown> {
  try {
    return await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
  } catch {
    return undefined; // a sandboxed document may refuse evaluation: then its scripts cannot have run either
  }
}

test('search from the front page, page forward, open a cached copy, follow more-from-site', async () => {
  await page.goto(`${s.url}/`);
  assert.is(await page.getByLabel('Search').count(), 1);
  await page.getByLabel('Search').fill('crawler');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/search\?query=crawler/);
  const first = await page.locator('li.hit h2 a').allTextContents();
  assert.is(first.length, 10);
  assert.match((await page.locator('h1.stats').textContent()) ?? '', /Hits 1–10 \(of \d+ matching pages\)/);

  await page.getByRole('link', { name: 'Next →' }).click();
  await page.waitForURL(/start=10/);
  const second = await page.locator('li.hit h2 a').allTextContents();
  assert.ok(second.length > 0);
  assert.ok(second.every((t) => !first.includes(t)), 'page 2 repeats no hit of page 1');
  await page.getByRole('link', { name: '← Previous' }).click();
  await page.waitForURL((u) => !u.searchParams.has('start'));

  const guide = page.locator('li.hit', { hasText: 'The web crawler guide' });
  const cached = guide.locator(':scope > .links').getByRole('link', { name: 'cached' });
  await cached.click();
  await page.waitForURL(/\/cached\?url=/);
  assert.match((await page.locator('[role=note]').textContent()) ?? '', /cached copy of http:\/\/docs\.test\/crawler, fetched 2024-05-01/);
  await page.goBack();

  await guide.getByRole('link', { name: 'more from docs.test' }).click();
  await page.waitForURL(/hitsPerSite=0/);
  const more = await page.locator('li.hit .url').allTextContents();
  assert.equal(more.sort(), ['http://docs.test/crawler', 'http://docs.test/fetcher', 'http://docs.test/parser']);
  assert.is(await page.getByLabel('Search').inputValue(), 'site:docs.test crawler');
});

test('keyboard: the first Tab reaches the skip link, focus is visible', async () => {
  await page.goto(`${s.url}/search?query=crawler`);
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate(() => document.activeElement?.className), 'skip');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  assert.is(outline, 'solid');
});

test('on a phone width the results page does not scroll sideways', async () => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`${s.url}/search?query=${encodeURIComponent('evil crawler')}`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360));
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('the detector sees script that does run (control)', async () => {
  await page.goto('about:blank');
  await page.setContent('<script>window.__pwned=1</script>');
  assert.is(await pwned(), 1);
});

test('script in a page title, body and URL never runs: results, summaries, text, anchors, explain, cached', async () => {
  await page.goto(`${s.url}/search?query=${encodeURIComponent('evil crawler')}`);
  const hit = page.locator('li.hit', { hasText: 'Evil' });
  assert.is(await hit.count(), 1);
  assert.match((await hit.locator('h2').textContent()) ?? '', /<script>window.__pwned=1<\/script>/, 'shown as text');
  assert.is(await pwned(), undefined);
  for (const path of ['/text', '/anchors', '/explain']) {
    await page.goto(`${s.url}${path}?url=${encodeURIComponent(EVIL_URL)}&query=evil`);
    assert.is(await pwned(), undefined, path);
  }
  await page.goto(`${s.url}/search?query=${encodeURIComponent('evil crawler')}`);
  await page.locator('li.hit', { hasText: 'Evil' }).getByRole('link', { name: 'cached' }).click();
  await page.waitForURL(/\/cached\?url=/);
  assert.is(await page.locator('h1').textContent(), 'Evil crawler', 'the cached page is shown');
  await page.mouse.move(10, 10);
  await page.waitForTimeout(200);
  assert.is(await pwned(), undefined, 'cached view');
  await page.goto(`${s.url}/opensearch?query=evil`);
  assert.is(await pwned(), undefined, 'rss');
  assert.is(fired, 0, 'no dialog opened');
});

test.run();
