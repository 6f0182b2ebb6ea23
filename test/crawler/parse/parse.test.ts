import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import iconv from 'iconv-lite';
import { EXAMINED_PAST_CAP, parseContent } from '../../../crawler/parse/parse-content.js';
import { extractHtml, extractHtmlYielding } from '../../../crawler/parse/html.js';
import { parseRefresh } from '../../../crawler/parse/html-meta.js';
import { SLICE_CHARS } from '../../../crawler/parse/breathe.js';
import { sniffContentType } from '../../../crawler/parse/sniff.js';
import '../../../crawler/builtins.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from '../../../crawler/plugin/chains.js';
import { Conf } from '../../../shared/conf.js';
import type { ContentRecord, FetchRecord } from '../../../segments/segment.js';

const conf = Conf.load();
let plugins: CrawlerPlugins;

test.before(async () => {
  plugins = await loadCrawlerPlugins(conf);
});
const PAGE = 'http://127.0.4.1/dir/page.html';

function page(body: string | Buffer, contentType: string | null = 'text/html', charset: string | null = 'utf-8', url = PAGE, c = conf, headers: Record<string, string> = {}) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const content: ContentRecord = { url, contentType, charset, bytes, truncated: false };
  const fetch: FetchRecord = { url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers, contentType };
  return parseContent(plugins, c, content, fetch);
}

test('title, visible text, block separation; script/style/noscript/template/svg/math skipped', async () => {
  const p = await page(`<html><head><title> My  Title </title><style>.x{}</style><script>var a = "<p>no</p>";</script></head>
    <body><h1>Head</h1><p>one<b>two</b></p><div>three</div><noscript>ns</noscript><template>tpl</template>
    <svg><title>svgtitle</title><text>svgtext</text></svg><math><mi>x</mi></math><p>four&amp;five &eacute;</p></body></html>`);
  assert.is(p.status, 'success');
  assert.is(p.title, 'My Title');
  assert.is(p.text, 'Head onetwo three four&five é');
});

test('outlinks: a, area, frame, iframe, link rel, anchors with img alt, base href, self-links and fragments dropped', async () => {
  const p = await page(`<html><head><base href="http://127.0.4.2/base/"><link rel="canonical" href="/canon">
    <link rel="stylesheet" href="s.css"><link rel="next" href="p2"></head><body>
    <a href="a.html">Alpha <img src=x alt="pic"> text</a>
    <map><area href="area.html" alt="Area"></map><iframe src="if.html"></iframe>
    <a href="http://127.0.4.1/dir/page.html">self</a><a href="#top">top</a><a href="mailto:x@y">mail</a>
    <a href="javascript:void(0)">js</a><a href="nf.html" rel="nofollow">nf</a></body></html>`);
  assert.equal(
    p.outlinks.map((l) => [l.url, l.anchor]),
    [
      ['http://127.0.4.2/canon', ''],
      ['http://127.0.4.2/base/p2', ''],
      ['http://127.0.4.2/base/a.html', 'Alpha pic text'],
      ['http://127.0.4.2/base/area.html', 'Area'],
      ['http://127.0.4.2/base/if.html', ''],
      ['http://127.0.4.2/base/', 'top'], // a fragment is relative to <base>, as in browsers
    ],
  );
  assert.is(p.meta.canonical, 'http://127.0.4.2/canon');
  assert.equal((await page('<a href="#x">x</a><a href="?">q</a><a href="page.html#y">y</a>')).outlinks, [], 'links to the page itself');
});

test('navigation text is left out of the page text, its links are kept; a page of nothing but navigation keeps it', async () => {
  const html = `<body><header><a href="/">Home</a> Site header</header><nav><a href="/a">Menu A</a></nav>
    <main><article><header><h1>Article title</h1></header><p>Body words.</p><footer>Posted in news</footer></article>
    <div role="navigation"><a href="/b">Crumb</a></div></main><footer>Copyright footer</footer></body>`;
  const p = await page(html);
  assert.is(p.text, 'Article title Body words. Posted in news');
  assert.equal(p.outlinks.map((l) => [l.anchor, l.nav]), [['Home', true], ['Menu A', true], ['Crumb', true]]);
  assert.is((await page('<nav><a href="/x">Only menu</a></nav>')).text, 'Only menu');
  const keepAll = conf.with({ 'parser.html.skip.navigation.text': 'false' });
  const content: ContentRecord = { url: PAGE, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(html), truncated: false };
  const fetch: FetchRecord = { url: PAGE, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: {} };
  const all = await parseContent(await loadCrawlerPlugins(keepAll), keepAll, content, fetch);
  assert.is(all.text, 'Home Site header Menu A Article title Body words. Posted in news Crumb Copyright footer');
});

