/** Summaries: windows around hits, whole words, best windows first, everything escaped. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { typedWords } from '../../searcher/highlight.js';
import { inflectionBase } from '../../segments/inflection.js';
import { MAX_SUMMARY_TOKENS, summarize, summaryToHtml, summaryToText, type Summary } from '../../searcher/summary.js';

const analyzer = new Analyzer();
const S = (text: string, terms: string[], context = 2, length = 10) =>
  summarize(text, analyzer.tokens(text), new Set(terms), { context, length }).parts;

const CASES: [name: string, text: string, terms: string[], context: number, length: number, expected: string][] = [
  ['no hit: the first words', 'one two three four five six', ['zzz'], 2, 3, 'one two three …'],
  ['short text, no hit: all of it', 'one two', ['zzz'], 2, 10, 'one two'],
  ['hit in the middle', 'a b c d crawler e f g h', ['crawler'], 2, 10, '… c d crawler e f …'],
  ['hit at the start', 'crawler a b c d e', ['crawler'], 2, 10, 'crawler a b …'],
  ['hit at the end', 'a b c d e crawler', ['crawler'], 2, 10, '… d e crawler'],
  ['two near hits merge', 'a b web c crawler d e f g h', ['web', 'crawler'], 1, 10, '… b web c crawler d …'],
  ['far hits give two windows', 'web a b c d e f g h i j k crawler', ['web', 'crawler'], 1, 10, 'web a … k crawler'],
  ['length caps the words', 'x web a b c d e f g h', ['web'], 5, 4, 'x web a b …'],
  ['punctuation inside a window is kept, whitespace squeezed', 'Hello,   world! The crawler\n\tworks.', ['crawler'], 2, 10, '… world! The crawler works'],
];

for (const [name, text, terms, context, length, expected] of CASES)
  test(name, () => {
    assert.is(summaryToText(S(text, terms, context, length)), expected);
  });

test('the window with the most distinct query words wins when space is short', () => {
  const text = 'web a b c d e f g h i j k l m n web crawler o p';
  assert.is(summaryToText(S(text, ['web', 'crawler'], 1, 3)), '… n web crawler …');
});

test('words are never cut', () => {
  const text = 'supercalifragilistic expialidocious crawler extraordinarily long words';
  const out = summaryToText(S(text, ['crawler'], 1, 3));
  for (const w of out.replace(/…/g, '').split(/\s+/).filter(Boolean)) assert.ok(text.split(' ').includes(w), w);
});

test('hits are marked, and page text is escaped in HTML', () => {
  const text = '<script>alert(1)</script> the crawler & "friends" <img src=x onerror=alert(2)>';
  const html = summaryToHtml(S(text, ['crawler', 'script', 'img'], 20, 40));
  assert.not.match(html, /<script|<img/);
  assert.match(html, /<mark>script<\/mark>&gt;alert\(1\)&lt;\/<mark>script<\/mark>&gt;/);
  assert.match(html, /<mark>crawler<\/mark> &amp; &quot;friends&quot;/);
  assert.match(html, /&lt;<mark>img<\/mark> src=x onerror=alert\(2/);
});

test('highlighting matches analyzed terms: case and diacritics folded', () => {
  const html = summaryToHtml(S('Über CAFÉ culture', ['cafe', 'uber'], 2, 10));
  assert.is(html, '<mark>Über</mark> <mark>CAFÉ</mark> culture');
});

test('tokens past the summarizer reach change nothing: the searcher tokenizes MAX_SUMMARY_TOKENS + 1', () => {
  const stem = new Analyzer({ stemEnglish: true });
  const words = Array.from({ length: MAX_SUMMARY_TOKENS + 300 }, (_, i) => (i % 997 === 5 ? 'Crawlers' : i === MAX_SUMMARY_TOKENS + 100 ? 'fetching' : `w${i % 50}`));
  const text = words.join(' ');
  const all = stem.tokens(text);
  const cut = stem.tokens(text, MAX_SUMMARY_TOKENS + 1);
  assert.equal(cut, all.slice(0, MAX_SUMMARY_TOKENS + 1));
  for (const terms of [['crawler'], ['fetch'], ['zzz']]) {
    const opts = { context: 3, length: 20 };
    assert.equal(summarize(text, cut, new Set(terms), opts), summarize(text, all, new Set(terms), opts), terms[0]);
  }
  assert.equal(stem.tokens(text, 0), []);
});

test('an empty text has an empty summary', () => {
  assert.equal(S('', ['x']), []);
});

test('furniture is never shown: windows stop at it, and a page without hits starts after it', () => {
  const text = 'Prev Up SQL Commands Home Next VACUUM The VACUUM command rebuilds the database file.';
  const furniture: [number, number][] = [[0, text.indexOf('The VACUUM')]];
  const opts = { context: 3, length: 12 };
  const hit = summarize(text, analyzer.tokens(text), new Set(['vacuum']), opts, { furniture });
  assert.is(summaryToText(hit.parts), 'The VACUUM command rebuilds the …');
  assert.is(hit.offset, text.indexOf('The VACUUM'));
  const none = summarize(text, analyzer.tokens(text), new Set(['zzz']), { context: 3, length: 3 }, { furniture });
  assert.is(summaryToText(none.parts), 'The VACUUM command …');
  assert.is(none.offset, undefined);
});

test('only accepted words are marked: the query word and its inflections, not every word with its stem', () => {
  const stem = new Analyzer({ stemEnglish: true });
  const text = 'Expensive hotels are not covered. File your expenses in an expense report.';
  const parts = summarize(text, stem.tokens(text), new Set(stem.terms('expense')), { context: 20, length: 40 }, { accept: typedWords(stem, 'expense') }).parts;
  assert.equal(parts.filter((p) => 'text' in p && p.highlight).map((p) => 'text' in p && p.text), ['expenses', 'expense']);
});

const BASES: [word: string, base: string][] = [
  ['expense', 'expens'], ['expenses', 'expens'], ['expensed', 'expens'], ['expensive', 'expensiv'], ['Policies', 'policy'], ['policy', 'policy'],
  ['reporting', 'report'], ['reported', 'report'], ['running', 'run'], ['run', 'run'], ['matches', 'match'], ['class', 'class'], ['Café', 'caf'],
];
test('inflection bases', () => {
  for (const [word, base] of BASES) assert.is(inflectionBase(word), base, word);
});

test('a window stays within one section, so the best passage names its section', () => {
  const text = 'Description The vacuum command rebuilds files. How it works It copies into a temporary journal file.';
  const how = text.indexOf('How it works');
  const opts = { context: 10, length: 30 };
  const merged = summarize(text, analyzer.tokens(text), new Set(['vacuum', 'temporary', 'journal']), opts);
  assert.ok(merged.offset! < how, 'one window across both sections');
  const split = summarize(text, analyzer.tokens(text), new Set(['vacuum', 'temporary', 'journal']), opts, { sections: [0, how] });
  assert.ok(split.offset! >= how, 'the window with most query words is in "How it works"');
});

/** A page of 900 words with hits of four words at uneven gaps, three furniture blocks and five section starts among them. */
function manyHits() {
  const words = Array.from({ length: 900 }, (_, i) => (i % 37 === 5 ? 'vacuum' : i % 53 === 11 ? 'journal' : i % 71 === 2 ? 'wal' : i % 89 === 40 ? 'readFileSync' : `w${(i * 13) % 47}`));
  const text = words.join(' ');
  const at = (w: number) => words.slice(0, w).join(' ').length + (w ? 1 : 0);
  return { text, furniture: [[at(100), at(130)], [at(300), at(302)], [at(560) - 1, at(600)]] as [number, number][], sections: [0, at(250), at(251), at(420), at(700)] };
}
const shown = (parts: Summary) => parts.map((p) => ('ellipsis' in p ? ' … ' : 'break' in p ? (p.break === 'line' ? '⏎' : ' — ') : p.highlight ? `[${p.text}]` : p.text)).join('');

