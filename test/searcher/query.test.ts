/** The query language, as a table: input → canonical form and clauses; analysis into terms. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { analyzeQuery } from '../../searcher/query/analyze.js';
import { formatQuery, MAX_CLAUSES, MAX_QUERY_CHARS, parseQuery, QuerySyntaxError } from '../../searcher/query/parse.js';

const PARSE: [input: string, canonical: string][] = [
  ['web crawler', 'web crawler'],
  ['  web   crawler  ', 'web crawler'],
  ['web -spam', 'web -spam'],
  ['+the web', '+the web'],
  ['"web crawler" index', '"web crawler" index'],
  ['-"bad phrase" good', '-"bad phrase" good'],
  ['site:Example.COM crawler', 'site:example.com crawler'],
  ['-site:spam.test crawler', '-site:spam.test crawler'],
  ['host:a.test x', 'host:a.test x'],
  ['url:docs x', 'url:docs x'],
  ['title:"getting started"', 'title:"getting started"'],
  ['anchor:manual', 'anchor:manual'],
  ['type:pdf lang:de x', 'type:pdf lang:de x'],
  ['date:20240101-20241231 x', 'date:20240101-20241231 x'],
  ['date:20241231-20240101 x', 'date:20240101-20241231 x'],
  ['date:20240301 x', 'date:20240301-20240301 x'],
  ['a OR b', 'a OR b'],
  ['a OR b OR "c d" e', 'a OR b OR "c d" e'],
  ['OR a', 'OR a'],
  ['a OR', 'a OR'],
  ['a OR -b', 'a OR -b'],
  ['a or b', 'a or b'],
  ['foo:bar baz', 'foo:bar baz'],
  ['http://example.com/x', 'http://example.com/x'],
  ['"unbalanced quote', '"unbalanced quote"'],
  ['a "b c', 'a "b c"'],
  ['a\u0000b\u0007c\nd', 'a b c d'],
  ['site: x', 'site: x'],
  ['-', '-'],
  ['', ''],
];

for (const [input, canonical] of PARSE)
  test(`parse ${JSON.stringify(input)}`, () => {
    assert.is(formatQuery(parseQuery(input)), canonical);
  });

test('clause kinds and flags', () => {
  const q = parseQuery('-title:x +the "a b" site:s.test -type:pdf a OR b');
  assert.equal(
    q.clauses.map((c) => c.kind),
    ['text', 'text', 'text', 'filter', 'filter', 'or'],
  );
  assert.equal(q.clauses[0], { kind: 'text', field: 'title', text: 'x', quoted: false, plus: false, exclude: true });
  assert.equal(q.clauses[4], { kind: 'filter', field: 'type', value: 'pdf', exclude: true });
});

test('a malformed date range is a syntax error naming the expected form', () => {
  for (const bad of ['date:2024', 'date:20241301-20241231', 'date:yesterday', 'date:20240101-2024'])
    assert.throws(() => parseQuery(bad), (e: unknown) => e instanceof QuerySyntaxError && /yyyymmdd-yyyymmdd/.test((e as Error).message));
});

test('huge input is cut to the limits, never thrown at', () => {
  const q = parseQuery('word '.repeat(2000));
  assert.ok(q.truncated);
  assert.is(q.clauses.length, MAX_CLAUSES);
  const long = parseQuery('x'.repeat(10_000));
  assert.ok(long.truncated);
  assert.is((long.clauses[0] as { text: string }).text.length, MAX_QUERY_CHARS);
});

const analyzer = new Analyzer();
const stops = new Set(['the', 'a', 'how', 'do', 'i', 'to', 'of']);
const A = (q: string) => analyzeQuery(parseQuery(q), analyzer, stops);

const ANALYZE: [input: string, terms: string[], stopped: string[], required: number, excluded: number][] = [
  ['Web Crawler', ['web', 'crawler'], [], 2, 0],
  ['how do I configure the proxy', ['configure', 'proxy'], ['how', 'do', 'I', 'the'], 2, 0],
  ['how much disk space', ['disk', 'space'], ['how', 'much'], 2, 0],
  ['how many rows', ['rows'], ['how', 'many'], 1, 0],
  ['much disk space', ['much', 'disk', 'space'], [], 3, 0],
  ['how +much disk', ['much', 'disk'], ['how'], 2, 0],
  ['"how much" disk', ['how', 'much', 'disk'], [], 2, 0],
  ['the', ['the'], [], 1, 0],
  ['the of', ['the', 'of'], [], 2, 0],
  ['+the web', ['the', 'web'], [], 2, 0],
  ['"the web"', ['the', 'web'], [], 1, 0],
  ['www.apache.org', ['www.apache.org', 'www', 'apache', 'org'], [], 1, 0],
  ['-spam', [], [], 0, 1],
  ['push --force-with-lease', ['push', '--force-with-lease', 'force', 'with', 'lease'], [], 2, 0],
  ['a OR b crawler', ['a', 'b', 'crawler'], [], 2, 0],
  ['café München', ['cafe', 'munchen'], [], 2, 0],
  ['!!! ???', [], [], 0, 0],
];

for (const [input, terms, stopped, required, excluded] of ANALYZE)
  test(`analyze ${JSON.stringify(input)}`, () => {
    const q = A(input);
    assert.equal(q.terms, terms);
    assert.equal(q.stopped, stopped);
    assert.is(q.required.length, required);
    assert.is(q.excluded.length, excluded);
  });

test('a compound word matches whole or as the phrase of its parts, a single quoted word a plain term', () => {
  assert.equal(A('www.apache.org').required[0], [
    { field: 'default', terms: ['www.apache.org'], phrase: false },
    { field: 'default', terms: ['www', 'apache', 'org'], phrase: true },
  ]);
  assert.is(A('"crawler"').required[0]![0]!.phrase, false);
  assert.equal(A('title:"getting started"').required[0], [{ field: 'title', terms: ['getting', 'started'], phrase: true }]);
});

test.run();