test('frames', async () => {
  const p = await page('<html><frameset><frame src="left.html"><frame src="/right.html"></frameset></html>');
  assert.equal(p.outlinks.map((l) => l.url), ['http://127.0.4.1/dir/left.html', 'http://127.0.4.1/right.html']);
});

test('links in nav, header, footer and role=navigation are marked nav', async () => {
  const p = await page(`<body><header><a href="/h">Home</a></header><nav><ul><li><a href="/n">Menu</a></li></ul></nav>
    <main><p><a href="/c">content link</a></p></main><div role="navigation"><a href="/r">R</a></div>
    <footer><a href="/f">Footer</a></footer><a href="/after">after</a></body>`);
  assert.equal(
    p.outlinks.map((l) => [l.url.replace('http://127.0.4.1', ''), l.nav === true]),
    [['/h', true], ['/n', true], ['/c', false], ['/r', true], ['/f', true], ['/after', false]],
  );
});

test('meta robots: noindex kept as meta, nofollow and none drop outlinks, noarchive', async () => {
  const a = await page('<meta name="robots" content="noindex, noarchive"><a href="/x">x</a>');
  assert.is(a.meta.noindex, true);
  assert.is(a.meta.noarchive, true);
  assert.is(a.outlinks.length, 1);
  const b = await page('<meta name="ROBOTS" content="NONE"><a href="/x">x</a>');
  assert.is(b.meta.noindex, true);
  assert.is(b.meta.nofollow, true);
  assert.is(b.outlinks.length, 0);
});

test('meta refresh: target resolved and normalized; refresh without a URL is no redirect', async () => {
  const p = await page('<meta http-equiv="refresh" content="0; URL=\'../moved.html\'"><p>moved</p>');
  assert.equal(p.meta.refresh, { url: 'http://127.0.4.1/moved.html', delay: 0 });
  assert.is((await page('<meta http-equiv="refresh" content="30">')).meta.refresh, undefined);
  assert.equal(parseRefresh('5;url=http://x/'), { href: 'http://x/', delay: 5 });
  assert.equal(parseRefresh('  3 , url = /a b '), { href: '/a b', delay: 3 });
});

test('broken HTML: unclosed tags, stray closers, bad entities still give text and links', async () => {
  const p = await page('<title>T</title><p>one<p>two<div><a href="/x">link <b>bold</a> after</i></span> &notanentity; &lt;x&gt; &#x41;<a href=/y>y');
  assert.is(p.status, 'success');
  assert.ok(p.text.includes('one two'), p.text);
  assert.ok(p.text.includes('¬anentity; <x> A'), p.text); // legacy entity without ';', as browsers read it
  assert.equal(p.outlinks.map((l) => [l.url, l.anchor]), [['http://127.0.4.1/x', 'link bold'], ['http://127.0.4.1/y', 'y']]);
});

test('10,000-deep nesting and a 1 MB attribute parse without trouble', async () => {
  const deep = '<div>'.repeat(10_000) + '<a href="/deep">deep</a>' + '</div>'.repeat(10_000) + '<nav>' + '<span>'.repeat(10_000) + '<a href="/n">n</a>';
  const p = await page(deep);
  assert.equal(p.outlinks.map((l) => [l.url, !!l.nav]), [['http://127.0.4.1/deep', false], ['http://127.0.4.1/n', true]]);
  const huge = await page(`<p title="${'x'.repeat(1 << 20)}">after</p><a href="/z" data-x="${'y'.repeat(1 << 20)}">z</a>`);
  assert.is(huge.text, 'after z');
  assert.is(huge.outlinks[0]!.url, 'http://127.0.4.1/z');
});

test('a declared non-UTF-8 page is decoded with its charset', async () => {
  const html = '<html lang="ru"><title>Привет</title><p>Мир и дружба</p></html>';
  const p = await page(iconv.encode(html, 'windows-1251'), 'text/html; charset=windows-1251', 'windows-1251');
  assert.is(p.title, 'Привет');
  assert.is(p.text, 'Мир и дружба');
  assert.is(p.lang, 'ru');
  // No stored charset: the meta prescan finds it.
  const q = await page(iconv.encode('<meta charset="koi8-r"><p>Мир</p>', 'koi8-r'), 'text/html', null);
  assert.is(q.text, 'Мир');
});

