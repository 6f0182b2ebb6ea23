import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer, MAX_TERM_LENGTH } from '../../../shared/analysis/analyzer.js';
import { splitCompound } from '../../../shared/analysis/words.js';
import { tokenSpans } from '../../../shared/analysis/token-spans.js';

const plain = new Analyzer();
const stem = new Analyzer({ stemEnglish: true });

const CASES: [string, string, string[]][] = [
  ['English words, case, punctuation', 'Hello, World! The FETCHER runs.', ['hello', 'world', 'the', 'fetcher', 'runs']],
  ['no letter collapsing', 'hello foo running', ['hello', 'foo', 'running']],
  ['numbers stay whole', 'version 3.14 of 2024 cost 1,000 units', ['version', '3.14', 'of', '2024', 'cost', '1,000', 'units']],
  ['possessive and contraction', "the crawler's queue doesn't stall", ['the', 'crawler', 'queue', 'doesnt', 'stall']],
  ['identifiers whole, then their words; other hyphens split', 'node.js max_tokens follow-me', ['node.js', 'node', 'js', 'max_tokens', 'max', 'tokens', 'follow', 'me']],
  ['camelCase: the whole term, then its parts', 'fs.readFile EventEmitter XMLHttpRequest', ['fs.readfile', 'fs', 'readfile', 'read', 'file', 'eventemitter', 'event', 'emitter', 'xmlhttprequest', 'xml', 'http', 'request']],
  ['not camelCase: one case, a capital first, digits', 'README Apple sha256 c3ref IPv6', ['readme', 'apple', 'sha256', 'c3ref', 'ipv6']],
  ['a one-letter prefix joins its word', 'E-mail email x-ray a-b-c', ['email', 'email', 'xray', 'ab', 'c']],
  ['German umlauts fold to the vowel', 'Müller aß Äpfel in München', ['muller', 'ass', 'apfel', 'in', 'munchen']],
  ['German sharp s, capital too', 'Straße STRASSE ẞ', ['strasse', 'strasse', 'ss']],
  ['other Latin diacritics and ligatures', 'café naïve Œuvre Søren Łódź', ['cafe', 'naive', 'oeuvre', 'soren', 'lodz']],
  ['fullwidth forms (NFKC)', 'ＡＢＣ１２３ ﬁle', ['abc123', 'file']],
  ['Korean: spaced words, particles stripped', '서울에서 한국어를 공부합니다 서울', ['서울', '한국어', '공부합니다', '서울']],
  ['Korean: short words keep their last syllable', '아이 나는', ['아이', '나는']],
  ['Japanese: segmented, voicing kept', '東京都に住んでいます', ['東京', '都', 'に', '住', 'んで', 'い', 'ます']],
  ['Japanese: half-width kana composed', 'ｶﾞｲﾄﾞ', ['ガイド']],
  ['Chinese: segmented by dictionary', '我们是中国人，北京欢迎你', ['我们', '是', '中国人', '北京', '欢迎', '你']],
  ['mixed scripts in one word', 'abc東京', ['abc', '東京']],
  ['Thai: segmented', 'ภาษาไทยง่าย', ['ภาษา', 'ไทย', 'ง่าย']],
  ['Cyrillic: case folded, й kept, ё → е', 'Привет ЁЛКА Йошкар-Ола', ['привет', 'елка', 'йошкар', 'ола']],
  ['Greek: accents and final sigma', 'Ωμέγα σοφός', ['ωμεγα', 'σοφοσ']],
];

for (const [name, input, want] of CASES)
  test(`analyzer: ${name}`, () => {
    assert.equal(plain.terms(input), want);
  });

test('analyzer: terms up to a maximum, the same as the first of all terms', () => {
  const text = 'A readFile call, then 東京 and more words after';
  const all = plain.terms(text);
  for (const max of [0, 1, 2, 3, 5, all.length, all.length + 4]) assert.equal(plain.terms(text, max), all.slice(0, max), `max ${max}`);
});

test('analyzer: stemming is an option, ASCII terms only', () => {
  assert.equal(stem.terms('Crawlers running quickly generalization'), ['crawler', 'run', 'quick', 'general']);
  assert.equal(stem.terms('Müller Häuser'), ['muller', 'hauser']);
  assert.equal(stem.terms('東京 서울에서'), ['東京', '서울']);
  assert.equal(plain.terms('Crawlers running'), ['crawlers', 'running']);
});

