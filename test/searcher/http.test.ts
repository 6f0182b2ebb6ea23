/**
 * The searcher over HTTP: the real server on loopback over a real crawl
 * directory (segment store + index writer + publish), every route and every
 * query form, malformed input included.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';
import { parseXml } from '../../shared/xml.js';
import { PAGE_CSP } from '../../searcher/http/layout.js';
import { startSearcher, type RunningSearcher } from '../../searcher/server.js';
import { buildCrawl, tempCrawlDir } from './crawl-fixture.js';
import { EVIL_URL, PAGES } from './pages.js';

const HOST = '127.0.6.1';
let dir = '';
let s: RunningSearcher;

test.before(async () => {
  dir = tempCrawlDir();
  await buildCrawl(dir, PAGES);
  // Strict AND (Nutch's semantics) so the query forms below are exact; partial matches are tested on their own.
  s = await startSearcher(Conf.load({ overrides: { 'searcher.partial.below': '0' } }), { dir, port: 0, host: HOST });
});
test.after(async () => {
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (path: string) => fetch(s.url + path);
const api = async (query: string, extra = '') => {
  const r = await get(`/api/search?query=${encodeURIComponent(query)}${extra}`);
  assert.is(r.status, 200, `${query}: ${r.status}`);
  return (await r.json()) as { total: number; exact: boolean; hidden: number; hasNext: boolean; hitsPerPage: number; stopped: string[]; hits: { url: string; title: string; summary: string; score: number; site: string; segment: string }[]; timing: { searchMs: number } };
};
const urls = async (query: string, extra = '&hitsPerSite=0') => (await api(query, extra)).hits.map((h) => h.url).sort();

// query form → the URLs expected (every hit, no grouping)
const FORMS: [query: string, expected: string[]][] = [
  ['fetcher', ['http://docs.test/fetcher', 'http://files.test/manual.pdf', 'http://blog.test/2023/crawling']],
  ['fetchers', ['http://docs.test/fetcher', 'http://files.test/manual.pdf', 'http://blog.test/2023/crawling']],
  ['crawler fetcher', ['http://docs.test/fetcher', 'http://files.test/manual.pdf', 'http://blog.test/2023/crawling']],
  ['"web crawler"', ['http://docs.test/crawler']],
  ['"crawler web"', []],
  ['crawler -fetcher -parser', ['http://de.test/kriecher', 'http://docs.test/crawler', 'http://private.test/secret', EVIL_URL]],
  ['crawler -"web crawler"', ['http://blog.test/2023/crawling', 'http://de.test/kriecher', 'http://docs.test/fetcher', 'http://docs.test/parser', 'http://files.test/manual.pdf', 'http://private.test/secret', EVIL_URL]],
  ['site:docs.test crawler', ['http://docs.test/crawler', 'http://docs.test/fetcher', 'http://docs.test/parser']],
  ['-site:docs.test fetcher', ['http://files.test/manual.pdf', 'http://blog.test/2023/crawling']],
  ['url:manual crawler', ['http://files.test/manual.pdf']],
  ['title:guide', ['http://docs.test/crawler']],
  ['title:fetcher', ['http://docs.test/fetcher']],
  ['anchor:guide', ['http://docs.test/crawler']],
  ['type:pdf crawler', ['http://files.test/manual.pdf']],
  ['type:application/pdf crawler', ['http://files.test/manual.pdf']],
  ['-type:html crawler', ['http://files.test/manual.pdf']],
  ['lang:de crawler', ['http://de.test/kriecher']],
  ['date:20230101-20231231 crawler', ['http://blog.test/2023/crawling']],
  ['ranking OR politeness', ['http://blog.test/2024/search', 'http://docs.test/crawler']],
  ['bm25f OR outlinks proximity', ['http://blog.test/2024/search']],
  ['foo:bar crawler', []],
  ['"unbalanced crawler', []],
  ['"politeness matters', ['http://docs.test/crawler']],
  ['+the parser', ['http://docs.test/parser']],
  ['site:docs.test', ['http://docs.test/crawler', 'http://docs.test/fetcher', 'http://docs.test/parser']],
  ['lang:de -site:docs.test', ['http://de.test/kriecher']],
  ['-site:docs.test', []],
  ['type:pdf', ['http://files.test/manual.pdf']],
  ['type:html', []],
];

for (const [query, expected] of FORMS)
  test(`query ${query}`, async () => {
    assert.equal(await urls(query), [...expected].sort());
  });

test('stop words are dropped only when other words remain, and said so', async () => {
  const r = await api('what is the fetcher');
  assert.equal(r.stopped.sort(), ['is', 'the', 'what']);
  assert.ok(r.hits.length > 0);
  assert.ok((await api('the')).hits.length > 0, 'a stop word alone is still searched');
  const html = await (await get('/search?query=how+the+crawler')).text();
  assert.match(html, /Common words left out: <q>how<\/q>, <q>the<\/q>/);
});

test('malformed input: sensible answers, 400 for what cannot be understood, never 500', async () => {
  const cases: [string, number][] = [
    ['/search?query=-crawler', 200],
    ['/search?query=' + encodeURIComponent('x'.repeat(10_000)), 200],
    ['/search?query=' + encodeURIComponent('crawler '.repeat(1500)), 200],
    ['/search?query=' + encodeURIComponent('crawler\u0000\u0001\u001b[31m'), 200],
    ['/search?query=%22', 200],
    ['/search?query=' + encodeURIComponent('"""'), 200],
    ['/search?query=' + encodeURIComponent('OR OR OR'), 200],
    ['/search?query=' + encodeURIComponent('site:'), 200],
    ['/search?query=' + encodeURIComponent('date:2024'), 400],
    ['/api/search?query=' + encodeURIComponent('date:99999999-1'), 400],
    ['/search?query=crawler&start=abc', 400],
    ['/search?query=crawler&hitsPerPage=-1', 400],
    ['/search?query=crawler&start=999999', 200],
    ['/search?query=%E0%A4%A', 200],
    ['/cached', 400],
    ['/explain?url=http://nowhere.test/', 404],
    ['/no/such/route', 404],
  ];
  for (const [path, status] of cases) {
    const r = await get(path);
    assert.is(r.status, status, path.slice(0, 80));
    await r.arrayBuffer();
  }
  const only = await (await get('/search?query=-crawler')).text();
  assert.match(only, /at least one word that is not excluded/);
  const bad = await (await get('/search?query=date:2024')).text();
  assert.match(bad, /date:yyyymmdd-yyyymmdd/);
});

test('hits per site: two per site past the first page of the plain ranking, "more from this site" and "show all hits"', async () => {
  assert.is((await api('crawler', '&hitsPerPage=20')).hidden, 0, 'the plain ranking\'s first page is never hidden');
  const all = await api('crawler', '&hitsPerPage=20&hitsPerSite=0');
  assert.is(all.hits.filter((h) => h.site === 'docs.test').length, 3);
  const grouped = await api('crawler', '&hitsPerPage=2');
  assert.ok(grouped.hidden >= 1);
  const html = await (await get('/search?query=crawler&hitsPerPage=2')).text();
  assert.match(html, /href="\/search\?query=site%3Adocs\.test\+crawler&amp;hitsPerPage=2&amp;hitsPerSite=0">more from docs\.test<\/a>/);
  assert.match(html, /Show all hits \(\d+ more from sites already shown\)/);
  const more = await api('site:docs.test crawler', '&hitsPerSite=0');
  assert.is(more.hits.length, 3);
});

test('paging: start and hitsPerPage, capped by searcher.max.hits.per.page, honest totals', async () => {
  const all = await api('crawler', '&hitsPerSite=0&hitsPerPage=50');
  assert.is(all.exact, true);
  assert.is(all.total, all.hits.length);
  const p1 = await api('crawler', '&hitsPerSite=0&hitsPerPage=3');
  const p2 = await api('crawler', '&hitsPerSite=0&hitsPerPage=3&start=3');
  assert.is(p1.hasNext, true);
  assert.equal([...p1.hits, ...p2.hits].map((h) => h.url), all.hits.slice(0, 6).map((h) => h.url));
  assert.is((await api('crawler', '&hitsPerPage=100000')).hitsPerPage, 100);
  const html = await (await get('/search?query=crawler&hitsPerSite=0&hitsPerPage=3')).text();
  assert.match(html, new RegExp(`Hits 1–3 \\(of ${all.total} matching pages\\)`));
  assert.match(html, /rel="next" href="\/search\?query=crawler&amp;start=3&amp;hitsPerPage=3&amp;hitsPerSite=0"/);
});

test('the JSON API: hits with url, title, summary, score, site, segment; total; exact; timing', async () => {
  const r = await api('fetcher threads');
  assert.is(r.hits.length, 1);
  const h = r.hits[0]!;
  assert.is(h.url, 'http://docs.test/fetcher');
  assert.is(h.title, 'Fetcher settings');
  assert.match(h.summary, /fetcher threads/);
  assert.ok(h.score > 0);
  assert.is(h.site, 'docs.test');
  assert.match(h.segment, /^\d{14}$/);
  assert.is(r.exact, true);
  assert.type(r.timing.searchMs, 'number');
});

test('the results page: title, URL, summary with marks, type, size, date and the hit links', async () => {
  const r = await get('/search?query=fetcher+threads');
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  const html = await r.text();
  assert.match(html, /<a href="http:\/\/docs\.test\/fetcher">Fetcher settings<\/a>/);
  assert.match(html, /<mark>fetcher<\/mark> <mark>threads<\/mark>/);
  assert.match(html, /HTML · \d+ B · 2024-05-01/);
  for (const l of ['/cached?url=http%3A%2F%2Fdocs.test%2Ffetcher', '/text?url=http%3A%2F%2Fdocs.test%2Ffetcher', '/anchors?url=', '/explain?url=']) assert.ok(html.includes(l), l);
  assert.not.match(html, /more from/, 'nothing of the only site is hidden');
  assert.match(html, /<label for="q">/);
  assert.match(html, /<main id="main"/);
  assert.equal(html.match(/<script[^>]*>[^<]*/gi), ['<script src="/typeahead.js" defer>'], 'no script but the type-ahead, from this server');
  const pdf = await (await get('/search?query=manual+printable')).text();
  assert.match(pdf, /PDF · /);
  assert.match(pdf, /view as text/);
  const secret = await (await get('/search?query=archived')).text();
  assert.not.match(secret, /cached\?url=http%3A%2F%2Fprivate/);
});

