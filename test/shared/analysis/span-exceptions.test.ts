import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer, MAX_TERM_LENGTH } from '../../../shared/analysis/analyzer.js';
import { NumberedTokens } from '../../../shared/analysis/term-numbers.js';
import { tokenSpans } from '../../../shared/analysis/token-spans.js';
import { CHECKPOINT_EVERY, encodeCheckpoints } from '../../../segments/checkpoints.js';
import { VarintWriter } from '../../../segments/varints.js';

const analyzers = { plain: new Analyzer(), full: new Analyzer({ stemEnglish: true, decompound: true }) };

/** The spans of other than one token as [start, tokens, tokens before], found by scanning the text's spans again against its tokens. */
function scannedAgain(analyzer: Analyzer, text: string): [number, number, number][] {
  const starts = analyzer.tokens(text).map((t) => t.start);
  const out: [number, number, number][] = [];
  let j = 0;
  tokenSpans(text, (start, end) => {
    const before = j;
    while (j < starts.length && starts[j]! < end) j++;
    if (j - before !== 1) out.push([start, j - before, before]);
    return true;
  });
  return out;
}

const CASES: [string, string][] = [
  ['plain words: none', 'the crawler fetches pages'],
  ['camelCase and identifiers: several', 'call fs.readFile or XMLHttpRequest with max_tokens=10'],
  ['a compound: several with decompound', 'the hostname and the readline prompt'],
  ['a run too long for a term: none', `before ${'x'.repeat(MAX_TERM_LENGTH + 1)} after`],
  ['a possessive alone: none', "the ’s and 's words"],
  ['Han and kana runs: their words', '東京都に住んでいます and 我们是中国人，北京欢迎你'],
  ['half-width kana composed', 'ｶﾞｲﾄﾞ ガイド'],
  ['punctuation only between', '--- ... ,,, ___ words'],
  ['exceptions first and last', 'readFile middle words fs.writeFile'],
  ['empty', ''],
];

for (const [name, text] of CASES)
  for (const [which, analyzer] of Object.entries(analyzers))
    test(`spans of other than one token, recorded as the text is numbered: ${name} (${which})`, () => {
      const out = new NumberedTokens();
      analyzer.numberedTokens(text, undefined, out);
      const recorded = Array.from({ length: out.exceptions }, (_, x) => [out.exceptionStarts[x]!, out.exceptionTokens[x]!, out.exceptionBefore[x]!]);
      assert.equal(recorded, scannedAgain(analyzer, text));
      assert.is(out.count, analyzer.tokens(text).length);
    });

/** The checkpoints record as it was encoded by scanning the text's spans again: the reference the recorded spans must match. */
function encodedByScan(text: string, starts: ArrayLike<number>, n: number): Buffer {
  const marks: number[] = [];
  for (let i = CHECKPOINT_EVERY; i < n; ) {
    const at = starts[i]!;
    if (starts[i - 1] === at || !/[ \t\n\f\r\u2028]/.test(text[at - 1] ?? '')) i++;
    else (marks.push(i, at), (i += CHECKPOINT_EVERY));
  }
  const v = new VarintWriter();
  v.push(n);
  v.push(marks.length / 2);
  for (let k = 0; k < marks.length; k += 2) (v.push(marks[k]! - (k ? marks[k - 2]! : 0)), v.push(marks[k + 1]! - (k ? marks[k - 1]! : 0)));
  let j = 0;
  let last = 0;
  if (n > 0)
    tokenSpans(text, (start, end) => {
      let k = 0;
      while (j < n && starts[j]! < end) (j++, k++);
      if (k !== 1) (v.push(start - last), v.push(k), (last = start));
      return j < n;
    });
  return v.bytes();
}

test('checkpoints of a text cut at any token, a span of several tokens cut too, as a scan of its spans gives them', () => {
  const text = 'plain words then fs.readFile XMLHttpRequest ' + 'more words '.repeat(40) + `${'x'.repeat(70)} readline end ’s`;
  const out = new NumberedTokens();
  analyzers.full.numberedTokens(text, undefined, out);
  for (let n = 0; n <= out.count; n++) assert.equal([...encodeCheckpoints(text, out, n)], [...encodedByScan(text, out.starts, n)], `n = ${n}`);
});

test('a second text starts afresh', () => {
  const out = new NumberedTokens();
  analyzers.plain.numberedTokens('readFile writeFile', undefined, out);
  analyzers.plain.numberedTokens('plain words', undefined, out);
  assert.is(out.exceptions, 0);
});

test.run();