test('windows over a page of many hits: the best few, cut by furniture and sections, the same whatever was summarized before', () => {
  const { text, furniture, sections } = manyHits();
  const tokens = analyzer.tokens(text);
  const cases: [query: string, context: number, length: number, summary: string, offset: number][] = [
    ['vacuum journal wal', 5, 30, 'w0 w13 [wal] w39 w5 [vacuum] w31 w44 w10 w23 w36 [journal] w15 w28 w41 w7 w20 … w15 w28 w41 w7 w20 [journal] w46 w12 w25 w38 w4 w17 w30 … ', 0],
    ['journal', 3, 20, ' … w10 w23 w36 [journal] w15 w28 w41 … w41 w7 w20 [journal] w46 w12 w25 … w9 w22 w35 [journal] w14 w27 … ', 33],
    ['wal vacuum', 2, 8, 'w0 w13 [wal] w39 w5 [vacuum] w31 w44 … ', 0],
    ['readfilesync file', 10, 30, ' … w14 w27 w40 w6 w19 w32 w45 w11 w24 w37 [readFileSync] w16 vacuum w42 w8 w21 w34 w0 w13 w26 … w25 w38 w4 w17 w30 w43 w9 … ', 121],
  ];
  const run = (order: typeof cases) => order.map(([q, context, length]) => summarize(text, tokens, new Set(analyzer.terms(q)), { context, length }, { furniture, sections }));
  const forward = run(cases);
  for (const [k, [q, , , summary, offset]] of cases.entries()) {
    assert.is(shown(forward[k]!.parts), summary, q);
    assert.is(forward[k]!.offset, offset, q);
  }
  // A summary of fewer hits after one of more, and the other way round.
  assert.equal(run([...cases].reverse()).reverse(), forward);
});

test.run();
