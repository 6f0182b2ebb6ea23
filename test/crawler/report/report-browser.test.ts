/**
 * The crawl report after a re-crawl, read in headless Chromium from the
 * search page's footer: what changed (a page added, one changed with its
 * diff, one now missing with the page linking to it, one redirected), the
 * host that ended each round, the judged queries' table, and charts a
 * reader can read: the fetch-rate unit clear of every line, round 1 drawn
 * on top, segment ages in a unit that shows a fresh crawl's bars.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../../shared/conf.js';
import { startSearcher, type RunningSearcher } from '../../../searcher/server.js';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { hz, tempConf } from '../checkers/run-cli.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-report-browser-'));
const conf = tempConf();
const dir = path.join(tmp, 'crawl');
const html = (title: string, text: string, links: string[] = []) =>
  `<html><head><title>${title}</title></head><body><p>${text}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
let web: TestWeb;
let s: RunningSearcher | undefined;
let browser: Browser | undefined;
let page: Page;

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.44',
    hosts: {
      docs: {
        pages: {
          '/': html('Docs', 'The documentation home.', ['/travel.html', '/stable.html', '/gone.html', '/old.html']),
          '/travel.html': html('Travel policy', 'Trains for trips under four hours; flights beyond.'),
          '/stable.html': html('Stable', 'This page never changes.'),
          '/gone.html': html('Soon gone', 'This page will be deleted.'),
          '/old.html': html('Old address', 'This page will move.'),
        },
      },
      wiki: { pages: { '/': html('Wiki', 'The wiki home.', ['/w1.html']), '/w1.html': html('Wiki one', 'A wiki page.') } },
    },
  });
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${web.url('docs', '/')}\n${web.url('wiki', '/')}\n`);
  const judged = path.join(tmp, 'judged.tsv');
  fs.writeFileSync(judged, `trains trips\t${web.url('docs', '/travel.html')}\nwiki page\t${web.url('wiki', '/w1.html')}\n`);
  const args = ['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', '-D', 'db.fetch.interval.default=1', 'crawl', seeds, '-dir', dir, '-depth', '2'];
  const first = await hz(args, { confDir: conf.dir });
  assert.is(first.code, 0, first.err);

  web.setPage('docs', '/travel.html', html('Travel policy', 'Trains for trips under six hours; flights beyond.'));
  web.removePage('docs', '/gone.html');
  web.setPage('docs', '/old.html', { status: 301, location: '/stable.html' });
  web.setPage('docs', '/', html('Docs', 'The documentation home.', ['/travel.html', '/stable.html', '/gone.html', '/old.html', '/new.html']));
  web.setPage('docs', '/new.html', html('Brand new', 'A page added between the crawls.'));
  await new Promise((res) => setTimeout(res, 1100));
  const second = await hz([...args, '-evaluate', judged], { confDir: conf.dir });
  assert.is(second.code, 0, second.err);

  s = await startSearcher(Conf.load(), { dir, port: 0, host: '127.0.44.200' });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  page = await (await browser.newContext()).newPage();
  await page.goto(`${s.url}/search?query=trains`);
  await page.getByRole('contentinfo').getByRole('link', { name: 'crawl report' }).click();
  await page.waitForURL(/\/report$/);
});
test.after(async () => {
  await browser?.close();
  await s?.close();
  await web?.stop();
  conf.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const text = async (selector: string) => (await page.locator(selector).innerText()).replace(/\s+/g, ' ');

test('what changed since the last crawl: added, changed with its diff, missing with its linking page, redirected', async () => {
  const changes = await text('#changes');
  assert.match(changes, /pages added 1 pages removed 2 pages changed 2 new missing pages \(404, 410\) 1 new redirects 1/, changes);
  assert.ok(changes.includes(`Brand new — ${web.url('docs', '/new.html')}`), changes);
  const travel = page.locator('#changes li', { hasText: web.url('docs', '/travel.html') });
  assert.is(await travel.locator('del').innerText(), 'four');
  assert.is(await travel.locator('ins').innerText(), 'six');
  const missing = page.locator('#changes li', { hasText: `${web.url('docs', '/gone.html')} (HTTP 404)` });
  assert.is(await missing.getByRole('link', { name: web.url('docs', '/'), exact: true }).count(), 1, 'linked from the page to fix');
  assert.ok(changes.includes(`${web.url('docs', '/old.html')} → ${web.url('docs', '/stable.html')}`));
  const listed = await text('#missing');
  assert.ok(listed.includes(`${web.url('docs', '/gone.html')} ${web.url('docs', '/')}`), `the missing list names the linking page: ${listed}`);
});

test('report -since moves the point compared from; a bad -since is named and writes nothing', async () => {
  const out = path.join(tmp, 'since.html');
  const all = await hz(['report', dir, '-since', '2000-01-01', '-out', out], { confDir: conf.dir });
  assert.is(all.code, 0, all.err);
  const written = fs.readFileSync(out, 'utf8');
  assert.match(written, /<meta name="hazelnut-since" content="2000-01-01">/);
  assert.match(written, /<td><a href="#added">pages added<\/a><\/td><td class="n">6<\/td>/, "every page fetched and still there is new since 2000");
  const bad = await hz(['report', dir, '-since', 'last tuesday', '-out', path.join(tmp, 'bad.html')], { confDir: conf.dir });
  assert.is(bad.code, 2);
  assert.match(bad.err, /-since takes a segment name \(yyyyMMddHHmmss\) or a date \(yyyy-MM-dd\), not "last tuesday"/);
  assert.not.ok(fs.existsSync(path.join(tmp, 'bad.html')));
});

test('each round names the host that ended it; the judged queries are tabled', async () => {
  const rows = await page.locator('#rate tbody tr').allInnerTexts();
  assert.is(rows.length, 4);
  for (const r of rows) assert.match(r, /127\.0\.44\.\d+(:\d+)? \(\d+ pages?, (alone for the last \d+\.\d s|the only host)\)/, r);
  const queries = await text('#queries');
  assert.match(queries, /MRR@10 1\.000, P@1 1\.000 \(2 of 2 first\)/, queries);
  assert.is(await page.locator('#queries').getByRole('link', { name: 'explain' }).count(), 2);
});

test('charts: the rate unit clear of the lines, round 1 on top, segment ages visible on a fresh crawl', async () => {
  const chart = page.locator('#rate svg');
  const clear = await chart.evaluate((svg) => {
    const unit = (svg.querySelector('text.unit') as SVGTextElement).getBBox();
    const marks = [...svg.querySelectorAll('g.series circle')].map((c) => (c as SVGCircleElement).getBBox());
    const points = [...svg.querySelectorAll('g.series polyline')].flatMap((p) => [...(p as SVGPolylineElement).points].map((pt) => pt.y));
    return marks.every((m) => m.y > unit.y + unit.height) && points.every((y) => y > unit.y + unit.height);
  });
  assert.ok(clear, 'no line or dot reaches the unit label');
  const series = await chart.locator('g.series').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-series')));
  assert.is(series.at(-1), '1', 'round 1 is drawn last, on top');
  await chart.scrollIntoViewIfNeeded();
  const dot = await chart.locator('g.series[data-series="1"] circle').first().boundingBox();
  const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('g.series')?.getAttribute('data-series'), [dot!.x + dot!.width / 2, dot!.y + dot!.height / 2]);
  assert.is(hit, '1', "round 1's dot is what a reader sees at its place");
  const ages = page.locator('#segments svg');
  assert.is(await ages.locator('title').first().textContent(), 'Age of each segment, seconds');
  const widths = await ages.locator('rect').evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('width'))));
  assert.ok(widths.length === 4 && widths.some((w) => w > 20), `bars: ${widths.join(', ')}`);
});

test.run();
