import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TextPiece, TextSink } from '../../../crawler/parse/html-text.js';
import { rng } from '../../fixtures/rng.js';

/** What a piece must be: the text with `/\s+/` runs as one space, and whether it has anything else. */
const expected = (t: string) => ({ text: t.replace(/\s+/g, ' '), visible: /\S/.test(t) });
const pieceOf = (t: string) => {
  const p = new TextPiece();
  p.set(t);
  return { text: p.text, visible: p.visible };
};

test('TextPiece: every UTF-16 code unit is whitespace exactly when /\\s/ says so, in short pieces and long', () => {
  const long = 'x'.repeat(100);
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    for (const t of [`a${ch}b`, ch, `${ch} `, `${long}${ch}y`, `${long} ${ch}`])
      assert.equal(pieceOf(t), expected(t), `U+${c.toString(16).padStart(4, '0')} in ${t.length} characters`);
  }
});

test('TextPiece: squeezed as /\\s+/g → " " would, on hand-picked and random pieces', () => {
  const cases = ['', ' ', '  ', 'a', ' a ', 'a  b', 'a\nb', 'a \n b', '\u00a0', 'x\u00a0\u00a0y', '\u3000a\ufeff', 'one two three', 'tab\tend', 'a \u200b b'];
  for (const t of cases) assert.equal(pieceOf(t), expected(t), JSON.stringify(t));
  const alphabet = ['a', 'é', ' ', ' ', '\n', '\t', '\r', '\u00a0', '\u2003', '\u200b', '\u0000', '😀', '\u2028', '.'];
  const rnd = rng(10);
  for (let n = 0; n < 2000; n++) {
    let t = '';
    for (let k = Math.floor(rnd() * (n % 2 ? 12 : 120)); k > 0; k--) t += alphabet[Math.floor(rnd() * alphabet.length)];
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

test('TextSink: a run is furniture from 80 % of link text, counted in characters that are not spaces', () => {
  // [link text, other text, furniture]
  const table: [string, string, boolean][] = [
    ['abcd efgh', 'x y', true], // 8 of 10
    ['abcd efgh', 'x y z', false], // 8 of 11
    ['a', 'b', false],
    ['ab cd', '', true],
    ['', 'plain prose', false],
    ['link', 'a long paragraph of prose around one link, '.repeat(50), false],
  ];
  for (const [link, other, furniture] of table) {
    const sink = new TextSink();
    const piece = new TextPiece();
    sink.boundary();
    piece.set(other);
    sink.push(piece, false, false);
    piece.set(link);
    sink.push(piece, true, false);
    sink.boundary();
    const built = sink.build([]);
    assert.is(built.furniture.length === 1 && built.furniture[0]![1] === built.text.length, furniture, `${link} / ${other.slice(0, 20)}`);
  }
});

test.run();