test('language: declared (html lang, Content-Language) wins, else detected', async () => {
  assert.is((await page('<html lang="en-GB"><p>Guten Tag</p></html>')).lang, 'en');
  assert.is((await page('<p>x</p>', 'text/html', 'utf-8', PAGE, conf, { 'content-language': 'de-DE, en' })).lang, 'de');
  const fr = await page('<p>Le renard brun rapide saute par-dessus le chien paresseux, puis il court dans la forêt avec ses amis.</p>');
  assert.is(fr.lang, 'fr');
  assert.is((await page('<p>ok</p>')).lang, null, 'too little text to tell');
});

/** The start of SQLite's vdbe.html (public domain) as the parse gives it: English prose after a menu, which tinyld took for Czech. */
const SQLITE_VDBE =
  "Small. Fast. Reliable. Choose any three. Home Menu About Documentation Download License Support Purchase Search About Documentation Download Support Purchase Search Documentation Search Changelog The Virtual Database Engine of SQLite Obsolete Documentation Warning: This document describes the virtual machine used in SQLite version 2.8.0. The virtual machine in SQLite version 3.0 and 3.1 is similar in concept but is now register-based instead of stack-based, has five operands per opcode instead of three, and has a different set of opcodes from those shown below. See the virtual machine instructions document for the current set of VDBE opcodes and a brief overview of how the VDBE operates. This document is retained as an historical reference. If you want to know how the SQLite library works internally, you need to begin with a solid understanding of the Virtual Database Engine or VDBE. The VDBE occurs right in the middle of the processing stream (see the architecture diagram) and so it seems to touch most parts of the library. Even parts of the code that do not directly interact with the VDBE are usually in a supporting role. The VDBE really is the heart of SQLite. This article is a ";

test('language: English documentation after a menu is English', async () => {
  assert.is((await page(`<p>${SQLITE_VDBE}</p>`)).lang, 'en');
});

test('text/plain: text kept, URLs become outlinks', async () => {
  const p = await page('Read http://127.0.4.3/doc.txt, then (https://127.0.4.3/other).\nBye', 'text/plain');
  assert.is(p.status, 'success');
  assert.is(p.title, 'Read http://127.0.4.3/doc.txt, then (https://127.0.4.3/other).', 'titled by its first line');
  assert.is(p.text, 'Read http://127.0.4.3/doc.txt, then (https://127.0.4.3/other). Bye');
  assert.equal(p.outlinks.map((l) => l.url), ['http://127.0.4.3/doc.txt', 'https://127.0.4.3/other']);
});

test('a binary file labelled text/html is not parsed, but kept with a signature', async () => {
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
  const p = await page(png, 'text/html');
  assert.is(p.status, 'notparsed');
  assert.match(p.message!, /image\/png/);
  assert.is(p.text, '');
  assert.is(p.signature?.length, 32);
  const gzip = await page(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), 'text/html; charset=utf-8');
  assert.is(gzip.status, 'notparsed', 'a gzip body sent as text/html');
});

test('a declared text/html page with a NUL byte near the top is still parsed, its links kept', async () => {
  const p = await page(Buffer.from('<html>\0<head><title>Nul</title></head><body><p>word\0s</p><a href="/next">next</a></body></html>'), 'text/html');
  assert.is(p.status, 'success');
  assert.is(p.title, 'Nul');
  assert.equal(p.outlinks.map((l) => l.url), ['http://127.0.4.1/next']);
  assert.not.ok(p.text.includes('\0'), 'no NUL in the stored text');
  assert.is(sniffContentType(null, Buffer.from('<html>\0<p>x')), 'application/octet-stream', 'undeclared: a NUL still means binary');
});

test('a declared text/html page with runs of NUL bytes is parsed as a browser shows it, its links kept', async () => {
  const nul = (n: number) => '\0'.repeat(n);
  const body = `<html>${nul(300)}<head><title>Runs</title></head>${nul(500)}<body><p>first${nul(40)} words</p>${nul(900)}<a href="/a">a</a> <a href="/b">b</a></body></html>${nul(2000)}`;
  const p = await page(Buffer.from(body), 'text/html; charset=utf-8');
  assert.is(p.status, 'success');
  assert.is(p.title, 'Runs');
  assert.equal(p.outlinks.map((l) => l.url), ['http://127.0.4.1/a', 'http://127.0.4.1/b']);
  assert.not.ok(p.text.includes('\0'), 'no NUL in the stored text');
  assert.match(p.text, /first\s*words/);
});

