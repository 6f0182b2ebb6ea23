/** Summaries from the parts of a page around the query's words equal the summaries from the whole page. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { typedWords } from '../../searcher/highlight.js';
import { summarize, type SummaryOptions } from '../../searcher/summary.js';
import { placesPattern, summaryTokens } from '../../searcher/summary-tokens.js';

const stem = new Analyzer({ stemEnglish: true });
const plain = new Analyzer();

const filler = (n: number, seed = 0) => Array.from({ length: n }, (_, i) => `w${(i * 7 + seed) % 53}`).join(' ');
const long = (words: string[], gap = 40) => words.map((w, i) => `${filler(gap, i)} ${w}`).join(' ') + ' ' + filler(gap);

type Page = { text: string; furniture?: [number, number][]; sections?: number[] };
const page = (text: string, extra: Omit<Page, 'text'> = {}): Page => ({ text, ...extra });
const nav = 'Home Docs Download Support Contact ' + filler(60, 3);
const withNav = `${nav}\n${long(['indexing', 'policies'])}\n${nav}`;

const CASES: [name: string, p: Page, query: string, opts: SummaryOptions][] = [
  ['no hit: the start of the page', page(long(['alpha', 'beta'])), 'zebra', { context: 5, length: 30 }],
  ['no hit on a short page', page('one two three'), 'zebra', { context: 5, length: 30 }],
  ['one hit far into the page', page(long(['vacuum'], 500)), 'vacuum', { context: 5, length: 30 }],
  ['hits far apart give two windows', page(long(['vacuum', 'journal'], 300)), 'vacuum journal', { context: 3, length: 20 }],
  ['dense hits merge', page(filler(50) + ' create index on t create unique index i ' + filler(50)), 'create index', { context: 5, length: 30 }],
  ['stems: policy finds policies, indexing finds index', page(long(['policies', 'Policy', 'indexing', 'indexes'])), 'policy index', { context: 5, length: 30 }],
  ['stems that rewrite their end: happy, happiness, any', page(long(['happiness', 'happily', 'any', 'sensibility'])), 'happy any sensible', { context: 2, length: 20 }],
  ['a one-letter prefix joins its word: e-mail', page(long(['e-mail', 'E-Mail', 'email'])), 'email', { context: 3, length: 30 }],
  ["apostrophes inside a word: o'clock, don’t, ma'am", page(long(["o'clock", 'don’t', "ma'am", "crawler's"])), 'oclock dont maam crawler', { context: 2, length: 40 }],
  ['folded letters: Café, ﬁle, ＦＵＬＬ, Ærø', page(long(['Café', 'ﬁle', 'ＦＵＬＬ', 'Ærø'])), 'cafe file full aero', { context: 2, length: 40 }],
  ['case: CREATE, Index', page(long(['CREATE', 'Index'])), 'create index', { context: 2, length: 20 }],
  ['furniture: never shown, the head starts after it', page(withNav, { furniture: [[0, nav.length], [withNav.length - nav.length, withNav.length]] }), 'zebra', { context: 5, length: 30 }],
  ['furniture: a hit inside it is skipped', page(withNav, { furniture: [[0, nav.length]] }), 'download indexing', { context: 5, length: 30 }],
  ['sections cut windows', page(long(['vacuum', 'journal'], 3), { sections: [0, 20] }), 'vacuum journal', { context: 5, length: 30 }],
  ['a query word in a long run of non-space', page(filler(20) + ' ' + 'x'.repeat(300) + 'vacuum.' + 'y'.repeat(10) + ' vacuum ' + filler(20)), 'vacuum', { context: 3, length: 20 }],
  ['numbers and words with digits', page(long(['3.14', 'sha256', '1,000'])), '3.14 sha256 1,000', { context: 2, length: 30 }],
  ['a word at both ends of the text', page('vacuum ' + filler(100) + ' vacuum'), 'vacuum', { context: 4, length: 30 }],
];

for (const analyzer of [stem, plain])
  for (const [name, p, query, opts] of CASES)
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
  assert.ok(parts.tokens.length < 100, `${parts.tokens.length} words analyzed of ${stem.tokens(text).length}`);
  assert.ok(parts.more);
});

test('a non-ASCII query term: the whole text is analyzed', () => {
  assert.is(placesPattern(['münchen'.normalize('NFD')]), undefined);
  assert.is(summaryTokens(plain, 'Москва и Петербург', ['москва'], { context: 2, length: 10 }, []), undefined);
});

test.run();
