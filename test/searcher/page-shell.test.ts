/**
 * The page shell in headless Chromium: a team's own name and logo
 * (searcher.brand.name, searcher.brand.logo) at the top of every page, the
 * logo served by the searcher itself; and at a phone's 390 px a results page
 * whose summary holds a 120-character identifier wraps it instead of
 * scrolling sideways.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';

const HOST = '127.0.6.14';
// 120 characters with no place to break but the dots and parentheses a browser does not break at.
const IDENTIFIER = `asyncio.set_event_loop_policy(MyEventLoopPolicyWithAVeryLongNameForTesting${'X'.repeat(120 - 76)}Policy())`.slice(0, 120);
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28"><rect width="28" height="28" fill="#b5651d"/></svg>';
let dir = '';
let confDir = '';
let browser: Browser;
let page: Page;

test.before(async () => {
  dir = tempCrawlDir();
  confDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-brand-'));
  fs.writeFileSync(path.join(confDir, 'acme-logo.svg'), LOGO);
  await buildCrawl(dir, [
    { url: 'http://docs.test/asyncio', title: 'Event loop policies', text: `To change the loop, call ${IDENTIFIER} before the first coroutine runs; the policy decides the loop.` },
    { url: 'http://docs.test/other', title: 'Another page', text: 'Nothing about loops here, only coroutines.' },
  ]);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  page = await browser.newPage();
});
test.after(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(confDir, { recursive: true, force: true });
});

/** A searcher over the fixture with these -D properties, its conf directory the test's; stopped after `fn`. */
async function serving(overrides: Record<string, string>, fn: (s: RunningSearcher) => Promise<void>): Promise<void> {
  const s = await startSearcher(Conf.load({ confDir, overrides }), { dir, port: 0, host: HOST });
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

test('at 390 px a summary holding a 120-character identifier wraps; nothing scrolls sideways', async () => {
  assert.is(IDENTIFIER.length, 120);
  await serving({}, async (s) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${s.url}/search?query=${encodeURIComponent('policy loop')}`);
    const summary = page.locator('li.hit .summary').first();
    assert.match((await summary.textContent()) ?? '', 'set_event_loop_policy');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), 'no sideways scrolling');
    const box = await summary.boundingBox();
    assert.ok(box && box.x + box.width <= 390, `the summary fits: ${JSON.stringify(box)}`);
  });
});

test('searcher.brand.name and searcher.brand.logo head every page; the logo is served at /logo', async () => {
  await serving({ 'searcher.brand.name': 'Acme Docs <search>', 'searcher.brand.logo': 'acme-logo.svg' }, async (s) => {
    for (const where of ['/', '/search?query=loop', '/no-such-page']) {
      await page.goto(s.url + where);
      const brand = page.locator('header .brand');
      assert.is(await brand.textContent(), 'Acme Docs <search>', where);
      const img = brand.locator('img');
      assert.is(await img.getAttribute('src'), '/logo');
      assert.ok(await img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth === 28), `${where}: the logo loaded under the page's CSP`);
    }
    const logo = await fetch(`${s.url}/logo`);
    assert.is(logo.headers.get('content-type'), 'image/svg+xml');
    assert.is(await logo.text(), LOGO);
  });
  await serving({}, async (s) => {
    await page.goto(`${s.url}/`);
    assert.is(await page.locator('header .brand').textContent(), 'hazelnut');
    assert.is(await page.locator('header .brand img').count(), 0);
    assert.is((await fetch(`${s.url}/logo`)).status, 404);
  });
});

test('a logo that is missing or not an image stops the searcher at start, naming the property and file', async () => {
  const cases: [string, RegExp][] = [
    ['nope.png', /searcher\.brand\.logo names nope\.png, which does not exist/],
    ['hazelnut-site.xml', /searcher\.brand\.logo names hazelnut-site\.xml, which is not an image file/],
  ];
  for (const [logo, message] of cases) {
    const e = await startSearcher(Conf.load({ confDir, overrides: { 'searcher.brand.logo': logo } }), { dir, port: 0, host: HOST }).catch((x: unknown) => x);
    assert.ok(e instanceof HzError, String(e));
    assert.match((e as Error).message, message);
  }
});

test.run();
