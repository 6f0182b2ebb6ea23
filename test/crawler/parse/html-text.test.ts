import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TextPiece, TextSink } from '../../../crawler/parse/html-text.js';
import { rng } from '../../fixtures/rng.js';

/** What a piece must be: the text with `/\s+/` runs as one space, and its count of other characters. */
const expected = (t: string) => ({ text: t.replace(/\s+/g, ' '), chars: t.replace(/\s/g, '').length });
const pieceOf = (t: string) => {
  const p = new TextPiece();
  p.set(t);
  return { text: p.text, chars: p.chars };
};

test('TextPiece: every UTF-16 code unit is whitespace exactly when /\\s/ says so', () => {
  for (let c = 0; c <= 0xffff; c++) {
    const t = `a${String.fromCharCode(c)}b`;
    assert.equal(pieceOf(t), expected(t), `U+${c.toString(16).padStart(4, '0')}`);
  }
});

test('TextPiece: squeezed as /\\s+/g → " " would, on hand-picked and random pieces', () => {
  const cases = ['', ' ', '  ', 'a', ' a ', 'a  b', 'a\nb', 'a \n b', '\u00a0', 'x\u00a0\u00a0y', '\u3000a\ufeff', 'one two three', 'tab\tend', 'a \u200b b'];
  for (const t of cases) assert.equal(pieceOf(t), expected(t), JSON.stringify(t));
  const alphabet = ['a', 'é', ' ', ' ', '\n', '\t', '\r', '\u00a0', '\u2003', '\u200b', '\u0000', '😀', '\u2028', '.'];
  const rnd = rng(10);
  for (let n = 0; n < 2000; n++) {
    let t = '';
    for (let k = Math.floor(rnd() * 12); k > 0; k--) t += alphabet[Math.floor(rnd() * alphabet.length)];
    assert.equal(pieceOf(t), expected(t), JSON.stringify(t));
  }
});

test('TextSink: pieces joined with block boundaries, offsets of marks, furniture by link density', () => {
  const sink = new TextSink();
  const piece = new TextPiece();
  const push = (t: string, link = false) => {
    piece.set(t);
    sink.push(piece, link, false);
  };
  push('  Intro\n text ');
  sink.boundary();
  const heading = sink.mark();
  push('Head');
  sink.boundary();
  push('Prev', true);
  push(' ');
  push('Next', true);
  sink.boundary();
  const built = sink.build([heading]);
  assert.equal(built.text, 'Intro text Head Prev Next');
  assert.equal(built.offsets, [11]);
  assert.equal(built.furniture, [[16, 25]]);
});

test.run();
