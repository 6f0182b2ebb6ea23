/** Summaries keep the page's structure where a window crosses it: a heading ends with a break, code keeps its lines. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { summarize, summarizeRanges, summaryToHtml, summaryToText, tokenColumns, type SummaryPlan } from '../../searcher/summary.js';

const analyzer = new Analyzer();
const LB = '\u2028';

/** The plan of a text whose headings are given as [offset, heading]. */
function plan(headings: [number, string][]): SummaryPlan {
  const starts = headings.map(([o]) => o);
  return { sections: starts, headings: { starts, end: (k) => starts[k]! + headings[k]![1].length } };
}
const S = (text: string, headings: [number, string][], query: string, context = 3, length = 20) =>
  summarize(text, analyzer.tokens(text), new Set(analyzer.terms(query)), { context, length }, plan(headings)).parts;

const HOW = 'What it means The primary key names one row. How to use it Declare it once.';
const howAt = HOW.indexOf('How');
const HEADINGS: [number, string][] = [
  [0, 'What it means'],
  [howAt, 'How to use it'],
];

const CASES: [name: string, text: string, headings: [number, string][], query: string, context: number, summary: string][] = [
  ['a heading ends with a dash before its text', HOW, HEADINGS, 'primary', 5, 'What it means — The primary key names one row …'],
  ['a hit in the heading', HOW, HEADINGS, 'means', 2, 'What it means — The primary …'],
  ['the second section, its heading apart', HOW, HEADINGS, 'declare', 5, '… How to use it — Declare it once'],
  ['a window that starts inside a heading still ends it', HOW, HEADINGS, 'declare', 2, '… use it — Declare it once'],
  ['no hit: the start of the page, heading apart', HOW, HEADINGS, 'zzz', 3, 'What it means — The primary key names one row …'],
  ['a heading that ends in punctuation', 'Syntax: The rules follow.', [[0, 'Syntax:']], 'rules', 3, 'Syntax: — The rules follow'],
  ['code keeps its lines', `Run it: def key(x):${LB}return x${LB}print(key)${LB}end`, [], 'key', 10, 'Run it: def key(x):\nreturn x\nprint(key)\nend'],
  ['a line break next to a hit', `x = key${LB}y = 2`, [], 'key', 5, 'x = key\ny = 2'],
  ["a PDF's hard line breaks stay spaces", 'one\ntwo key\r\nthree', [], 'key', 5, 'one two key three'],
  ['a heading followed by code', `Install${LB}npm i hazelnut${LB}npm test`, [[0, 'Install']], 'npm', 5, 'Install —\nnpm i hazelnut\nnpm test'],
];

for (const [name, text, headings, query, context, summary] of CASES)
  test(name, () => {
    assert.is(summaryToText(S(text, headings, query, context)), summary);
  });

test('HTML: the heading end and the line breaks are marked up, the text around them escaped', () => {
  const text = `Use <b> tags Call f(a<b)${LB}return a&b`;
  const html = summaryToHtml(S(text, [[0, 'Use <b> tags']], 'call', 10));
  assert.is(html, 'Use &lt;b&gt; tags<span class="heading-end"> — </span><mark>Call</mark> f(a&lt;b)<br>return a&amp;b');
});

test('a window over two ranges of tokens marks each hit where it stands, the heading apart', () => {
  const text = 'Intro a b c d skip skip e f key g h';
  const cols = tokenColumns(analyzer.tokens(text));
  const words = { starts: cols.starts, ends: cols.ends, ranges: [[0, 5], [7, 12]] as const, hits: [2, 9], terms: ['b', 'key'] };
  const parts = summarizeRanges(text, words, { context: 10, length: 20 }, plan([[0, 'Intro']])).parts;
  assert.is(summaryToHtml(parts), 'Intro<span class="heading-end"> — </span>a <mark>b</mark> c d skip skip e f <mark>key</mark> g h');
});

test.run();
