/**
 * Summaries from the checkpoints stored at index time: the analyzer resumed
 * at any checkpoint gives the whole text's tokens from there on, and so do
 * the spans found from it with the record's exceptions; the words found from
 * the nearest checkpoints around the hits make the summary of the whole
 * text; only those words are found; a text that is not the one indexed is
 * told; the record takes a few bytes every CHECKPOINT_EVERY tokens and a few
 * a span of other than one token.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { CHECKPOINT_EVERY, readCheckpoints, textCheckpoints } from '../../segments/checkpoints.js';
import { SUMMARY_TEXT_CHARS } from '../../segments/offsets.js';
import { WholeText } from '../../segments/summary-text.js';
import { typedWords } from '../../searcher/highlight.js';
import { summarize, summarizeRanges, type SummaryOptions } from '../../searcher/summary.js';
import { readHitParts, ScannedOffsets } from '../../searcher/summary-checkpoints.js';
import { markedHits, offsetWords, type TextHits } from '../../searcher/summary-offsets.js';
import { filler, long, SUMMARY_CASES, type Page } from './summary-pages.js';

const stem = new Analyzer({ stemEnglish: true });
const plain = new Analyzer({ decompound: true });

function hitsOf(analyzer: Analyzer, text: string, terms: string[]): TextHits {
  const want = new Set(terms);
  const hits: TextHits = { at: [], terms: [] };
  for (const [i, t] of analyzer.tokens(text).entries()) if (want.has(t.term)) (hits.at.push(i), hits.terms.push(t.term));
  return hits;
}

const scanned = (analyzer: Analyzer, text: string) => new ScannedOffsets(analyzer, { ...readCheckpoints(textCheckpoints(analyzer, text))!, text });

const code = Array.from({ length: 80 }, (_, i) => `const x${i} = fs.readFileSync(path_${i});\u2028if (--count) __dunder__${i}.call(e-mail)`).join('\u2028');
const mixed = Array.from({ length: 60 }, (_, i) => `Москва ${filler(5, i)} 東京都の会議 ${filler(4, i)} café’s x-ray ${i}.5,000 hostname readLine`).join(' \n');
const TEXTS = [code, mixed, long(['vacuum', 'journal', 'readFileSync', 'XMLHttpRequest'], 200), `${'  \t'.repeat(50)}${filler(500)}`, 'ａｂｃ ｶﾀｶﾅ ﾃｽﾄ '.repeat(200)];

test('the analyzer resumed at any checkpoint gives the whole text’s tokens from there', () => {
  for (const analyzer of [stem, plain])
    for (const text of TEXTS) {
      const whole = analyzer.tokens(text);
      const { count, tokens, chars } = readCheckpoints(textCheckpoints(analyzer, text))!;
      assert.is(count, whole.length);
      assert.ok(tokens.length > whole.length / (3 * CHECKPOINT_EVERY), `${tokens.length} checkpoints for ${whole.length} tokens`);
      for (let k = 0; k < tokens.length; k++) {
        if (k) assert.ok(tokens[k]! - tokens[k - 1]! >= CHECKPOINT_EVERY);
        const tail = analyzer.tokens(text.slice(chars[k]!)).map((t) => [t.term, t.start + chars[k]!, t.end + chars[k]!]);
        assert.equal(tail, whole.slice(tokens[k]).map((t) => [t.term, t.start, t.end]), `checkpoint ${k} of ${text.slice(0, 20)}`);
        const from = new ScannedOffsets(analyzer, { ...readCheckpoints(textCheckpoints(analyzer, text))!, text });
        const to = Math.min(count, tokens[k]! + 2 * CHECKPOINT_EVERY);
        from.fill(tokens[k]!, to);
        const found = Array.from({ length: to - tokens[k]! }, (_, j) => [from.starts[tokens[k]! + j], from.ends[tokens[k]! + j]]);
        assert.equal(found, whole.slice(tokens[k], to).map((t) => [t.start, t.end]), `spans from checkpoint ${k} of ${text.slice(0, 20)}`);
      }
      const all = scanned(analyzer, text);
      all.fill(0, all.count);
      assert.equal([...all.starts], whole.map((t) => t.start));
      assert.equal([...all.ends], whole.map((t) => t.end));
    }
});

const MORE_CASES: [name: string, p: Page, query: string, opts: SummaryOptions][] = [
  ['hits far apart in code', { text: code }, 'readfilesync dunder', { context: 3, length: 30 }],
  ['hits among other scripts', { text: mixed }, 'москва hostname', { context: 4, length: 30 }],
  ['hits in every sentence', { text: Array.from({ length: 200 }, (_, i) => `vacuum ${filler(i % 9, i)}.`).join(' ') }, 'vacuum', { context: 5, length: 30 }],
  ['more hits than the summarizer reads', { text: Array.from({ length: 1500 }, (_, i) => `vacuum ${filler(8, i)} journal ${filler(8, i + 1)}`).join(' ') }, 'vacuum journal', { context: 5, length: 30 }],
  ['furniture longer than a chunk of the head', { text: `${filler(200)} start here ${filler(100)}`, furniture: [[0, filler(200).length]] }, 'zebra', { context: 5, length: 30 }],
];

for (const analyzer of [stem, plain])
  for (const [name, p, query, opts] of [...SUMMARY_CASES, ...MORE_CASES])
    test(`${name}: from checkpoints as from the whole text (${analyzer.options.stemEnglish ? 'stemming' : 'no stemming'})`, () => {
      const terms = analyzer.terms(query);
      const accept = typedWords(analyzer, query);
      const furniture = p.furniture ?? [];
      const whole = summarize(p.text, analyzer.tokens(p.text), new Set(terms), opts, { furniture, accept, sections: p.sections ?? [] });
      const hits = hitsOf(analyzer, p.text, terms);
      const offsets = scanned(analyzer, p.text);
      assert.ok(readHitParts(offsets, hits, opts.context, offsets.count));
      const marked = markedHits(analyzer, new WholeText(p.text), offsets, hits, accept)!;
      const parts = offsetWords(offsets, hits, opts, furniture, offsets.count, marked);
      assert.not.ok(offsets.broken);
      const sections = [...(p.sections ?? []), ...parts.cuts].sort((a, b) => a - b);
      assert.equal(summarizeRanges(p.text, parts.words, opts, { furniture, sections, more: parts.more }), whole);
    });

test('only the words around the hits, the head and the words after the last part are found, each part from one checkpoint before it at most', () => {
  const text = long(['vacuum', 'journal'], 2000);
  const offsets = scanned(stem, text);
  const hits = hitsOf(stem, text, ['vacuum']);
  assert.ok(readHitParts(offsets, hits, 5, offsets.count));
  offsetWords(offsets, hits, { context: 5, length: 30 }, []);
  // A token found has its end set: every token ends past the text's start.
  const found = offsets.ends.filter((e) => e > 0).length;
  assert.ok(found < 2 * 31 + 12 + CHECKPOINT_EVERY, `${found} tokens of ${offsets.count} found`);
});

test('parts far enough apart for a checkpoint to lie between them are read from it, not through the words between', () => {
  // Plain words, a token each after a space: a checkpoint every CHECKPOINT_EVERY tokens.
  const text = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
  const offsets = scanned(plain, text);
  const second = CHECKPOINT_EVERY + 18;
  assert.ok(readHitParts(offsets, { at: [10, second], terms: ['word10', `word${second}`] }, 5, offsets.count));
  const found = (i: number) => offsets.ends[i]! > 0 && text.slice(offsets.starts[i], offsets.ends[i]) === `word${i}`;
  // The first part (5..16) and the second from its checkpoint (CHECKPOINT_EVERY..second + 6) are found; the words between and after are not.
  for (let i = 0; i <= 16; i++) assert.ok(found(i), `token ${i}`);
  for (let i = CHECKPOINT_EVERY; i < second + 7; i++) assert.ok(found(i), `token ${i}`);
  for (const i of [17, CHECKPOINT_EVERY - 1, second + 7, 199]) assert.is(offsets.ends[i], 0, `token ${i}`);
});

test('a text that is not the one indexed is told: other words at the hits, or fewer tokens', () => {
  const text = long(['vacuum', 'journal'], 300);
  const hits = hitsOf(stem, text, ['vacuum', 'journal']);
  const accept = typedWords(stem, 'vacuum journal');
  const record = readCheckpoints(textCheckpoints(stem, text))!;
  const shifted = `w1 w2 ${text}`;
  const moved = new ScannedOffsets(stem, { ...record, text: shifted });
  assert.ok(readHitParts(moved, hits, 5, record.count));
  assert.is(markedHits(stem, new WholeText(shifted), moved, hits, accept), undefined, 'the words at the hits are not theirs');
  const cut = new ScannedOffsets(stem, { ...record, text: text.slice(0, text.length / 2) });
  assert.not.ok(readHitParts(cut, hits, 5, record.count));
  assert.ok(cut.broken);
  const same = new ScannedOffsets(stem, { ...record, text });
  assert.ok(readHitParts(same, hits, 5, record.count));
  assert.ok(markedHits(stem, new WholeText(text), same, hits, accept));
});

test('a record: the tokens covered and a few bytes a checkpoint; a long text’s covered part only; damaged records refused', () => {
  const text = filler(20_000);
  const data = textCheckpoints(stem, text);
  const { count, tokens } = readCheckpoints(data)!;
  assert.ok(count < 20_000 && stem.tokens(text)[count - 1]!.end <= SUMMARY_TEXT_CHARS && stem.tokens(text)[count]!.end > SUMMARY_TEXT_CHARS);
  assert.ok(data.length < 4 * tokens.length + 8, `${data.length} bytes for ${tokens.length} checkpoints`);
  assert.is(readCheckpoints(data.subarray(0, data.length - 1)), undefined, 'a varint cut');
  assert.is(readCheckpoints(Buffer.from([3, 1, 5, 10])), undefined, 'a checkpoint past the tokens covered');
  assert.is(readCheckpoints(Buffer.from([40, 1, 0, 10])), undefined, 'a step of no token');
  assert.is(readCheckpoints(Buffer.from([40, 0, 10, 2, 0, 3])), undefined, 'two exceptions at one span');
  const none = { exceptions: new Uint32Array(0), exceptionTokens: new Uint32Array(0) };
  assert.equal(readCheckpoints(Buffer.from([0, 0])), { count: 0, tokens: Uint32Array.of(0), chars: Uint32Array.of(0), ...none });
  const identifiers = textCheckpoints(plain, 'fs.readFileSync(a) plain words x'.repeat(3));
  const parts = plain.tokens('fs.readFileSync').length;
  assert.ok(parts > 2);
  assert.equal([...readCheckpoints(identifiers)!.exceptionTokens], [parts, parts, parts], 'each identifier: its whole and its parts, tokens of one span');
});

test.run();
