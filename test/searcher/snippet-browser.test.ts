/**
 * A snippet in headless Chromium: the heading of the passage reads apart from
 * the text after it, and a code block keeps its lines, on the results page as
 * a reader sees it (innerText) and in the JSON.
 */
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractHtml } from '../../crawler/parse/html.js';
import { Conf } from '../../shared/conf.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';

const HOST = '127.0.6.70';
const BODY = `<!doctype html><html><head><title>Keys guide</title></head><body>
<h1>Keys guide</h1>
<h2 id="meaning">What it means</h2><p>The primary key names one row of a table.</p>
<h2 id="use">Declaring it</h2><p>Declare the key once:</p>
<div class="highlight"><pre><span></span>CREATE TABLE t (
    id INTEGER PRIMARY KEY,
    name TEXT
);
</pre></div>
<p>Then insert rows.</p></body></html>`;
let dir = '';
let s: RunningSearcher;
let browser: Browser;

test.before(async () => {
  dir = tempCrawlDir();
  // The page as the HTML parser reads it: its text, sections and furniture.
  const x = extractHtml(BODY);
  await buildCrawl(dir, [{ url: 'http://docs.test/keys', title: x.title, text: x.text, body: BODY, meta: { sections: x.sections, furniture: x.furniture } }]);
  s = await startSearcher(Conf.load(), { dir, port: 0, host: HOST });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
});
test.after(async () => {
  await browser?.close();
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The snippet of the one hit for `query`, as the page shows it. */
async function snippet(query: string): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.goto(`${s.url}/search?query=${encodeURIComponent(query)}`);
    return await page.locator('li.hit .summary').first().innerText();
  } finally {
    await page.close();
  }
}

test('a heading reads apart from the text after it', async () => {
  const shown = await snippet('primary row');
  assert.match(shown, /What it means — The primary key names one row/);
  assert.not.match(shown, /means The/);
});

test('a code block keeps its lines, on its own lines', async () => {
  const shown = await snippet('integer name text');
  const lines = shown.split('\n').map((l) => l.trim());
  assert.ok(lines.includes('id INTEGER PRIMARY KEY,'), JSON.stringify(lines));
  assert.ok(lines.includes('name TEXT'), JSON.stringify(lines));
  assert.ok(lines.some((l) => l.startsWith('CREATE TABLE t (')), JSON.stringify(lines));
});

test('the JSON summary shows the same breaks as text', async () => {
  const r = (await (await fetch(`${s.url}/api/search?query=integer`)).json()) as { hits: { summary: string }[] };
  assert.match(r.hits[0]!.summary, /\nid INTEGER PRIMARY KEY,\nname TEXT\n/);
});

test.run();