test('a web page never leads to local files: file: links and refreshes are dropped even when the filters allow them', async () => {
  const open = conf.with({ 'plugin.includes': 'parse-html|urlnormalizer-basic' });
  const plugins2 = await loadCrawlerPlugins(open);
  const url = PAGE;
  const body = '<meta http-equiv="refresh" content="0; url=file:///etc/shadow"><a href="file:///etc/passwd">p</a><a href="/ok">ok</a>';
  const content: ContentRecord = { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(body), truncated: false };
  const fetch: FetchRecord = { url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: {}, contentType: 'text/html' };
  const p = await parseContent(plugins2, open, content, fetch);
  assert.equal(p.outlinks.map((l) => l.url), ['http://127.0.4.1/ok']);
  assert.is(p.meta.refresh, undefined);
});

test('content type sniffing (the rules: sniff.test.ts)', async () => {
  assert.is(sniffContentType('text/plain; charset=utf-8', Buffer.from('<html>')), 'text/plain');
  assert.is((await page('<html><title>sniffed</title></html>', null)).title, 'sniffed');
});

test('outlink rules: db.max.outlinks.per.page counts valid links, db.max.anchor.length, db.ignore.external.links', async () => {
  const body = '<a href="/1">' + 'x'.repeat(300) + '</a><a href="http://127.0.4.9/ext">e</a><a href="/2">2</a><a href="/3">3</a>';
  const c = conf.with({ 'db.max.outlinks.per.page': '2', 'db.max.anchor.length': '10', 'db.ignore.external.links': 'true' });
  const p = await page(body, 'text/html', 'utf-8', PAGE, c);
  assert.equal(p.outlinks.map((l) => [l.url, l.anchor]), [['http://127.0.4.1/1', 'xxxxxxxxxx'], ['http://127.0.4.1/2', '2']]);
  assert.equal(p.meta.outlinksDropped, { cap: 1, filtered: 0, external: 1 });
  const all = await page(body, 'text/html', 'utf-8', PAGE, conf.with({ 'db.max.outlinks.per.page': '-1' }));
  assert.is(all.outlinks.length, 4);
  assert.is(all.meta.outlinksDropped, undefined);
});

test('outlinks a URL filter rejects are counted as dropped; a repeated link past the cap counts once', async () => {
  const body = '<a href="/a">a</a><a href="/a">a</a><a href="/b">b</a><a href="/b">b</a><a href="/x?q=1">q</a>';
  const p = await page(body, 'text/html', 'utf-8', PAGE, conf.with({ 'db.max.outlinks.per.page': '1' }));
  assert.equal(p.outlinks.map((l) => l.url), ['http://127.0.4.1/a']);
  assert.equal(p.meta.outlinksDropped, { cap: 1, filtered: 1, external: 0 });
});

test('past the cap, EXAMINED_PAST_CAP links are looked at and the rest counted over the cap unexamined', async () => {
  const filtered = (n: number, from: number) => Array.from({ length: n }, (_, i) => `<a href="/x?q=${from + i}">q</a>`).join('');
  const body = `<a href="/a">a</a>${filtered(EXAMINED_PAST_CAP, 0)}${filtered(5, EXAMINED_PAST_CAP)}`;
  const p = await page(body, 'text/html', 'utf-8', PAGE, conf.with({ 'db.max.outlinks.per.page': '1' }));
  assert.equal(p.outlinks.map((l) => l.url), ['http://127.0.4.1/a']);
  assert.equal(p.meta.outlinksDropped, { cap: 5, filtered: EXAMINED_PAST_CAP, external: 0 });
  const all = await page(body, 'text/html', 'utf-8', PAGE, conf.with({ 'db.max.outlinks.per.page': '-1' }));
  assert.equal(all.meta.outlinksDropped, { cap: 0, filtered: EXAMINED_PAST_CAP + 5, external: 0 }, 'no cap: every link is looked at');
});

