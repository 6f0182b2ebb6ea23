/** Summaries from the parts of a page around the query's words equal the summaries from the whole page. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { typedWords } from '../../searcher/highlight.js';
import { summarize } from '../../searcher/summary.js';
import { placesPattern, summaryTokens } from '../../searcher/summary-tokens.js';
import { long, SUMMARY_CASES } from './summary-pages.js';

const stem = new Analyzer({ stemEnglish: true });
const plain = new Analyzer();

for (const analyzer of [stem, plain])
  for (const [name, p, query, opts] of SUMMARY_CASES)
    test(`${name} (${analyzer.options.stemEnglish ? 'stemming' : 'no stemming'})`, () => {
      const terms = analyzer.terms(query);
      const plan = { furniture: p.furniture ?? [], accept: typedWords(analyzer, query) };
      const whole = summarize(p.text, analyzer.tokens(p.text), new Set(terms), opts, { ...plan, sections: p.sections ?? [] });
      const parts = summaryTokens(analyzer, p.text, terms, opts, p.furniture ?? []);
      assert.ok(parts, 'ASCII query terms are found by the scan');
      const sections = [...(p.sections ?? []), ...parts!.cuts].sort((a, b) => a - b);
      assert.equal(summarize(p.text, parts!.tokens, new Set(terms), opts, { ...plan, sections, more: parts!.more }), whole);
    });

test('only the parts around the query words are analyzed on a long page', () => {
  const text = long(['vacuum', 'journal'], 2000);
  const parts = summaryTokens(stem, text, ['vacuum'], { context: 5, length: 30 }, [])!;
  assert.ok(parts.tokens.terms.length < 100, `${parts.tokens.terms.length} words analyzed of ${stem.tokens(text).length}`);
  assert.ok(parts.more);
});

test('a non-ASCII query term: the whole text is analyzed', () => {
  assert.is(placesPattern(['münchen'.normalize('NFD')]), undefined);
  assert.is(summaryTokens(plain, 'Москва и Петербург', ['москва'], { context: 2, length: 10 }, []), undefined);
});

test.run();
