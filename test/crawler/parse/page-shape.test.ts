/**
 * Navigation pages told by their shape: pages of markup through the HTML
 * extractor, their furniture through the rule (crawler/parse/page-shape),
 * with the weight each page's text gets. Indexes, tables of contents, module
 * lists and menus-only pages are navigation pages; pages of prose keep their
 * full weight however large their menus. An all-in-one page, whose sections
 * are headed by its site's other pages' titles, is told by those headings.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractHtml } from '../../../crawler/parse/html.js';
import { copiedRanges, furnitureChars, LEAST_COPIES, LEAST_PROSE, NAVIGATION_SHARE, proseWeight, titleKey } from '../../../crawler/parse/page-shape.js';
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

test.run();
