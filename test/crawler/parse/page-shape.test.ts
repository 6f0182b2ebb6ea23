/**
 * Navigation pages told by their shape: pages of markup through the HTML
 * extractor, their furniture through the rule (crawler/parse/page-shape),
 * with the weight each page's text gets. Indexes, tables of contents, module
 * lists and menus-only pages are navigation pages; pages of prose keep their
 * full weight however large their menus. An all-in-one page, whose sections
 * are headed by its site's other pages' titles, is told by those headings.
 * A generated source listing (a page almost all code, its names linked to
 * their documentation) is told by its code's share and links.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractHtml, HtmlPageParser } from '../../../crawler/parse/html.js';
import { copiedRanges, furnitureChars, LEAST_COPIES, LEAST_PROSE, listingRanges, NAVIGATION_SHARE, proseWeight, titleKey } from '../../../crawler/parse/page-shape.js';
import type { PageSection } from '../../../shared/plugin/extension-points.js';

const menu = '<div class="menu"><ul><li><a href="/">Home</a></li><li><a href="/docs">Documentation</a></li><li><a href="/download">Download</a></li><li><a href="/support">Support</a></li></ul></div>';
const prose = (n: number) => Array.from({ length: n }, (_, i) => `<p>The write-ahead log records each change before the database file is touched, so a crash in step ${i} leaves a file that recovery can bring back to a consistent state.</p>`).join('');
const links = (names: string[]) => `<ul>${names.map((n) => `<li><a href="/${n}.html">${n}</a></li>`).join('')}</ul>`;
const modules = ['asyncio', 'datetime', 'decimal', 'fractions', 'math', 'cmath', 'numbers', 'random', 'statistics', 'string', 're', 'difflib', 'textwrap', 'unicodedata', 'stringprep', 'readline', 'rlcompleter', 'struct', 'codecs', 'pathlib'];
const body = (title: string, inner: string) => `<!doctype html><html><head><title>${title}</title></head><body>${inner}</body></html>`;

/** Page, whether it is a navigation page, and the least and most its text weight may be. */
const CASES: [name: string, html: string, navigation: boolean, least: number, most: number][] = [
  ['an article under a site menu', body('Write-ahead logging', `${menu}<h1>Write-ahead logging</h1>${prose(6)}`), false, 1, 1],
  ['a short article under a large menu', body('Atomic commit', `${menu}${menu}<h1>Atomic commit</h1>${prose(2)}`), false, 1, 1],
  ['a module list', body('Numeric and Mathematical Modules', `${menu}<h1>Numeric and Mathematical Modules</h1><p>The modules described in this chapter.</p>${links(modules)}`), true, LEAST_PROSE, 0.3],
  ['a general index of links alone', body('Index', `<h1>Index</h1>${links(modules)}${links(modules.map((m) => `${m}-functions`))}`), true, LEAST_PROSE, LEAST_PROSE],
  ['a table of contents with a paragraph of introduction', body('Contents', `<h1>Contents</h1>${prose(1)}${links(modules)}${links(modules.map((m) => `${m}-howto`))}`), true, 0.2, 0.6],
  ['a page of prose with a list of links at its end', body('Recovery', `<h1>Recovery</h1>${prose(5)}<h2>See also</h2>${links(modules.slice(0, 8))}`), false, 1, 1],
  ['a page of text without markup for links', body('Plain', '<p>Nothing but a sentence or two of plain text here, and no links at all.</p>'), false, 1, 1],
  ['an empty page', body('', ''), false, 1, 1],
];

test('navigation pages: recognised from the markup, their text weighed by its prose share; ordinary pages keep 1', () => {
  for (const [name, html, navigation, least, most] of CASES) {
    const x = extractHtml(html);
    const share = x.text.length ? furnitureChars(x.text.length, x.furniture) / x.text.length : 0;
    const w = proseWeight(x.text.length, x.furniture);
    assert.is(w < 1, navigation, `${name}: furniture ${share.toFixed(2)} of the text, weight ${w}`);
    assert.is(share > NAVIGATION_SHARE, navigation, `${name}: furniture share ${share.toFixed(2)}`);
    assert.ok(w >= least && w <= most, `${name}: weight ${w}, expected ${least}–${most}`);
  }
});