test('analyzer: Porter2 by default; an index that names no stemmer is read with the 1980 Porter algorithm it was built with', () => {
  assert.equal(stem.options, { stemEnglish: true, englishStemmer: 'porter2', decompound: false });
  assert.equal(stem.terms('regularly using usage'), ['regular', 'use', 'usag']);
  const old = Analyzer.ofIndex({ stemEnglish: true });
  assert.is(old.options.englishStemmer, 'porter');
  assert.equal(old.terms('regularly using usage'), ['regularli', 'us', 'usag']);
  assert.is(Analyzer.ofIndex({ stemEnglish: true, englishStemmer: 'porter2' }).options.englishStemmer, 'porter2');
  assert.throws(() => new Analyzer({ englishStemmer: 'lovins' } as never), /unknown English stemmer lovins/);
});

test('analyzer: analysis is idempotent on its own output without stemming', () => {
  const text = 'Müller 東京都に住んでいます 3.14 Straße crawler’s';
  const once = plain.terms(text);
  assert.equal(plain.terms(once.join(' ')), once);
});

test('analyzer: positions and offsets', () => {
  const text = 'Müller aß 東京都';
  const toks = plain.tokens(text);
  assert.equal(toks.map((t) => t.pos), [0, 1, 2, 3]);
  assert.equal(toks.map((t) => text.slice(t.start, t.end)), ['Müller', 'aß', '東京', '都']);
});

test('analyzer: the parts of a camelCase word are marked and point at the word', () => {
  const text = 'call memoryUsage()';
  const toks = plain.tokens(text);
  assert.equal(toks.map((t) => [t.term, t.pos, text.slice(t.start, t.end), t.part ?? false]), [
    ['call', 0, 'call', false],
    ['memoryusage', 1, 'memoryUsage', false],
    ['memory', 2, 'memoryUsage', true],
    ['usage', 3, 'memoryUsage', true],
  ]);
  assert.equal(stem.terms('memoryUsage'), ['memoryusag', 'memori', 'usag']);
  assert.is(plain.term('readFile'), undefined);
});

test('analyzer: a valued token carries the function of the text it spans, computed once a word', () => {
  const a = new Analyzer({ stemEnglish: true });
  // Camel case, repeats, a run segmented by ICU, half-width kana that NFKC shortens, a compatibility ideograph.
  const text = 'Running runs memoryUsage running 東京都に住む ﾃﾞｰﾀ 豈 running';
  const seen: string[] = [];
  const valueOf = (word: string) => (seen.push(word), `<${word}>`);
  const toks = a.valuedTokens(text, valueOf);
  assert.is(seen.filter((w) => w === 'running').length, 1, 'once a word');
  assert.equal(
    toks.map((t) => [t.term, t.pos, t.start, t.end, t.part]),
    a.tokens(text).map((t) => [t.term, t.pos, t.start, t.end, t.part]),
  );
  for (const t of toks) assert.is(t.value, valueOf(text.slice(t.start, t.end)), t.term);
  assert.equal(a.valuedTokens('one two', valueOf, 1).length, 1);
});

const COMPOUNDS: [string, [string, string] | undefined][] = [
  ['readline', ['read', 'line']],
  ['eventloop', ['event', 'loop']],
  ['hostname', ['host', 'name']],
  ['backpressure', ['back', 'pressure']],
  // English words stay whole; so do parts shorter than three letters and non-words.
  ['filename', undefined],
  ['callback', undefined],
  ['rowid', undefined],
  ['sqlite', undefined],
  ['upsert', undefined],
  ['read', undefined],
  ['readline2', undefined],
  ['Readline', undefined],
];
for (const [word, parts] of COMPOUNDS) test(`analyzer: compound ${word} → ${parts?.join(' ') ?? 'whole'}`, () => assert.equal(splitCompound(word), parts));

test('analyzer: of several splits the most even wins, by the dictionary given', () => {
  const words = new Set(['ab', 'abc', 'abcd', 'cdef', 'def', 'ef']);
  assert.equal(splitCompound('abcdef', (w) => words.has(w)), ['abc', 'def']);
  assert.equal(splitCompound('abcdefg', (w) => words.has(w)), undefined);
});