test('signatures: MD5 of the raw bytes; TextProfileSignature ignores small changes', async () => {
  const a = await page('<p>Hello world, hello hazelnut</p>');
  const b = await page('<p>Hello world, hello hazelnut</p> ');
  assert.is(a.signature, crypto.createHash('md5').update('<p>Hello world, hello hazelnut</p>').digest('hex'));
  assert.is.not(a.signature, b.signature);
  const tp = conf.with({ 'db.signature.class': 'org.apache.nutch.crawl.TextProfileSignature' });
  const words = 'alpha beta gamma delta '.repeat(50);
  const c = await page(`<p>${words} updated 2024-01-01</p>`, 'text/html', 'utf-8', PAGE, tp);
  const d = await page(`<p>${words} updated 2024-02-02</p>`, 'text/html', 'utf-8', PAGE, tp);
  assert.is(c.signature, d.signature);
  const bad = await page('<p>x</p>', 'text/html', 'utf-8', PAGE, conf.with({ 'db.signature.class': 'SHA1' })).catch((e: Error) => e);
  assert.match(String(bad), /db.signature.class/);
});

test('a parser that throws gives a failed parse, not an exception', async () => {
  const bad = { ...plugins, parsers: [{ contentTypes: ['text/html'], parse: () => { throw new Error('boom'); } }] };
  const content: ContentRecord = { url: PAGE, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from('<p>x'), truncated: false };
  const fetch: FetchRecord = { url: PAGE, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: {} };
  const p = await parseContent(bad, conf, content, fetch);
  assert.is(p.status, 'failed');
  assert.match(p.message!, /boom/);
});

test('a page parsed a slice at a time (inline parsing lets the event loop run) gives what one pass gives', async () => {
  const block = (i: number) =>
    `<nav><a href="/n${i}">Menu &amp; more ${'m'.repeat(i % 13)}</a></nav><h2 id="s${i}">Part ${i} &eacute;&#233;</h2>` +
    `<p class="x${'y'.repeat(i % 7)}">Text ${i} with <b>bold</b> and an <a href="/p${i}?a=1&amp;b=${'z'.repeat(i % 11)}" rel="${i % 5 ? 'next' : 'nofollow'}">anchor ${i}</a>` +
    `<img alt="pic ${i}"></p><!-- comment ${i} --><script>var s${i} = "</p>";</script><footer>foot ${i}</footer>`;
  const html = `<html lang="en"><title>Slices</title><base href="http://127.0.4.1/b/">${Array.from({ length: 1500 }, (_, i) => block(i)).join('\n')}</html>`;
  assert.ok(html.length > 4 * SLICE_CHARS, `${html.length} characters`);
  for (const skip of [false, true]) assert.equal(await extractHtmlYielding(html, skip), extractHtml(html, skip));
});

test('extractHtml: html lang, description, keywords', async () => {
  const x = extractHtml('<html xml:lang="nl"><meta name="description" content=" A  page "><meta name="keywords" content="a, b">');
  assert.is(x.lang, 'nl');
  assert.is(x.description, 'A page');
  assert.is(x.keywords, 'a, b');
});


test('sections: each heading with its offset in the text and the id a link can point at', async () => {
  const p = await page(`<html><head><title>Guide</title></head><body>
    <h1>Guide</h1><p>Intro words.</p>
    <h2 id="own">Own id</h2><p>First.</p>
    <h2>Inner<a class="mark" href="#inner" id="inner">#</a></h2><p>Second.</p>
    <section id="sec"><h3>From section</h3><p>Third.</p></section>
    <a name="named"></a><h3>Named anchor</h3><p>Fourth.</p>
    <h4>No id</h4><p>Fifth.</p>
    <h2 id="open">Left open</h1><div>Body of the open one.</div><h3 id="after">After it</h3>
    <nav><h2 id="menu">Menu heading</h2></nav></body></html>`);
  const sections = p.meta.sections ?? [];
  assert.equal(
    sections.map((s) => [s.level, s.heading, s.id]),
    [[1, 'Guide', undefined], [2, 'Own id', 'own'], [2, 'Inner', 'inner'], [3, 'From section', 'sec'], [3, 'Named anchor', 'named'], [4, 'No id', undefined], [2, 'Left open', 'open'], [3, 'After it', 'after']],
  );
  for (const s of sections) assert.ok(p.text.startsWith(s.heading, s.offset), `${s.heading} at ${s.offset} in ${p.text}`);
});