test('prose weight: the rule on lengths and ranges', () => {
  const table: [textLength: number, furniture: [number, number][] | undefined, weight: number][] = [
    [100, undefined, 1],
    [100, [], 1],
    [100, [[0, 50]], 1],
    [100, [[0, 51]], 0.49],
    [100, [[0, 20], [30, 90]], 0.2],
    [100, [[0, 95]], LEAST_PROSE],
    [100, [[0, 100]], LEAST_PROSE],
    // Ranges past the text count only as far as the text goes.
    [100, [[60, 500]], 1],
    [100, [[40, 500]], 0.4],
    [100, [[0, 10], [20, 500]], LEAST_PROSE],
    [0, [[0, 10]], 1],
    [3, [[0, 2]], 0.33],
  ];
  for (const [length, furniture, weight] of table) assert.is(proseWeight(length, furniture), weight, `${length} characters, furniture ${JSON.stringify(furniture)}`);
});

test('furniture chars: ranges in any order, overlapping or past the text, each character once', () => {
  const table: [number, [number, number][], number][] = [
    [100, [], 0],
    [100, [[10, 20], [15, 30]], 20],
    [100, [[50, 60], [0, 10]], 20],
    [100, [[0, 100], [20, 30]], 100],
    [100, [[90, 200], [-5, 5]], 15],
    [100, [[30, 30], [40, 35]], 0],
  ];
  for (const [length, ranges, want] of table) assert.is(furnitureChars(length, ranges), want, JSON.stringify(ranges));
});

test('title keys: case, spacing and a trailing permalink mark aside', () => {
  const table: [string, string][] = [
    ['File system', 'file system'],
    ['  File   system ¶', 'file system'],
    ['Assert#', 'assert'],
    ['C# notes', 'c# notes'],
    ['', ''],
  ];
  for (const [s, want] of table) assert.is(titleKey(s), want, JSON.stringify(s));
});

const sec = (heading: string, level: number, offset: number): PageSection => ({ heading, level, offset });

test('copies: sections headed by another page\'s title, to the next heading of their level or above; none below LEAST_COPIES', () => {
  assert.is(LEAST_COPIES, 2);
  const others = new Set(['assert', 'buffer', 'events']);
  const isOther = (k: string) => others.has(k);
  const table: [name: string, length: number, sections: PageSection[], want: [number, number][]][] = [
    ['two pages copied, each to the next h2', 100, [sec('About', 2, 0), sec('Assert', 2, 10), sec('Strict mode', 3, 20), sec('Buffer', 2, 50), sec('Index', 2, 90)], [[10, 50], [50, 90]]],
    ['the last copy runs to the end of the text', 100, [sec('Assert', 2, 0), sec('Events', 2, 40), sec('Details', 3, 60)], [[0, 40], [40, 100]]],
    ['one copied section is a quotation, not a concatenation', 100, [sec('Intro', 2, 0), sec('Assert', 2, 10), sec('More', 2, 50)], []],
    ['a definition entry named like a page is no copy', 100, [sec('Assert', 7, 0), sec('Buffer', 7, 40)], []],
    ['a copy under a lower heading ends at a higher one', 100, [sec('Assert', 3, 0), sec('Events', 3, 20), sec('Part two', 2, 30)], [[0, 20], [20, 30]]],
    ['headings compared as title keys', 80, [sec('ASSERT ¶', 2, 0), sec('buffer#', 2, 40)], [[0, 40], [40, 80]]],
    ['no sections', 80, [], []],
  ];
  for (const [name, length, sections, want] of table) assert.equal(copiedRanges(length, sections, isOther), want, name);
  assert.equal(copiedRanges(10, undefined, isOther), []);
});

test('an all-in-one page from its markup: its copies and menus leave little of its own; a page with one section named like another page keeps 1', () => {
  const part = (name: string) => `<h2>${name}</h2>${prose(3)}`;
  const all = extractHtml(body('Documentation', `${menu}<h1>Documentation</h1><p>Every page of the manual in one.</p>${['Assert', 'Buffer', 'Events'].map(part).join('')}`));
  const one = extractHtml(body('Recovery', `<h1>Recovery</h1>${prose(4)}${part('Events')}`));
  const others = new Set(['assert', 'buffer', 'events', 'recovery']);
  const weigh = (x: ReturnType<typeof extractHtml>, own: string) => {
    const copies = copiedRanges(x.text.length, x.sections, (k) => k !== titleKey(own) && others.has(k));
    return proseWeight(x.text.length, [...x.furniture, ...copies]);
  };
  const w = weigh(all, 'Documentation');
  assert.ok(w >= LEAST_PROSE && w < 0.2, `the all-in-one page weighs ${w}`);
  assert.is(proseWeight(all.text.length, all.furniture), 1, 'by its furniture alone it is an ordinary page');
  assert.is(weigh(one, 'Recovery'), 1);
});


