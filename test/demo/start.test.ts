/**
 * `npm start` end to end, as the README gives it: it serves the demo web,
 * crawls it, starts the searcher and prints the URL; the printed URL answers
 * the example queries; Ctrl-C (SIGINT to the process group, as a terminal
 * sends it) stops everything and exits 0, leaving nothing listening.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exited, freePort, groupGone, killGroup, npmStart, refused, until } from './npm-start.js';

const SEARCH_HOST = '127.0.7.40';
const WEB_IP = '127.0.7.31';

/** The README's suggested searches (but nightjar, which finds nothing) and the page that answers each. */
const BEST_ANSWERS: [query: string, best: RegExp][] = [
  ['expense report receipts', /^http:\/\/127\.0\.7\.31:\d+\/(money|finance)\/expenses\.html$/],
  ['"exponential backoff" jitter', /^http:\/\/127\.0\.7\.32:\d+\/decisions\/adr-003-exponential-backoff\.html$/],
  ['postgres disk', /^http:\/\/127\.0\.7\.32:\d+\/runbooks\/postgres-disk-full\.html$/],
  // The leave index names every kind of leave; the page about annual leave answers the question.
  ['how many vacation days do I get', /^http:\/\/127\.0\.7\.31:\d+\/leave\/annual-leave\.html$/],
  ['서울 사무소', /^http:\/\/127\.0\.7\.31:\d+\/offices\/seoul\.html$/],
  ['Urlaub', /^http:\/\/127\.0\.7\.31:\d+\/offices\/berlin\.html$/],
];

async function hitUrls(base: string, query: string): Promise<string[]> {
  const res = await fetch(`${base}api/search?query=${encodeURIComponent(query)}`);
  assert.is(res.status, 200, query);
  const body = (await res.json()) as { hits: { url: string }[] };
  return body.hits.map((h) => h.url);
}

test('npm start crawls the demo web, serves search, and stops cleanly on Ctrl-C', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-demo-start-'));
  const port = await freePort(SEARCH_HOST);
  const { proc, out: stdout, err: stderr } = npmStart(['-port', String(port), '-host', SEARCH_HOST, '-ip', WEB_IP, '-dir', path.join(tmp, 'crawl')]);
  try {
    await until(() => stdout().includes('Ctrl-C stops'), proc, 60_000);
    const out = stdout();
    assert.ok(out.includes('Ctrl-C stops'), `npm start did not become ready:\n${out}\n${stderr()}`);
    const base = /demo is ready: open (http:\S+)/.exec(out)![1]!;
    assert.is(base, `http://${SEARCH_HOST}:${port}/`);
    const web = [...out.matchAll(/(http:\/\/127\.0\.7\.3\d:\d+\/)/g)].map((m) => m[1]!);
    assert.is(web.length, 4, 'four demo hosts printed');
    const searchUrls = [...out.matchAll(/http:\/\/[\w.]+:\d+\//g)].map((m) => m[0]).filter((u) => !web.includes(u));
    assert.equal([...new Set(searchUrls)], [base], 'every search address printed is the one the searcher got');

    const expenses = await hitUrls(base, 'expense report receipts');
    assert.is(expenses.filter((u) => /\/expenses\.html$/.test(u)).length, 1, 'the duplicate is one hit');
    // Each search the README suggests shows its best answer first, with the shipped settings.
    for (const [query, best] of BEST_ANSWERS) {
      const urls = await hitUrls(base, query);
      assert.ok(best.test(urls[0] ?? ''), `${query}: first ${urls[0]}, expected ${best}; all: ${urls.join(' ')}`);
    }
    assert.equal(await hitUrls(base, 'nightjar'), [], 'drafts stay out');
    // With the shipped hits per site, every page holding both words is on the first page, none behind a partial match,
    // but the site map: a navigation page, whose words name other pages, counts at its prose share.
    const found = async (q: string) => (await (await fetch(`${base}api/search?query=${encodeURIComponent('postgres disk')}${q}`)).json()) as { total: number; partial: number; hits: { url: string; allWords: boolean }[] };
    const pg = await found('');
    const all = pg.hits.map((h) => h.allWords);
    const shown = new Set(pg.hits.map((h) => h.url));
    const behind = (await found('&hitsPerSite=0&hitsPerPage=50')).hits.filter((h) => h.allWords && !shown.has(h.url)).map((h) => new URL(h.url).pathname);
    assert.equal(behind, ['/sitemap.html'], 'every full match shown but the site map');
    assert.is(all.filter(Boolean).length, pg.total - pg.partial - 1, 'every full match shown but the site map');
    assert.is(all.indexOf(false), pg.total - pg.partial - 1, 'full matches first');
    const page = await fetch(base);
    assert.is(page.status, 200);

    process.kill(-proc.pid!, 'SIGINT');
    // npm re-raises the signal on itself after its script ends; the runner's own
    // message tells whether it stopped as asked or failed.
    assert.ok(['0', 'SIGINT'].includes(await exited(proc, 15_000)), `npm start ended after Ctrl-C:\n${stderr()}`);
    assert.match(stderr(), 'demo: stopping');
    assert.not.match(stderr(), /demo: the (crawl|searcher)/);
    assert.ok(await groupGone(proc.pid!, 10_000), 'no process of npm start is left');
    assert.ok(await refused(base + 'healthz'), 'searcher stopped');
    for (const w of web) assert.ok(await refused(w), `demo web ${w} stopped`);
  } finally {
    killGroup(proc.pid!);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test.run();
