import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Headings, headingText, repeatsTitle } from '../../../crawler/parse/html-headings.js';
import { TextPiece, TextSink } from '../../../crawler/parse/html-text.js';

test('headingText drops trailing permalink marks; repeatsTitle compares without case, either a start of the other', () => {
  const texts: [string[], string][] = [
    [['File ', 'system', '#'], 'File system'],
    [[' Syntax ¶'], 'Syntax'],
    [['C# ', 'basics'], 'C# basics'],
  ];
  for (const [parts, want] of texts) assert.is(headingText(parts), want, parts.join('|'));
  const titles: [string, string, boolean][] = [
    ['Install', 'Install', true],
    ['install', 'Install — Docs', true],
    ['Install — Docs', 'Install', true],
    ['Usage', 'Install', false],
    ['', 'Install', false],
  ];
  for (const [h, t, want] of titles) assert.is(repeatsTitle(h, t), want, `${h} / ${t}`);
});

test('Headings: ids from the heading, an enclosing section or an anchor just before; a dt without one is no section', () => {
  const text = new TextSink();
  const content = new TextSink();
  const h = new Headings(text, content);
  const piece = new TextPiece();
  const say = (t: string) => {
    piece.set(t);
    text.push(piece, false, false);
    content.push(piece, false, false);
    h.addText(t, piece.visible);
  };
  const block = (name: string, a: Record<string, string>, depth: number, body: string) => {
    h.open(name, a, depth, false);
    say(body);
    h.close(depth);
    text.boundary();
    content.boundary();
  };
  h.open('section', { id: 'sec' }, 1, false);
  block('h2', {}, 2, 'In a section');
  h.close(1);
  h.open('a', { name: 'anchored' }, 1, false);
  h.close(1);
  block('h3', {}, 1, 'After an anchor');
  block('dt', {}, 1, 'no id');
  block('dt', { id: 'opt' }, 1, '--opt');
  h.open('h2', {}, 1, true);
  say('In a sidebar');
  h.close(1);
  const out = h.finishText('Title', false);
  assert.equal(out.sections, [
    { heading: 'In a section', level: 2, offset: 0, id: 'sec' },
    { heading: 'After an anchor', level: 3, offset: 13, id: 'anchored' },
    { heading: '--opt', level: 7, offset: 35, id: 'opt' },
  ]);
  assert.is(out.text, 'In a section After an anchor no id --opt In a sidebar');
});

test.run();
