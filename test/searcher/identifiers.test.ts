/**
 * Identifiers (camelCase, dotted, snake_case) meet the words they are made
 * of: the query side of the analyzer's whole-then-parts terms, and a search
 * over a real index where prose finds the identifier, the identifier finds
 * prose, and the identifier's own page stays first.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';
import { analyzeQuery } from '../../searcher/query/analyze.js';
import { parseQuery } from '../../searcher/query/parse.js';
import { makeScorer } from '../../searcher/rank/score.js';
import { search, type SearchResult } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import type { Snapshot } from '../../searcher/snapshot.js';
import { explainPage } from '../../searcher/http/docpages.js';
import { summarize, summaryToHtml } from '../../searcher/summary.js';
import { withCrawlSnapshot } from './crawl-fixture.js';

const A = (q: string) => analyzeQuery(parseQuery(q), new Analyzer(), new Set(['the']));

const QUERIES: [query: string, required: string[][], alternatives: string[][][]][] = [
  ['fs.readFile', [['fs.readfile', 'fs readfile read file']], []],
  ['memoryUsage memory', [['memoryusage', 'memory usage'], ['memory']], []],
  ['pg_dump format', [['pg_dump', 'pg dump'], ['format']], []],
  ['"readFile"', [['readfile read file']], []],
  ['title:readFile', [['readfile read file']], []],
  ['read file', [['read'], ['file']], []],
];

for (const [query, required, alternatives] of QUERIES)
  test(`query ${JSON.stringify(query)}: the identifier or its parts match, both score`, () => {
    const q = A(query);
    assert.equal(q.required.map((g) => g.map((m) => m.terms.join(' '))), required);
    assert.equal(q.alternatives, alternatives);
  });

const PAGES = [
  { url: 'http://127.0.6.50/process.html', title: 'Process', text: 'Call process.memoryUsage() to read the heap of the running program.' },
  { url: 'http://127.0.6.51/files.html', title: 'Files', text: 'To read file contents at once, open it and read everything.' },
  { url: 'http://127.0.6.52/fs.html', title: 'File system', text: 'fs.readFile(path) returns the whole file; fs.readFile is the simple way.' },
  { url: 'http://127.0.6.53/dump.html', title: 'Dump', text: 'A pg dump of the data: take a pg dump a day, dump it often, dump before you upgrade, and keep every pg dump.' },
  { url: 'http://127.0.6.54/pgdump.html', title: 'Backups', text: 'Run pg_dump to write the database to a file.' },
  { url: 'http://127.0.6.55/name.html', title: 'Project name', text: 'Kestrelwing is what the project is called; Kestrelwing ships twice a year.' },
];

const withSnapshot = <T>(use: (s: Snapshot) => T) => withCrawlSnapshot(PAGES, use);

const urls = (r: SearchResult) => r.hits.filter((h) => h.full).map((h) => h.doc.url);

test('search: prose words find the identifier, the identifier finds prose below its own page, /explain scores the whole and the parts', async () => {
  await withSnapshot((snap) => {
    assert.equal(urls(search(snap, { query: 'memory usage', hitsPerSite: 0 })), ['http://127.0.6.50/process.html']);
    assert.equal(urls(search(snap, { query: 'readFile', hitsPerSite: 0 })), ['http://127.0.6.52/fs.html', 'http://127.0.6.51/files.html']);
    // The page naming pg_dump once outranks the page scattering pg and dump many times.
    assert.equal(urls(search(snap, { query: 'pg_dump', hitsPerSite: 0 })), ['http://127.0.6.54/pgdump.html', 'http://127.0.6.53/dump.html']);
    const q = analyzeQuery(parseQuery('readFile'), snap.analyzer, snap.settings.stopWords, snap.settings.synonyms);
    const id = snap.reader.idOf('http://127.0.6.52/fs.html')!;
    const html = explainPage(snap.reader.doc(id), 'readFile', makeScorer(snap.reader, q.terms, snap.settings.rank, undefined, q.weights, q.alternatives).explain(id), 'all');
    assert.not.match(html, /counts only the best of them/);
    assert.match(html, /readfil/);
  });
});

test('search: a capitalised name the analyzer keeps whole is found by its lower-case spelling, which it splits', async () => {
  await withSnapshot((snap) => {
    assert.ok(snap.analyzer.terms('kestrelwing').length > 1, 'the lower-case word is split into its parts');
    for (const query of ['kestrelwing', 'Kestrelwing', 'kestrelWing'])
      assert.equal(urls(search(snap, { query, hitsPerSite: 0 })), ['http://127.0.6.55/name.html'], query);
  });
});

test('summary: an identifier whose parts are both query words is highlighted once', () => {
  const a = new Analyzer();
  const text = 'Call process.memoryUsage() now.';
  const s = summarize(text, a.tokens(text), new Set(['memory', 'usage']), { context: 5, length: 20 });
  assert.is(summaryToHtml(s.parts), 'Call <mark>process.memoryUsage</mark>() now');
});

test.run();
