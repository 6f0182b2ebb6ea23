/**
 * The demo web as served: every internal link resolves (except the one broken
 * on purpose), robots.txt disallows the drafts and only the drafts carry the
 * robots-only word, the Korean page is UTF-8, the duplicate is byte-identical,
 * the crawl depth the runner uses reaches every allowed page, there are at
 * least 250 pages, and the committed site matches its authoring sources.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { robotsStateFor, rulesFor } from '../../crawler/fetch/robots.js';
import { buildSite } from '../../crawler/demo/authoring/write-site.js';
import { DEMO_BROKEN_LINKS, DEMO_DEPTH, DEMO_HOSTS, DEMO_ROBOTS_ONLY_WORD } from '../../crawler/demo/intranet.js';
import { DEMO_SITE_DIR, serveDemoWeb, type DemoWeb } from '../../crawler/demo/serve.js';

interface Fetched { url: string; status: number; type: string; body: string; location?: string; depth: number }

let web: DemoWeb;
const pages = new Map<string, Fetched>();

/** Walks the whole demo web breadth first from the home pages, ignoring robots.txt. */
async function walk(): Promise<void> {
  const origins = web.hosts.map((h) => h.origin);
  const queue: [string, number][] = web.hosts.map((h) => [h.origin + '/', 0]);
  const seen = new Set(queue.map(([u]) => u));
  const deadline = Date.now() + 20_000;
  while (queue.length > 0) {
    assert.ok(seen.size < 2000 && Date.now() < deadline, 'walk stays bounded');
    const [url, depth] = queue.shift()!;
    const res = await fetch(url, { redirect: 'manual' });
    const f: Fetched = { url, status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text(), depth };
    pages.set(url, f);
    const next: string[] = [];
    if (res.status === 301) next.push((f.location = new URL(res.headers.get('location')!, url).href));
    if (f.type.startsWith('text/html')) for (const m of f.body.matchAll(/href="([^"]+)"/g)) next.push(new URL(m[1]!, url).href);
    for (const n of next) {
      const u = n.replace(/#.*$/, '');
      if (!origins.includes(new URL(u).origin)) assert.unreachable(`${url} links outside the demo web: ${u}`);
      if (!seen.has(u)) {
        seen.add(u);
        queue.push([u, depth + 1]);
      }
    }
  }
}

const served = (authored: string) => web.rewrite(authored);

test.before(async () => {
  web = await serveDemoWeb({ firstAddress: '127.0.7.1', port: 0 });
  await walk();
});
test.after(() => web?.close());

test('every internal link resolves, except the one broken on purpose', () => {
  const broken = [...pages.values()].filter((p) => p.status !== 200 && p.status !== 301).map((p) => p.url);
  assert.equal(broken.sort(), DEMO_BROKEN_LINKS.map(served).sort());
  for (const p of pages.values()) if (p.location) assert.is(pages.get(p.location)?.status, 200, `redirect target of ${p.url}`);
});

test('links point at the served addresses, never at the authored host names', () => {
  for (const p of pages.values())
    for (const m of p.body.matchAll(/href="([^"]+)"/g)) assert.not.match(m[1]!, 'kestrel.test', p.url);
});

test('at least 250 pages', () => {
  const html = [...pages.values()].filter((p) => p.status === 200 && p.type.startsWith('text/html'));
  assert.ok(html.length >= 250, `${html.length} pages`);
  assert.ok(html.length <= 400, `${html.length} pages`);
});

test('robots.txt (read by the fetcher rules) disallows the wiki drafts, and only drafts mention the robots-only word', async () => {
  for (const h of web.hosts) {
    const res = await fetch(h.origin + '/robots.txt');
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    const robots = rulesFor(h.origin, robotsStateFor({ status: res.status, body: await res.text() }, Date.now()), ['hazelnut-demo']);
    for (const d of h.host.disallow) assert.is(robots.allowed(h.origin + d + 'x.html'), false);
    assert.is(robots.allowed(h.origin + '/index.html'), true);
  }
  const wiki = web.hosts.find((h) => h.host.key === 'wiki')!;
  assert.equal(wiki.host.disallow, ['/drafts/']);
  const drafts = [...pages.values()].filter((p) => p.url.startsWith(wiki.origin + '/drafts/') && p.status === 200);
  assert.ok(drafts.length >= 3, 'the drafts exist and are linked');
  const word = new RegExp(DEMO_ROBOTS_ONLY_WORD, 'i');
  for (const p of pages.values()) {
    const disallowed = web.hosts.some((h) => p.url.startsWith(h.origin) && h.host.disallow.some((d) => p.url.startsWith(h.origin + d)));
    if (!disallowed) assert.not.ok(word.test(p.body), `${p.url} mentions ${DEMO_ROBOTS_ONLY_WORD}`);
    else if (p.url.endsWith('.html') && !p.url.endsWith('/index.html')) assert.ok(word.test(p.body), p.url);
  }
});

test('the Korean page is served as UTF-8', async () => {
  const res = await fetch(web.home('handbook') + 'offices/seoul.html');
  assert.is(res.headers.get('content-type'), 'text/html; charset=utf-8');
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  assert.match(text, '<html lang="ko">');
  assert.match(text, '서울 사무소');
  assert.ok(res.headers.get('last-modified'), 'Last-Modified is sent');
});

test('a duplicate is byte-identical and a redirect points at its page', () => {
  const hb = web.home('handbook');
  assert.is(pages.get(hb + 'money/expenses.html')?.body, pages.get(hb + 'finance/expenses.html')?.body);
  assert.is(pages.get(hb + 'holidays.html')?.location, hb + 'leave/public-holidays.html');
});

test('the runner crawl depth reaches every allowed page', () => {
  const allowed = [...pages.values()].filter((p) => !web.hosts.some((h) => h.host.disallow.some((d) => p.url.startsWith(h.origin + d))));
  const deepest = Math.max(...allowed.map((p) => p.depth));
  assert.ok(deepest + 1 <= DEMO_DEPTH, `deepest page at distance ${deepest}, crawl depth ${DEMO_DEPTH}`);
});

test('Last-Modified and If-Modified-Since give a 304', async () => {
  const url = web.home('docs') + 'guides/retries.html';
  const first = await fetch(url);
  const lm = first.headers.get('last-modified')!;
  await first.arrayBuffer();
  const again = await fetch(url, { headers: { 'If-Modified-Since': lm } });
  assert.is(again.status, 304);
});

test('the committed site is what the authoring sources build', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-demo-site-'));
  try {
    buildSite(tmp);
    const list = (root: string): string[] =>
      (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile()).sort();
    const files = list(tmp);
    assert.equal(files, list(DEMO_SITE_DIR));
    for (const f of files) assert.ok(fs.readFileSync(path.join(tmp, f)).equals(fs.readFileSync(path.join(DEMO_SITE_DIR, f))), `${f} is stale: run npx tsx crawler/demo/authoring/write-site.ts`);
    assert.is(new Set(list(tmp).map((f) => f.split(path.sep)[0])).size, DEMO_HOSTS.length);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test.run();
