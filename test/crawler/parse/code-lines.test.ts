/** Code keeps its line breaks in the parse text, each one character where a space stood, so no offset moves; other text is squeezed as ever. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractHtml } from '../../../crawler/parse/html.js';
import { LINE_BREAK } from '../../../segments/records.js';

const shown = (html: string) => extractHtml(html).text.split(LINE_BREAK).join('⏎');

const CASES: [name: string, html: string, text: string][] = [
  ['prose line breaks are spaces', '<p>one\ntwo\n\n  three</p>', 'one two three'],
  ['code lines kept, indentation and blank lines squeezed', '<p>Before</p><pre>a = 1\n    b = 2\n\nc = 3\n</pre><p>After</p>', 'Before⏎a = 1⏎b = 2⏎c = 3⏎After'],
  ['highlighted code: breaks between spans', '<div class="highlight"><pre><span></span><span class="k">def</span> <span class="nf">f</span>():\n    <span class="k">pass</span>\n</pre></div>', 'def f():⏎pass'],
  ['a code block starts and ends a line', '<p>Run <code>it</code>:</p><pre>make all</pre><p>Done.</p>', 'Run it:⏎make all⏎Done.'],
  ['a break after the pre ends', '<pre>x\ny</pre>\n<p>one\ntwo</p>', 'x⏎y⏎one two'],
  ['CRLF in code', '<pre>x\r\ny</pre>', 'x⏎y'],
];

for (const [name, html, text] of CASES)
  test(name, () => {
    assert.is(shown(html), text);
  });

test('sections and furniture stand where they stood: the text is the squeezed text with spaces for the breaks', () => {
  const code = '<html><head><title>T</title></head><body><h2 id="a">Install</h2><pre>npm i\nnpm test\n</pre><ul class="menu"><li><a href="/x">X</a></li></ul><h2 id="b">Use</h2><p>Run it.</p></body></html>';
  const withPre = extractHtml(code);
  const withDiv = extractHtml(code.replace(/<(\/?)pre>/g, '<$1div>'));
  assert.is(withPre.text.split(LINE_BREAK).join(' '), withDiv.text);
  assert.equal(withPre.sections, withDiv.sections);
  assert.equal(withPre.furniture, withDiv.furniture);
  for (const s of withPre.sections) assert.ok(withPre.text.startsWith(s.heading, s.offset), s.heading);
});

test.run();
