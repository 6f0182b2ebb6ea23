/**
 * A file share as people search it, in headless Chromium: a tree crawled
 * through file: URLs, served with file.url.map. A hit links to the address
 * the map gives (smb://…) with its path shown and selected whole by a click;
 * a .md and a .txt file are titled by their heading and first line; Word and
 * OpenDocument files are named so in the type facet and under each hit, with
 * "view as text"; the directory listings are no hits. The JSON API and
 * `hazelnut search` link to the mapped address as well.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { makeDocx, makeOdt } from '../fixtures/documents.js';
import { hz } from '../crawler/checkers/run-cli.js';
import { shareConf } from '../fixtures/share.js';

const HOST = '127.0.6.21';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-share-'));
const share = path.join(tmp, 'share');
const shareUrl = pathToFileURL(share).href + '/';
const write = (p: string, body: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(share, p)), { recursive: true });
  fs.writeFileSync(path.join(share, p), body);
};
let s: RunningSearcher | undefined;
let browser: Browser | undefined;
let page: Page;

test.before(async () => {
  write('policies/travel.md', '---\nowner: hr\n---\nThe travel handbook.\n\n# Travel policy\n\nHandbook: trains for trips under four hours.\n');
  write('policies/notes 2024.txt', 'Handbook meeting notes\nThe cafeteria opens at eight.\n');
  write('policies/remote.docx', makeDocx([{ heading: 'Remote work' }, { para: 'Handbook: home office on Fridays.' }]));
  write('archive/expenses.odt', makeOdt([{ heading: 'Expenses' }, { para: 'Handbook: receipts within thirty days.' }]));
  const conf = shareConf(shareUrl);
  try {
    const seeds = path.join(tmp, 'seeds.txt');
    fs.writeFileSync(seeds, `${shareUrl}\n`);
    const r = await hz([...conf.args, 'crawl', seeds, '-dir', path.join(tmp, 'crawl'), '-depth', '4'], { confDir: conf.dir });
    assert.is(r.code, 0, r.err);
  } finally {
    conf.cleanup();
  }
  const served = Conf.load({ overrides: { 'file.url.map': `${shareUrl}archive/=https://files.example.com/old/ ${shareUrl}=smb://fs1/share/` } });
  s = await startSearcher(served, { dir: path.join(tmp, 'crawl'), port: 0, host: HOST });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  page = await (await browser.newContext()).newPage();
});
test.after(async () => {
  await browser?.close();
  await s?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const hit = (title: string) => page.locator('li.hit', { has: page.getByRole('link', { name: title, exact: true }) });

test('hits link to the mapped address, titled by heading and first line, typed as people say', async () => {
  await page.goto(`${s!.url}/search?query=handbook&hitsPerSite=0`);
  const titles = await page.locator('li.hit h2 a').allTextContents();
  assert.equal([...titles].sort(), ['Expenses', 'Handbook meeting notes', 'Remote work', 'Travel policy']);
  assert.is(await hit('Travel policy').locator('h2 a').getAttribute('href'), 'smb://fs1/share/policies/travel.md');
  assert.is(await hit('Handbook meeting notes').locator('h2 a').getAttribute('href'), 'smb://fs1/share/policies/notes%202024.txt');
  assert.is(await hit('Expenses').locator('h2 a').getAttribute('href'), 'https://files.example.com/old/expenses.odt');
  assert.match((await hit('Remote work').locator('.meta').textContent()) ?? '', /^Word · /);
  assert.match((await hit('Expenses').locator('.meta').textContent()) ?? '', /^OpenDocument text · /);
  assert.match((await hit('Travel policy').locator('.meta').textContent()) ?? '', /^Markdown · /);
  for (const t of titles) assert.is(await hit(t).getByRole('link', { name: 'view as text' }).count(), 1, t);
  const facet = await page.locator('nav.facets .facet', { hasText: 'Type' }).locator('a').allTextContents();
  assert.equal(facet.map((f) => f.replace(/\s*\(\d+\)$/, '')).sort(), ['Markdown', 'OpenDocument text', 'Word', 'plain text']);
});

test('the path is shown and one click selects all of it for copying', async () => {
  await page.goto(`${s!.url}/search?query=handbook&hitsPerSite=0`);
  const p = hit('Handbook meeting notes').locator('code.path');
  assert.is(await p.textContent(), path.join(share, 'policies', 'notes 2024.txt'));
  await p.click();
  assert.is(await page.evaluate(() => window.getSelection()?.toString()), path.join(share, 'policies', 'notes 2024.txt'));
});

test('the JSON API and hazelnut search give the mapped address and the path too', async () => {
  const api = (await (await fetch(`${s!.url}/api/search?query=trains`)).json()) as { hits: { url: string; link: string; path: string | null }[] };
  assert.equal(api.hits.map((h) => [h.link, h.path]), [['smb://fs1/share/policies/travel.md', path.join(share, 'policies', 'travel.md')]]);
  const conf = shareConf(shareUrl);
  try {
    const r = await hz(['-D', `file.url.map=${shareUrl}=smb://fs1/share/`, 'search', path.join(tmp, 'crawl'), 'trains'], { confDir: conf.dir });
    assert.is(r.code, 0, r.err);
    assert.match(r.out, /^1\. Travel policy\n {3}smb:\/\/fs1\/share\/policies\/travel\.md\n/);
  } finally {
    conf.cleanup();
  }
});

test('directory listings are followed but never a hit', async () => {
  await page.goto(`${s!.url}/search?query=${encodeURIComponent('index of policies')}&hitsPerSite=0`);
  const titles = await page.locator('li.hit h2 a').allTextContents();
  assert.ok(titles.every((t) => !t.startsWith('Index of')), titles.join(' | '));
});

test.run();
