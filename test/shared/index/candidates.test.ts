/**
 * The candidate layer's own count of partial matches must list exactly
 * what flexsearch's `suggest` search over the same Document lists, in the
 * same order (the pool a search fills depends on it).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { CandidateIndex } from '../../../shared/index/candidates.js';

function rng(seed: number) {
  return () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const rand = rng(5);
// Few words, Zipf-like, so lists are long and documents share many of them; `stti`/`sti` collapse alike in flexsearch.
const WORDS = ['web', 'crawler', 'index', 'segment', 'fetch', 'parse', 'stti', 'sti', 'link', 'score', 'merge', 'dedup', 'rank', 'query', 'site', 'host'];
const word = () => WORDS[Math.floor(WORDS.length * rand() ** 2)]!;
const ci = new CandidateIndex(new Analyzer());
for (let id = 0; id < 3000; id++)
  ci.add(id, Array.from({ length: 3 + Math.floor(rand() * 40) }, word), { host: `h${id % 7}.test`, site: `h${id % 7}.test`, type: 'text/html', lang: 'en' });

/** flexsearch's own `suggest` search on the wrapped Document. */
function flexsearchSuggest(terms: string[], limit: number): number[] {
  const doc = (ci as unknown as { doc: { search(q: string, o: object): { result: number[] }[] } }).doc;
  return doc.search(`\u0001${terms.join('\u0001')}`, { index: 'text', limit, suggest: true })[0]?.result ?? [];
}

const QUERIES = [
  ['web', 'crawler'],
  ['rank', 'query', 'dedup'],
  ['host', 'site', 'merge', 'score'],
  ['stti', 'sti'],
  ['stti', 'web'],
  ['absent', 'web'],
  ['absent', 'missing'],
  ['web', 'web'],
  WORDS,
];

test('the counting path is the one taken for several terms without tags', () => {
  assert.ok((ci as unknown as { fieldIndex(): unknown }).fieldIndex(), 'flexsearch keeps its term lists where candidates.ts reads them');
});

for (const terms of QUERIES)
  for (const limit of [1, 10, 100, 1000, 5000])
    test(`${terms.join(' ')}, limit ${limit}: same ids in the same order as flexsearch`, () => {
      const ours = ci.search(terms, limit);
      const theirs = flexsearchSuggest(terms, limit);
      assert.equal(ours, theirs);
      assert.ok(ours.length <= limit);
    });

test('documents holding every term come first', () => {
  const ids = ci.search(['rank', 'query'], 3000);
  const both = ci.search(['rank', 'query'], 3000).filter((id) => ci.search(['rank'], 3000).includes(id) && ci.search(['query'], 3000).includes(id));
  assert.ok(both.length > 0 && both.length < ids.length, 'the test needs full and partial matches');
  assert.equal(ids.slice(0, both.length), both);
});

test.run();
