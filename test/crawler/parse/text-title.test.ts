/** Text files titled by their first heading (Markdown) or first line: a table of texts and titles. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TextPageParser, textTitle } from '../../../crawler/parse/text.js';

const CASES: [name: string, text: string, markdown: boolean, title: string][] = [
  ['the first line of plain text', '\n\n  Meeting notes: the cafeteria opens at eight.\nSecond line.', false, 'Meeting notes: the cafeteria opens at eight.'],
  ['a plain text file keeps its first line over a later heading', 'Release notes\n\n# Not this\n', false, 'Release notes'],
  ['a leading # run is not part of the title', '## Travel policy\ntext', false, 'Travel policy'],
  ['an ATX heading in Markdown', 'Some intro line\n\n# Travel policy #\n\nTrains.', true, 'Travel policy'],
  ['a setext heading in Markdown', 'Remote work\n===========\n\nFridays.', true, 'Remote work'],
  ['an underlined second-level heading, after a paragraph', 'Intro text that is long.\n\nExpenses\n--------\n', true, 'Expenses'],
  ['front matter is skipped', '---\ntitle: ignored here\nlayout: page\n---\n\n# Onboarding\n', true, 'Onboarding'],
  ['Markdown without a heading: its first line', '\nJust some notes.\nMore.', true, 'Just some notes.'],
  ['an empty file has no title', ' \n\t\n', false, ''],
  ['a BOM is not part of the title', '\uFEFFHello', false, 'Hello'],
  ['a rule line alone is no heading', '---\n\nText after a rule', true, '---'],
  ['a long first line is cut at a word', `${'word '.repeat(40)}end`, false, `${'word '.repeat(19)}word…`],
];

for (const [name, text, markdown, title] of CASES) test(name, () => assert.is(textTitle(text, markdown), title));

test('the parser titles .md files by their heading, whatever type the server declares', () => {
  const p = new TextPageParser('utf-8');
  const parse = (url: string, contentType: string, body: string) =>
    p.parse({ url, contentType, charset: 'utf-8', bytes: Buffer.from(body), headers: {}, truncated: false }).title;
  assert.is(parse('file:///srv/share/guide.md', 'text/markdown', 'intro\n\n# Guide\n'), 'Guide');
  assert.is(parse('http://h.test/guide.md', 'text/plain', 'intro\n\n# Guide\n'), 'Guide');
  assert.is(parse('http://h.test/notes.txt', 'text/plain', 'intro\n\n# Guide\n'), 'intro');
});

test.run();
