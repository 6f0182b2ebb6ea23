/**
 * The search box and "did you mean" in headless Chromium, over a crawled
 * web (test/searcher/spell-web): a query with no hits shows the corrected
 * query's results with "Showing results for … Search instead for …";
 * typing into the box lists titles and headings under it without moving
 * the page, chosen with the keyboard or the mouse, announced to screen
 * readers, closed with Escape.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { crawlSpellWeb, type SpellWeb } from './spell-web.js';

const HOST = '127.0.29.200';
let web: SpellWeb;
let s: RunningSearcher;
let browser: Browser;
let page: Page;
const errors: string[] = [];

test.before(async () => {
  web = await crawlSpellWeb('127.0.29');
  s = await startSearcher(Conf.load(), { dir: web.dir, port: 0, host: HOST });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const ctx = await browser.newContext();
  page = await ctx.newPage();
  // A script refused by the page's policy, or failing, would show here.
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
  // The browser asks for /favicon.ico on its own; anything else the page loads must be there.
  page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && errors.push(`${r.status()} ${r.url()}`));
});

test.after(async () => {
  await browser?.close();
  await s?.close();
  await web?.stop();
});

const hitUrls = () => page.locator('li.hit > .url').allTextContents();
const box = () => page.getByRole('combobox', { name: 'Search' });
const options = () => page.getByRole('option');

test('a query with no hits shows the results of its correction, and offers the query as typed', async () => {
  await page.goto(`${s.url}/search?query=theefore`);
  assert.is(await page.locator('p.suggest').textContent(), 'Showing results for therefore. Search instead for theefore.');
  const urls = await hitUrls();
  assert.ok(urls.length > 0 && urls.every((u) => u.includes('/design-notes-')), urls.join(', '));
  await page.locator('p.suggest a', { hasText: 'theefore' }).click();
  await page.waitForURL(/asTyped=1/);
  assert.equal(await hitUrls(), []);
});

test('the corrected query keeps the words the pages write (windw functions)', async () => {
  await page.goto(`${s.url}/search?query=${encodeURIComponent('windw functions')}`);
  const hits = await hitUrls();
  assert.ok(hits.length > 0, 'the typed query has hits of its own');
  assert.match((await page.locator('p.suggest').textContent()) ?? '', /window functions/);
});

test('typing lists titles and headings under the box; the page does not move; arrows and Enter choose', async () => {
  await page.goto(`${s.url}/`);
  const main = await page.locator('main').boundingBox();
  await box().pressSequentially('replic', { delay: 20 });
  await page.waitForSelector('#q-suggestions li');
  assert.equal(await options().allTextContents(), ['Replication slots 0', 'Replication slots 1', 'Creating a replication slot · section']);
  assert.is(await box().getAttribute('aria-expanded'), 'true');
  assert.match((await page.locator('#q-status').textContent()) ?? '', /^3 suggestions/);
  assert.equal(await page.locator('main').boundingBox(), main, 'the list floats over the page');
  const list = await page.locator('#q-suggestions').boundingBox();
  const input = await box().boundingBox();
  assert.ok(list && input && list.y >= input.y + input.height - 1, 'the list is under the box');

  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.is(await box().getAttribute('aria-activedescendant'), 'q-option-1');
  assert.is(await options().nth(1).getAttribute('aria-selected'), 'true');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.is(await box().getAttribute('aria-activedescendant'), 'q-option-2', 'up from the first wraps to the last');
  await page.keyboard.press('Enter');
  await page.waitForURL(/query=Creating\+a\+replication\+slot/);
  assert.ok((await hitUrls()).some((u) => u.includes('/replication-slots-')));
});

test('Escape closes the list; a click chooses; Enter with nothing chosen searches what was typed', async () => {
  await page.goto(`${s.url}/`);
  await box().pressSequentially('window f', { delay: 20 });
  await page.waitForSelector('#q-suggestions li');
  await page.keyboard.press('Escape');
  assert.ok(await page.locator('#q-suggestions').isHidden());
  assert.is(await box().getAttribute('aria-expanded'), 'false');
  await box().pressSequentially('u', { delay: 20 });
  await page.waitForSelector('#q-suggestions li');
  await options().first().click();
  await page.waitForURL(/query=Window\+functions\+0/);

  await box().fill('');
  await box().pressSequentially('jsoni', { delay: 20 });
  await page.waitForSelector('#q-suggestions li');
  await page.keyboard.press('Enter');
  await page.waitForURL(/query=jsoni$/);
  assert.equal(errors, [], 'no script error, nothing refused by the page policy');
});

test.run();
