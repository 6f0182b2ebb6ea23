/** "Did you mean": edit distance, the written form, and respelling a query in place. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { editDistance, forgivenMisspelling, respell, writtenForm } from '../../searcher/spell.js';
import { PageForms } from '../../searcher/spell-pages.js';

const DISTANCES: [a: string, b: string, max: number, d: number][] = [
  ['expense', 'expense', 2, 0],
  ['expnse', 'expense', 2, 1],
  ['teh', 'the', 1, 1], // neighbours swapped: one edit
  ['reprt', 'report', 2, 1],
  ['kitten', 'sitting', 3, 3],
  ['kitten', 'sitting', 2, 3], // beyond max: max + 1
  ['a', 'abcdef', 2, 3],
  ['', 'ab', 2, 2],
];
test('edit distance (optimal string alignment), cut off past max', () => {
  for (const [a, b, max, d] of DISTANCES) assert.is(editDistance(a, b, max), d, `${a} → ${b}`);
});

const analyzer = new Analyzer({ stemEnglish: true });
/** Pages read as the searcher reads them, to more tokens than any lookup looks at. */
const read = (texts: string[]) => texts.map((t) => new PageForms(analyzer, t, 1000));

test('respell: corrected words replaced in place; operators, quotes and other words kept as typed', () => {
  const fixes = new Map([[analyzer.terms('expnse')[0]!, 'expens'], [analyzer.terms('reprt')[0]!, 'report']]);
  const spell = (t: string) => ({ expens: 'expense', report: 'report' })[t] ?? t;
  const r = respell(analyzer, 'site:handbook.test "expnse reprt" -travel', fixes, spell);
  assert.is(r?.query, 'site:handbook.test "expense report" -travel');
  assert.equal(r?.parts.filter((p) => p.corrected).map((p) => p.text), ['expense', 'report']);
  assert.is(respell(analyzer, 'nothing to fix', fixes, spell), undefined);
  assert.is(respell(analyzer, 'Expnse reprt', fixes, spell)?.query, 'Expense report', 'a capital typed is kept');
});

const FORGIVEN: [word: string, forgiven: boolean][] = [
  ['inheritence', true], // inheritance, of the same stem
  ['existance', true], // existence
  ['inheritance', false], // an English word
  ['jsonify', false], // no English word of its stem one edit away: an identifier the pages write
  ['asyncio', false], // the stemmer left it whole
  ['occurence', false], // occurrence stems otherwise (occurr): not found by its stem, so corrected as an unknown word
];
test('a misspelling the stemmer forgave: no English word, one edit from an English word of the same stem', () => {
  for (const [word, forgiven] of FORGIVEN) assert.is(forgivenMisspelling(analyzer, word, analyzer.terms(word)[0]!), forgiven, word);
});

test('the written form nearest to what was typed wins, then the commonest', () => {
  const text = 'Rebased branches: after you rebased, rebase again. rebased rebased.';
  assert.is(writtenForm(read([text]), analyzer.terms('rebase')[0]!, 'rebsae', 1000), 'rebase');
  assert.is(writtenForm(read(['use readFile, not readfile or readFile']), analyzer.terms('readfile')[0]!, 'readflie', 1000), 'readFile');
  assert.is(writtenForm(read(['no such word']), 'zzz', 'zz', 1000), undefined);
  assert.is(writtenForm(read(['VACUUM rebuilds. Run VACUUM often.']), 'vacuum', 'vacum', 1000), 'vacuum', 'capitals of the page are not the word\'s');
});

test('written forms over pages: the tokens looked at run on across them, and a page past them is never read', () => {
  const rebase = analyzer.terms('rebase')[0]!;
  const pages = ['rebased rebased', 'Rebase rebase rebase', 'rebases'];
  // As the pages joined by line breaks: the same form wins, with the same budget of tokens.
  for (const max of [1, 2, 3, 4, 5, 6, 100]) assert.is(writtenForm(read(pages), rebase, 'rebsaed', max), writtenForm(read([pages.join('\n')]), rebase, 'rebsaed', max), `${max} tokens`);
  assert.is(writtenForm(read(pages), rebase, 'rebsaed', 2), 'rebased', 'the first page alone');
  assert.is(writtenForm(read(pages), rebase, 'rebsaes', 5), 'rebase', 'two pages: rebases not reached');
  assert.is(writtenForm(read(pages), rebase, 'rebsaes', 6), 'rebases');
  function* lazy() {
    yield* read(['rebase rebased']);
    throw new Error('a page read past the tokens looked at');
  }
  assert.is(writtenForm(lazy(), rebase, 'rebsae', 2), 'rebase');
});

test.run();
