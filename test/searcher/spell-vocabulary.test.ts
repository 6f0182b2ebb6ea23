/** The spelling vocabulary's trie walk finds exactly the terms a scan of every term by edit distance finds. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { editDistance } from '../../searcher/spell.js';
import { spellVocabulary, termsNear } from '../../searcher/spell-vocabulary.js';
import { rng } from '../fixtures/rng.js';

/** Every term within `max` of `word` but the word itself, by editDistance over the whole list. */
function scan(terms: readonly string[], word: string, max: number): Map<string, number> {
  const near = new Map<string, number>();
  for (const t of terms) {
    const d = editDistance(word, t, max);
    if (d > 0 && d <= max) near.set(t, d);
  }
  return near;
}

const sorted = (m: Map<string, number>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
const vocabularyOf = (terms: readonly string[]) => spellVocabulary(terms.length, (id) => terms[id]!);

const TERMS = ['async', 'asyncio', 'asynci', 'encod', 'encodnig', 'replac', 'replic', 'slot', 'the', 'therefor', 'window', 'windows', 'wind', 'café', 'cafe', 'naïve', '𝔘nicode', '𝔘nicod', 'x', ''].sort();
const CASES: [word: string, max: number, near: [string, number][]][] = [
  ['asynco', 2, [['async', 1], ['asynci', 1], ['asyncio', 1]]],
  ['windw', 2, [['wind', 1], ['window', 1], ['windows', 2]]],
  ['teh', 1, [['the', 1]]], // neighbours swapped: one edit
  ['thee', 1, [['the', 1]]],
  ['cafe', 1, [['café', 1]]], // the word itself is left out
  ['naive', 1, [['naïve', 1]]],
  ['𝔘nicodes', 2, [['𝔘nicod', 2], ['𝔘nicode', 1]]], // a letter past U+FFFF is two units, as editDistance counts it
  ['zzzz', 2, []],
];
test('terms near a word: a table of cases', () => {
  const v = vocabularyOf(TERMS);
  for (const [word, max, near] of CASES) {
    assert.equal(sorted(termsNear(v, word, max)), near, word);
    assert.equal(sorted(termsNear(v, word, max)), sorted(scan(TERMS, word, max)), `${word}: as the scan`);
  }
});

test('terms near random words equal a scan of every term by edit distance', () => {
  const rand = rng(2027);
  const letters = 'abcdeéfst';
  const randomWord = (min: number, max: number) => Array.from({ length: min + Math.floor(rand() * (max - min + 1)) }, () => letters[Math.floor(rand() * letters.length)]!).join('');
  const terms = [...new Set(Array.from({ length: 3000 }, () => randomWord(1, 9)))].sort();
  const v = vocabularyOf(terms);
  const edit = (w: string) => {
    const i = Math.floor(rand() * (w.length + 1));
    const c = letters[Math.floor(rand() * letters.length)]!;
    return [w.slice(0, i) + c + w.slice(i), w.slice(0, i) + w.slice(i + 1), w.slice(0, i) + c + w.slice(i + 1), w.slice(0, i) + w.slice(i + 1, i + 2) + w.slice(i, i + 1) + w.slice(i + 2)][Math.floor(rand() * 4)]!;
  };
  let found = 0;
  for (let k = 0; k < 400; k++) {
    // Half typos of listed terms (one or two edits), half random words.
    const word = k % 2 ? edit(edit(terms[Math.floor(rand() * terms.length)]!)) : randomWord(0, 11);
    for (const max of [1, 2]) {
      const near = termsNear(v, word, max);
      assert.equal(sorted(near), sorted(scan(terms, word, max)), `${word} within ${max}`);
      found += near.size;
    }
  }
  assert.ok(found > 400, `the cases find terms (${found})`);
});

test('an empty vocabulary finds nothing', () => {
  assert.equal(termsNear(vocabularyOf([]), 'word', 2).size, 0);
});

test.run();
