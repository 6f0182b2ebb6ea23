import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TermDictionary } from '../../../shared/index/dictionary.js';

/** A dictionary of these terms, sorted and joined as the index writer writes the terms file's words. */
function dictionary(terms: string[]): { dict: TermDictionary; sorted: string[] } {
  const sorted = [...terms].sort((a, b) => (a < b ? -1 : 1));
  return { dict: new TermDictionary(Buffer.from(sorted.join('\n'))), sorted };
}

test('dictionary: every term found at its id and read back, whatever its script', () => {
  const cases: [string, string[]][] = [
    ['ascii', ['crawl', 'crawler', 'crawl_db', 'a', 'zebra', 'segment', '2024', 'x86']],
    ['accents and other scripts', ['café', 'cafe', 'caféine', 'naïve', 'ωμέγα', 'данные', '索引', '検索エンジン']],
    // U+E000–U+FFFF sort after characters past U+FFFF in JavaScript (surrogates), before them by UTF-8 bytes.
    ['past the basic plane', ['\u{1F600}x', '\uFF21b', '\uE000', '\u{10000}', 'a\u{1F600}', 'a\uFFFD', 'a\uE001z', 'a']],
    ['one term', ['only']],
  ];
  for (const [name, terms] of cases) {
    const { dict, sorted } = dictionary(terms);
    assert.is(dict.size, sorted.length, name);
    assert.equal(dict.all(), sorted, name);
    sorted.forEach((t, i) => {
      assert.is(dict.id(t), i, `${name}: ${t}`);
      assert.is(dict.term(i), t, `${name}: term ${i}`);
    });
  }
});

test('dictionary: thousands of terms, every one found at its id and read back; words between them and past the ends are not', () => {
  const words = new Set<string>();
  for (let i = 0; words.size < 3000; i++) words.add(((i * 7919) % 100_003).toString(36) + (i % 7 ? '' : 'é'));
  const { dict, sorted } = dictionary([...words]);
  assert.is(dict.size, 3000);
  sorted.forEach((t, i) => {
    assert.is(dict.id(t), i, t);
    assert.is(dict.term(i), t, `term ${i}`);
    assert.is(dict.id(t + '\u0000'), -1, `after ${t}`);
    assert.is(dict.id(t.slice(0, -1) + '!'), words.has(t.slice(0, -1) + '!') ? sorted.indexOf(t.slice(0, -1) + '!') : -1);
  });
  assert.is(dict.id(''), -1);
  assert.is(dict.id('\uFFFF'), -1);
  assert.equal(dict.all(), sorted);
});

test('dictionary: a term it lacks is -1, before, between and after its terms', () => {
  const { dict } = dictionary(['beta', 'delta', 'gamma', '\u{1F600}', '\uFF21']);
  for (const t of ['', 'alpha', 'bet', 'betas', 'c', 'deltaa', 'zzz', '\u{1F601}', '\uFF22', '\uE000', 'beta delta']) assert.is(dict.id(t), -1, t);
});

test('dictionary: an empty one holds nothing, and an id out of range is refused', () => {
  const empty = new TermDictionary(new Uint8Array(0));
  assert.is(empty.size, 0);
  assert.equal(empty.all(), []);
  assert.is(empty.id('anything'), -1);
  assert.throws(() => empty.term(0), /no term 0/);
  const { dict } = dictionary(['one', 'two']);
  assert.throws(() => dict.term(2), /no term 2 in a dictionary of 2/);
  assert.throws(() => dict.term(-1), /no term -1/);
});

test.run();