const code = (lines: string[]) => lines.map((l) => `<span class="n">${l}</span>`).join('\n');
/** `n` definitions of a module's source, highlighted; with `docs`, each in Sphinx's viewcode block with its [docs] link to the page documenting it. */
const moduleSource = (n: number, docs = false) =>
  code(
    Array.from(
      { length: n },
      (_, i) =>
        `${docs ? `<div class="viewcode-block" id="get_event_loop_${i}"><a class="viewcode-back" href="../../library/asyncio-eventloop.html#asyncio.get_event_loop_${i}">[docs]</a>` : ''}<span class="k">def</span> <span class="nf">get_event_loop_${i}</span><span class="p">(</span>policy<span class="p">):</span>\n    <span class="k">return</span> _loop_${i}<span class="o">.</span>current<span class="p">()</span>${docs ? '</div>' : ''}`,
    ),
  );
const related = '<div class="related" role="navigation"><ul><li><a href="/index.html">Python documentation</a></li><li><a href="/_modules/index.html">Module code</a></li></ul></div>';
/** A Sphinx viewcode page: the module's source, highlighted, with a [docs] link beside each documented definition (`docs`). */
const sphinxModule = (defs: number, docs: boolean) =>
  body('asyncio.events — Python documentation', `${related}<h1>Source code for asyncio.events</h1><div class="highlight"><pre>${moduleSource(defs, docs)}</pre></div>`);
const example = (n: number) => `<div class="highlight-python"><pre>${moduleSource(n)}</pre></div>`;
const licence = Array.from({ length: 40 }, (_, i) => `${i + 1}. Permission is granted to use, copy and modify this software, provided that this notice appears in all copies.`).join('\n');

/** Page, whether it is a source listing, and the least and most its text weight may be, as the indexer weighs it (furniture, copies and a listing's code). */
const LISTINGS: [name: string, html: string, listing: boolean, least: number, most: number][] = [
  ['a Sphinx module source page, each definition linked to its documentation', sphinxModule(40, true), true, LEAST_PROSE, 0.2],
  ['a short module source page', sphinxModule(4, true), true, LEAST_PROSE, 0.2],
  [
    'source with line numbers in a table of two blocks',
    body('util.py', `<h1>util.py</h1><table class="highlighttable"><tr><td><pre>${Array.from({ length: 30 }, (_, i) => i + 1).join('\n')}</pre></td><td><div class="highlight"><pre>${moduleSource(15, true)}</pre></div></td></tr></table>`),
    true,
    LEAST_PROSE,
    0.2,
  ],
  ['a module source page linking nowhere (its names documented nowhere else)', sphinxModule(40, false), false, 1, 1],
  ['source whose links go to its own lines only', body('util.py', `<h1>util.py</h1><pre>${Array.from({ length: 40 }, (_, i) => `<a href="#l${i}">${i}</a> x_${i} = f(x_${i - 1})`).join('\n')}</pre>`), false, 1, 1],
  ['an example program under its caption', body('Example Programs', `<h1>Example Programs</h1><p>Example 1. libpq example program</p>${example(40)}`), false, 1, 1],
  ['a licence, preformatted', body('History and License', `<h1>History and License</h1><pre>${licence}</pre>`), false, 1, 1],
  ['a tutorial: prose between its examples', body('Event loop tutorial', `<h1>Event loop tutorial</h1>${prose(2)}${example(3)}${prose(2)}${example(3)}${prose(1)}`), false, 1, 1],
  ['a page of prose without code', body('Recovery', `<h1>Recovery</h1>${prose(5)}`), false, 1, 1],
  ['a module list (navigation, no code)', body('Modules', `<h1>Modules</h1>${links(modules)}`), false, LEAST_PROSE, 0.3],
];

