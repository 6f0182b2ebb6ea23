/** The stem cache keeps two generations: a word stemmed in the generation before the current one is not stemmed again. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import porter2 from 'wink-porter2-stemmer';
import { StemCache } from '../../../shared/analysis/stem-cache.js';

test('StemCache: stems as the stemmer does; a full generation is kept one more round, so a vocabulary larger than a generation is mostly found, not stemmed again', () => {
  let calls = 0;
  const cache = new StemCache((w) => (calls++, porter2(w)), 100);
  const words = Array.from({ length: 150 }, (_, i) => `running${String.fromCharCode(97 + (i % 26))}${i}`);
  for (let round = 0; round < 3; round++) for (const w of words) assert.is(cache.get(w), porter2(w));
  // 150 words in generations of 100: the first round stems each, each later round half of them (75); a cache started afresh when full stems all 150 every round.
  assert.ok(calls <= 300, `${calls} stems for 450 lookups of 150 words (a cache started afresh when full: 450)`);
  // A vocabulary past twice the generation is stemmed again, as the cache must forget.
  const many = Array.from({ length: 450 }, (_, i) => `walking${i}`);
  calls = 0;
  for (let round = 0; round < 2; round++) for (const w of many) cache.get(w);
  assert.is(calls, 900);
});

test.run();
