import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isEnglishWord, SortedWords } from '../../../shared/analysis/words.js';

const LIST = ',"b","bb","d","ka"]';
const CASES: [string, boolean][] = [
  ['a', false],
  ['b', true],
  ['ba', false],
  ['bb', true],
  ['c', false],
  ['d', true],
  ['k', false],
  ['ka', true],
  ['z', false],
  ['', false],
];
for (const [word, want] of CASES) test(`bisection over a sorted word list: ${word || '(empty)'} ${want ? 'is' : 'is not'} there`, () => assert.is(new SortedWords(LIST).has(word), want));

test('the English dictionary: first, last and common words are words; compounds and identifiers are not', () => {
  for (const w of ['a', 'zzzs', 'read', 'line', 'event', 'loop', 'filename']) assert.ok(isEnglishWord(w), w);
  for (const w of ['readline', 'eventloop', 'sqlite', 'Read', 'zzzzz']) assert.not.ok(isEnglishWord(w), w);
});

test.run();