test('source listings: a page almost all code, its code linked to other pages, is told from its markup and its code weighs as not its own; example programs, preformatted texts and pages of prose keep 1', () => {
  for (const [name, html, listing, least, most] of LISTINGS) {
    for (const skipNavigation of [false, true]) {
      const x = extractHtml(html, skipNavigation);
      const rest = x.text.length - furnitureChars(x.text.length, x.furniture);
      const share = rest > 0 ? furnitureChars(x.text.length, x.code) / rest : 0;
      const ranges = listingRanges(x.text.length, x.code, x.furniture, x.codeShape);
      assert.is(ranges.length > 0, listing, `${name}: code ${share.toFixed(2)} of the text outside furniture, ${x.codeShape.links} links in ${x.codeShape.lines} lines`);
      const w = proseWeight(x.text.length, [...x.furniture, ...ranges]);
      assert.ok(w >= least && w <= most, `${name}: weight ${w}, expected ${least}–${most}`);
    }
  }
});

test('code ranges: each <pre> block of the text, an inner <pre> within its outer one, the prose between outside', () => {
  const x = extractHtml(body('t', '<p>Before the code.</p><pre>first = 1</pre><p>Between.</p><pre>second <pre>inner</pre> = 2</pre><p>After.</p>'));
  assert.equal(
    x.code.map(([a, b]) => x.text.slice(a, b).replace(/\s+/g, ' ').trim()),
    ['first = 1', 'second inner = 2'],
  );
});

test('listing ranges: the rule on lengths, code ranges and the code\'s links', () => {
  const linked = { lines: 99, links: 1 };
  const table: [textLength: number, code: [number, number][] | undefined, shape: { lines: number; links: number }, listing: boolean, furniture?: [number, number][]][] = [
    [100, undefined, linked, false],
    [100, [], linked, false],
    [100, [[0, 80]], linked, false],
    [100, [[0, 81]], linked, true],
    [100, [[0, 50], [50, 90]], linked, true],
    [100, [[0, 40], [30, 70]], linked, false],
    // Ranges past the text count only as far as the text goes.
    [100, [[10, 500]], linked, true],
    [100, [[30, 500]], linked, false],
    [0, [[0, 10]], linked, false],
    // Furniture is left out of the text the code is a share of.
    [100, [[20, 90]], linked, false, [[90, 100]]],
    [100, [[20, 90]], linked, true, [[0, 20]]],
    [100, [[0, 100]], linked, false, [[0, 100]]],
    // Code that links to other pages less than once a hundred lines, or not at all, is no generated listing.
    [100, [[0, 100]], { lines: 100, links: 1 }, false],
    [100, [[0, 100]], { lines: 0, links: 0 }, false],
    [100, [[0, 100]], { lines: 0, links: 1 }, true],
    [100, [[0, 100]], { lines: 1000, links: 11 }, true],
  ];
  for (const [length, code, shape, listing, furniture] of table)
    assert.is(listingRanges(length, code, furniture, shape).length > 0, listing, `${length} characters, code ${JSON.stringify(code)}, ${JSON.stringify(shape)}, furniture ${JSON.stringify(furniture)}`);
});

test('code shape: the code\'s line breaks, and its links to other pages, not those to a place in the page or outside the code', () => {
  const x = extractHtml(body('t', '<p><a href="/a.html">prose link</a></p><pre>a = 1\n<a href="/b.html">b</a> = 2\n<a href="#l3">3</a> c\n<a name="l4">d</a></pre><pre>e = 5</pre>'));
  assert.equal(x.codeShape, { lines: 3, links: 1 });
});

test('a source listing as the parser gives it: its code ranges in the parse meta, an ordinary page none', async () => {
  const parser = new HtmlPageParser('utf-8', true);
  const parse = (html: string) => parser.parse({ url: 'http://127.0.0.1/_modules/asyncio/events.html', contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(html), headers: {}, truncated: false });
  const listing = await parse(sphinxModule(40, true));
  assert.ok(listing.meta.listing?.length, 'a module source page has its code as a listing');
  assert.ok(proseWeight(listing.text.length, [...(listing.meta.furniture ?? []), ...(listing.meta.listing ?? [])]) <= 0.2);
  const article = await parse(body('Event loop tutorial', `<h1>Event loop tutorial</h1>${prose(2)}${example(3)}${prose(2)}`));
  assert.is(article.meta.listing, undefined);
});

test.run();