test('hostile titles, text and URLs are escaped everywhere', async () => {
  for (const path of ['/search?query=evil+crawler', '/opensearch?query=evil+crawler', `/text?url=${encodeURIComponent(EVIL_URL)}`, `/anchors?url=${encodeURIComponent(EVIL_URL)}`, `/explain?url=${encodeURIComponent(EVIL_URL)}&query=evil`]) {
    const body = await (await get(path)).text();
    assert.not.match(body, /<script>window/, path);
    assert.not.match(body, /<img src=x onerror/, path);
    assert.not.match(body, /<b onmouseover/, path);
  }
});

test('OpenSearch RSS: well-formed, OpenSearch elements and Nutch item fields', async () => {
  const r = await get('/opensearch?query=crawler&hitsPerPage=2');
  assert.match(r.headers.get('content-type') ?? '', /text\/xml/);
  const xml = await r.text();
  const rss = parseXml(xml);
  assert.is(rss.name, 'rss');
  for (const el of ['opensearch:totalResults', 'opensearch:startIndex', 'opensearch:itemsPerPage', 'nutch:query', 'nutch:nextPage', 'nutch:showAllHits'])
    assert.ok(xml.includes(`<${el}>`), el);
  const items = xml.match(/<item>/g) ?? [];
  assert.is(items.length, 2);
  for (const el of ['title', 'description', 'link', 'nutch:site', 'nutch:cache', 'nutch:explain', 'nutch:moreFromSite', 'nutch:segment', 'nutch:digest', 'nutch:boost', 'nutch:tstamp'])
    assert.ok(xml.includes(`<${el}>`), el);
  const evil = await (await get('/opensearch?query=evil')).text();
  parseXml(evil);
  const desc = await get('/opensearch.xml');
  const d = await desc.text();
  assert.is(parseXml(d).name, 'OpenSearchDescription');
  assert.match(d, /\/search\?query=\{searchTerms\}/);
});

