import { test } from 'uvu';
import * as assert from 'uvu/assert';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { Word, WordCache, wordOf } from '../../../shared/analysis/word-cache.js';

/** Looks a word up as the analyzer does, adding it when missing; returns whether it was found and its Word. */
function lookUp(cache: WordCache, word: string): { found: boolean; word: Word | null } {
  // Found inside a longer text, as the analyzer finds a span.
  const text = `(${word})`;
  let e = cache.find(text, 1, 1 + word.length);
  const found = e >= 0;
  if (!found) e = cache.add(word, new Word(word.toUpperCase()));
  assert.is(cache.keys[e], word);
  return { found, word: cache.words[e]! };
}

test('a word is found again by the characters of its span, with the same Word', () => {
  const cache = new WordCache();
  const first = lookUp(cache, 'crawl');
  assert.is(first.found, false);
  const again = lookUp(cache, 'crawl');
  assert.is(again.found, true);
  assert.is(again.word, first.word);
  assert.is(lookUp(cache, 'crawler').found, false);
  assert.is(lookUp(cache, 'craw').found, false);
});

test('a word still in use outlives a full generation; one unused for two is derived again', () => {
  const cache = new WordCache(3);
  const kept = lookUp(cache, 'kept').word;
  for (const w of ['a1', 'a2']) lookUp(cache, w);
  // The first generation is full: `b1` starts the next, and `kept` moves there as it is.
  lookUp(cache, 'b1');
  const moved = lookUp(cache, 'kept');
  assert.equal([moved.found, moved.word], [true, kept]);
  assert.is(lookUp(cache, 'a1').found, true);
  // `a2` was not met in the second generation, which is now the old one: it is gone when the third starts.
  for (const w of ['c1', 'c2', 'c3']) lookUp(cache, w);
  assert.is(lookUp(cache, 'a2').found, false);
});

test('many words: each found again, whatever the table grew to', () => {
  const cache = new WordCache(1000);
  const words = Array.from({ length: 1500 }, (_, i) => `w${i.toString(36)}`);
  for (const w of words) assert.is(lookUp(cache, w).found, false);
  // The last 500 are in the current generation, the 1000 before in the old one.
  for (const w of words.slice(-700)) assert.is(lookUp(cache, w).found, true, w);
});

test('words of other scripts, astral characters and words of one length are told apart by every code unit', () => {
  const cache = new WordCache();
  const words = ['東京', '東都', 'naïve', 'naive', '𝒳y', '𝒴y', 'ab', 'ba', 'x'];
  for (const w of words) assert.is(lookUp(cache, w).found, false, w);
  for (const w of words) assert.is(lookUp(cache, w).word!.terms, w.toUpperCase(), w);
});

const WORD_OF: [string, string, number, number, string][] = [
  ['a short word', 'the crawl ran', 4, 9, 'crawl'],
  ['a word of 13 characters', 'an internationals day', 3, 16, 'international'],
  ['a long word split at a surrogate pair', `x${'𝒳'.repeat(3000)}y`, 1, 6001, '𝒳'.repeat(3000)],
  ['an empty span', 'abc', 1, 1, ''],
];

for (const [name, src, from, to, want] of WORD_OF) test(`wordOf: ${name}`, () => assert.is(wordOf(src, from, to), want));

test('a remembered long word keeps only its own characters, not the page it came from', () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const analyzer = new Analyzer();
  const heap = () => (gc(), v8.getHeapStatistics().used_heap_size);
  const before = heap();
  // 20 pages of 1 MB, each with a word of its own long enough for V8 to slice it.
  for (let p = 0; p < 20; p++) analyzer.terms(`${'lorem ipsum '.repeat(87_000)}uniqueword${p.toString().padStart(8, 'x')}`);
  const grown = heap() - before;
  assert.ok(grown < 5 * 2 ** 20, `the analyzer's memory grew by ${(grown / 2 ** 20).toFixed(1)} MB after 20 pages of 1 MB`);
});

test('a term number remembered with a word is found with it, also once it moved to the next generation', () => {
  const cache = new WordCache(3);
  lookUp(cache, 'kept');
  assert.is(cache.number, -1);
  cache.number = 7;
  lookUp(cache, 'other');
  assert.is(cache.number, -1);
  lookUp(cache, 'kept');
  assert.is(cache.number, 7);
  for (const w of ['a1', 'b1']) lookUp(cache, w);
  // `kept` moves from the old generation to the current one, its number with it.
  assert.is(lookUp(cache, 'kept').found, true);
  assert.is(cache.number, 7);
  assert.is(lookUp(cache, 'kept').found, true);
  assert.is(cache.number, 7);
});

test('words longer than 65,535 characters are told apart by their length', () => {
  const cache = new WordCache();
  const long = 'x'.repeat(70_000);
  for (const w of [long, long + 'x', long.slice(0, 65_536), long.slice(0, 4_464)]) assert.is(lookUp(cache, w).found, false, String(w.length));
  for (const w of [long, long + 'x', long.slice(0, 65_536), long.slice(0, 4_464)]) assert.is(lookUp(cache, w).found, true, String(w.length));
});

test.run();