test('furniture: menus by class, runs of links and a heading repeating the title are marked, not removed', async () => {
  const p = await page(`<html><head><title>VACUUM</title>__TEMPLATE_LEFTOVER__</head><body>
    <div class="nosearch">Small. Fast. Reliable.</div>
    <table><tr><td><a href="p.html">Prev</a></td><td><a href="u.html">Up</a></td><td><a href="n.html">Next</a></td></tr></table>
    <ul class="docnav"><li><a href="a.html">Prev</a></li><li>The Handbook</li></ul>
    <h1>VACUUM</h1><p>vacuum-stmt: <button>hide</button></p><p>The VACUUM command rebuilds the <a href="db.html">database</a> file.</p></body></html>`);
  const furniture = (p.meta.furniture ?? []).map(([a, b]) => p.text.slice(a, b));
  assert.equal(furniture, ['__TEMPLATE_LEFTOVER__ Small. Fast. Reliable. Prev Up Next Prev The Handbook VACUUM', 'hide']);
  assert.ok(p.text.includes('The VACUUM command rebuilds the database file.'), 'furniture stays in the text for ranking');
});

test('a Sphinx page in plain divs: permalink marks are no text, the sidebar\'s headings are no sections', async () => {
  const p = await page(`<html><head><title>Event Loop — Python documentation</title></head><body>
    <div class="document"><div class="body">
    <h1>Event Loop<a class="headerlink" href="#event-loop" title="Permalink to this heading">¶</a></h1>
    <p>The event loop runs tasks.</p>
    <dl><dt id="asyncio.run">asyncio.run(coro)<a class="headerlink" href="#asyncio.run">¶</a></dt><dd>Run the coroutine.</dd></dl>
    <p>See <a href="#x">#</a> and <a href="other.html">¶</a> kept.</p>
    </div></div>
    <div class="sphinxsidebar"><div class="sphinxsidebarwrapper"><h3>Navigation</h3><ul><li><a href="index.html">Index</a></li></ul>
    <h3>This Page</h3><ul><li><a href="_sources/x.txt">Show Source</a></li></ul>
    <div id="searchbox"><h3>Quick search</h3><form><input type="text" name="q"></form></div></div></div></body></html>`);
  assert.not.ok(p.text.includes('Loop¶'), p.text);
  assert.ok(p.text.startsWith('Event Loop The event loop runs tasks. asyncio.run(coro) Run the coroutine.'), p.text);
  assert.ok(p.text.includes('and ¶ kept'), 'a mark that links elsewhere is text');
  assert.equal((p.meta.sections ?? []).map((s) => s.heading), ['Event Loop', 'asyncio.run(coro)']);
});

const DEFINITIONS: [name: string, html: string, sections: [level: number, heading: string, id: string | undefined][]][] = [
  ['Sphinx API entry: dt with its id', '<h1 id="api">API</h1><dl><dt id="flask.Flask.before_request">before_request(f)<a class="headerlink" href="#flask.Flask.before_request">¶</a></dt><dd>Runs first.</dd></dl>', [[1, 'API', 'api'], [7, 'before_request(f)', 'flask.Flask.before_request']]],
  ['DocBook variable list: the id on an anchor inside the term', '<h2 id="mem">Memory</h2><dl class="variablelist"><dt id="GUC-WORK-MEM"><span class="term"><code>work_mem</code> (integer)</span></dt><dd>Sets memory.</dd><dt><span class="term"><a id="GUC-TEMP-BUFFERS"></a><code>temp_buffers</code></span></dt><dd>Sets buffers.</dd></dl>', [[2, 'Memory', 'mem'], [7, 'work_mem (integer)', 'GUC-WORK-MEM'], [7, 'temp_buffers', 'GUC-TEMP-BUFFERS']]],
  ['a term with nothing to link to is no section (man-page option lists, glossaries)', '<h2 id="opts">OPTIONS</h2><dl><dt>-v, --verbose</dt><dd>Say more.</dd></dl>', [[2, 'OPTIONS', 'opts']]],
  ['an entry in a sidebar is furniture', '<h1 id="t">Topic</h1><p>Text.</p><div class="sphinxsidebar"><dl><dt id="x">x</dt><dd>y</dd></dl></div>', [[1, 'Topic', 't']]],
];

for (const [name, body, want] of DEFINITIONS)
  test(`definition entries: ${name}`, async () => {
    const p = await page(`<html><head><title>Reference</title></head><body>${body}</body></html>`);
    const sections = p.meta.sections ?? [];
    assert.equal(sections.map((s) => [s.level, s.heading, s.id]), want);
    for (const s of sections) assert.ok(p.text.startsWith(s.heading, s.offset), `${s.heading} at ${s.offset} in ${p.text}`);
  });

test.run();
