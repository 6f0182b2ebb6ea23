/**
 * Navigation pages told by their shape: pages of markup through the HTML
 * extractor, their furniture through the rule (crawler/parse/page-shape),
 * with the weight each page's text gets. Indexes, tables of contents, module
 * lists and menus-only pages are navigation pages; pages of prose keep their
 * full weight however large their menus.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractHtml } from '../../../crawler/parse/html.js';
import { furnitureChars, LEAST_PROSE, NAVIGATION_SHARE, proseWeight } from '../../../crawler/parse/page-shape.js';

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

test.run();