test('analyzer: with decompound a compound is its whole term and then its parts, marked as parts', () => {
  const dc = new Analyzer({ stemEnglish: true, decompound: true });
  const text = 'the readline module';
  assert.equal(dc.tokens(text).map((t) => [t.term, text.slice(t.start, t.end), t.part ?? false]), [
    ['the', 'the', false],
    ['readlin', 'readline', false],
    ['read', 'readline', true],
    ['line', 'readline', true],
    ['modul', 'module', false],
  ]);
  // Only words written in lower case: a capitalised one may be a name the dictionary lacks.
  assert.equal(dc.terms('Monday Webcrawler'), ['monday', 'webcrawl']);
  assert.equal(stem.terms('Readline'), ['readlin'], 'off unless asked for');
  assert.is(Analyzer.ofIndex({ stemEnglish: true }).options.decompound, false, 'an index that does not say was built without');
});

test('analyzer: over-long tokens are dropped, unknown options refused', () => {
  assert.equal(plain.terms('a' + 'x'.repeat(MAX_TERM_LENGTH) + ' ok'), ['ok']);
  assert.throws(() => new Analyzer({ stem: true } as never), /unknown analyzer option stem/);
  assert.equal(plain.term('Über'), 'uber');
  assert.is(plain.term('two words'), undefined);
});


test('analyzer: the ASCII fast path finds exactly the spans of the full tokenizer, next to non-ASCII text too', () => {
  const spans = (text: string, ascii: boolean) => {
    const out: [number, number][] = [];
    tokenSpans(text, (a, b) => out.push([a, b]) > 0, ascii);
    return out;
  };
  const pieces = ['e-mail', 'x-ray', '3.14', '1,000', '3.14é', "don't", 'don’t', 'café', 'München', 'éa-b', 'xä-b', '東京abc', '東a-b', 'a-東', 'fs.readFile()', '--force-with-lease', 'c3ref/last_insert_rowid', 'ｶﾀｶﾅ', '서울에서', "'quoted'", '-', '', ' ', '—', 'Straße', 'v1.2.3-beta', 'naïve', "o'clock", 'ｘ-ｙ'];
  const texts = [...pieces];
  // Every pair, glued and spaced, so each piece meets each other one at a boundary.
  for (const a of pieces) for (const b of pieces) texts.push(a + b, `${a} ${b}`, `${a}-${b}`, `${a}.${b}`);
  // Long runs: many non-ASCII words before an ASCII one, and the reverse.
  texts.push('東京、'.repeat(300) + 'tail words', '東京, '.repeat(300) + 'tail', 'ascii words '.repeat(300) + 'café', 'naïve '.repeat(200) + 'x-ray 3.14');
  // Random strings over the characters the ASCII rules turn on, pure ASCII and mixed.
  let seed = 11;
  const rnd = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
  for (const alphabet of ['a9Z0.,-\' _x', 'aZ09=_.;\n\'-', "ab12.,-' é東’"])
    for (let i = 0; i < 4000; i++) texts.push(Array.from({ length: 1 + rnd(24) }, () => alphabet[rnd(alphabet.length)]).join(''));
  for (const t of texts) assert.equal(spans(t, true), spans(t, false), JSON.stringify(t.slice(0, 60)));
  const stopAt = (text: string) => {
    const out: number[] = [];
    tokenSpans(text, (a) => out.push(a) < 2);
    return out;
  };
  assert.equal(stopAt('one two three'), [0, 4], 'stops when asked');
});

test.run();

test('analyzer: words remembered across a growing cache, and after it starts afresh, give the terms a new analyzer gives', () => {
  // More distinct words than the cache holds (200,000), each met twice, the second time after the others.
  const words = Array.from({ length: 210_000 }, (_, i) => `Word${i.toString(36)}ing`);
  const text = words.join(' ');
  const a = new Analyzer({ stemEnglish: true });
  const first = a.terms(text);
  assert.is(first.length, words.length);
  assert.equal(a.terms(text), first);
  const fresh = new Analyzer({ stemEnglish: true });
  for (const i of [0, 511, 512, 1023, 1024, 99_999, 199_999, 200_000, 209_999]) assert.equal(fresh.terms(words[i]!), [first[i]!], words[i]);
});