test('cached: the page as fetched, sandboxed, with a banner; noarchive refused; other types', async () => {
  const r = await get('/cached?url=' + encodeURIComponent('http://docs.test/fetcher'));
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-security-policy') ?? '', /^sandbox/);
  const html = await r.text();
  assert.match(html, /cached copy of <a [^>]*>http:\/\/docs\.test\/fetcher<\/a>, fetched 2024-05-01 12:00:00 UTC/);
  assert.match(html, /set fetcher threads here/);
  const evil = await get('/cached?url=' + encodeURIComponent(EVIL_URL));
  assert.match(evil.headers.get('content-security-policy') ?? '', /^sandbox; default-src 'none'/);
  const no = await get('/cached?url=' + encodeURIComponent('http://private.test/secret'));
  assert.is(no.status, 403);
  assert.match(await no.text(), /administratively prohibited/);
  const pdf = await (await get('/cached?url=' + encodeURIComponent('http://files.test/manual.pdf'))).text();
  assert.match(pdf, /has type <code>application\/pdf<\/code>/);
  const raw = await get('/cached/raw?url=' + encodeURIComponent('http://files.test/manual.pdf'));
  assert.is(raw.headers.get('content-type'), 'application/pdf');
  assert.match(raw.headers.get('content-security-policy') ?? '', /sandbox/);
  assert.is(await raw.text(), '%PDF-1.4 fake pdf bytes');
  assert.is((await get('/cached/raw?url=' + encodeURIComponent('http://private.test/secret'))).status, 403);
  assert.is((await get('/cached?url=' + encodeURIComponent('http://nowhere.test/'))).status, 404);
});

