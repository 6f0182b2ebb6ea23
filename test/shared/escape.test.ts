import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeHtml, escapeXml, safeHref } from '../../shared/escape.js';

test('escapeHtml: the five characters that end text or an attribute value, and nothing else', () => {
  const table: [string, string][] = [
    ['plain text, é ✓', 'plain text, é ✓'],
    ['a & b', 'a &amp; b'],
    ['<script>x</script>', '&lt;script&gt;x&lt;/script&gt;'],
    [`"double" 'single'`, '&quot;double&quot; &#39;single&#39;'],
    ['&amp;', '&amp;amp;'],
    ['', ''],
  ];
  for (const [s, want] of table) assert.is(escapeHtml(s), want, s);
});

test('escapeXml: escapes as HTML and drops what XML 1.0 forbids', () => {
  assert.is(escapeXml('a\u0000b\u0008c\td\ne<'), 'abc\td\ne&lt;');
  assert.is(escapeXml('\ud83d\ude00 \ufffe'), '\ud83d\ude00 ');
});

test('safeHref: http(s) and relative links pass, other schemes become inert', () => {
  const table: [string, string][] = [
    ['http://a.test/x', 'http://a.test/x'],
    ['HTTPS://a.test/', 'HTTPS://a.test/'],
    ['/cached?id=1', '/cached?id=1'],
    ['?q=x', '?q=x'],
    ['javascript:alert(1)', '#'],
    ['data:text/html,x', '#'],
    ['file:///etc/passwd', '#'],
  ];
  for (const [s, want] of table) assert.is(safeHref(s), want, s);
});

test.run();