test('every answer carries the security headers, a page with its own policy keeps it, and a JSON answer is one body of its Content-Length', async () => {
  const cached = (u: string) => `/cached?url=${encodeURIComponent(u)}`;
  const paths: [path: string, status: number, csp: RegExp][] = [
    ['/', 200, /^default-src 'none'/],
    ['/search?query=crawler', 200, /^default-src 'none'/],
    ['/api/search?query=crawler', 200, /^default-src 'none'/],
    ['/api/search?query=crawler&start=x', 400, /^default-src 'none'/],
    ['/search?query=crawler&start=x', 400, /^default-src 'none'/],
    ['/no/such/page', 404, /^default-src 'none'/],
    ['/healthz', 200, /^default-src 'none'/],
    ['/stats?format=json', 200, /^default-src 'none'/],
    ['/opensearch?query=crawler', 200, /^default-src 'none'/],
    [cached('http://docs.test/fetcher'), 200, /^sandbox; /],
    ['/cached/raw?url=' + encodeURIComponent('http://files.test/manual.pdf'), 200, /^sandbox; default-src 'none'$/],
  ];
  for (const [path, status, csp] of paths) {
    const r = await get(path);
    assert.is(r.status, status, path);
    assert.is(r.headers.get('x-content-type-options'), 'nosniff', path);
    assert.is(r.headers.get('referrer-policy'), 'no-referrer', path);
    const policy = r.headers.get('content-security-policy') ?? '';
    assert.match(policy, csp, path);
    if (csp.source.startsWith('^default')) assert.is(policy, PAGE_CSP, path);
    const body = Buffer.from(await r.arrayBuffer());
    if (path.startsWith('/api/')) {
      assert.is(r.headers.get('content-type'), 'application/json', path);
      assert.is(r.headers.get('content-length'), String(body.length), path);
      assert.is(r.headers.get('transfer-encoding'), null, path);
    }
  }
});

test('text, anchors, explain', async () => {
  const t = await (await get('/text?url=' + encodeURIComponent('http://docs.test/parser'))).text();
  assert.match(t, /<pre>The parser reads what the crawler fetched and extracts outlinks\.<\/pre>/);
  const a = await (await get('/anchors?url=' + encodeURIComponent('http://docs.test/crawler'))).text();
  assert.match(a, /<li>crawler guide<\/li>/);
  const e = await (await get('/explain?url=' + encodeURIComponent('http://docs.test/crawler') + '&query=web+crawler')).text();
  for (const factor of ['BM25F', 'k1 = ', 'idf', 'title: tf 1', 'content: tf', 'Proximity', 'distance', 'Link prior', 'boost 3.0000', 'Stored fields', 'segment'])
    assert.ok(e.includes(factor), factor);
  const nomatch = await (await get('/explain?url=' + encodeURIComponent('http://docs.test/crawler') + '&query=parser')).text();
  assert.match(nomatch, /does not match the whole query/);
});

test('healthz and stats', async () => {
  assert.is(await (await get('/healthz')).text(), 'ok\n');
  const st = (await (await get('/stats?format=json')).json()) as { documents: number; segments: number; indexAgeSeconds: number; version: string };
  assert.is(st.documents, PAGES.length);
  assert.is(st.segments, 1);
  assert.ok(st.indexAgeSeconds >= 0);
  assert.is(st.version, '000001');
  assert.match(await (await get('/stats')).text(), /<th scope="row">documents<\/th><td>9<\/td>/);
  const home = await (await get('/')).text();
  assert.match(home, /Search 9 pages/);
});

test('with the default searcher.partial.below, pages with some of the words join, and the page says so', async () => {
  const d = await startSearcher(Conf.load(), { dir, port: 0, host: HOST });
  try {
    const r = (await (await fetch(`${d.url}/api/search?query=politeness+zebra&hitsPerSite=0`)).json()) as { total: number; partial: number; hits: { url: string }[] };
    assert.equal(r.hits.map((h) => h.url), ['http://docs.test/crawler']);
    assert.is(r.partial, 1);
    const html = await (await fetch(`${d.url}/search?query=politeness+zebra`)).text();
    assert.match(html, /No page holds every word; pages holding some of them are included/);
    const full = (await (await fetch(`${d.url}/api/search?query=web+crawler&hitsPerSite=0`)).json()) as { partial: number; hits: { url: string }[] };
    assert.is(full.hits[0]!.url, 'http://docs.test/crawler', 'pages with every word still rank first here');
  } finally {
    await d.close();
  }
});

test('a second searcher on the same port fails with a message naming the port', async () => {
  try {
    await startSearcher(Conf.load(), { dir, port: s.port, host: HOST });
    assert.unreachable('should not listen twice');
  } catch (e) {
    assert.match((e as Error).message, new RegExp(`port ${s.port} on ${HOST.replace(/\./g, '\\.')} is already in use.*-port`));
  }
});

test.run();
