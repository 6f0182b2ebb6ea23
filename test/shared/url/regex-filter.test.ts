import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_CONF_DIR } from '../../../shared/conf.js';
import { HzError } from '../../../shared/errors.js';
import { parseFilterRules, RegexURLFilter } from '../../../shared/url/regex-filter.js';

const RULES = `# comment
 +this line starts with a space and is skipped

-\\.(gif|jpg)$
+^http://([a-z0-9]*\\.)*example\\.com/
-^http://
+(?i)^https://SECURE\\.
`;

test('first matching rule decides; no match rejects; substring search', () => {
  const f = new RegexURLFilter(parseFilterRules(RULES, 'r.txt'));
  const table: [string, boolean][] = [
    ['http://www.example.com/a.html', true],
    ['http://example.com/', true],
    ['http://www.example.com/logo.gif', false], // earlier - rule wins over the later +
    ['http://other.org/', false], // -^http://
    ['https://secure.example.net/', true], // (?i) leading flag
    ['https://Secure.example.net/', true],
    ['https://plain.example.net/', false], // no rule matches
    ['ftp://x.example.com/', false],
    ['http://evil.com/?r=http://www.example.com/', false], // anchored rule does not match mid-URL
  ];
  for (const [url, ok] of table) assert.is(f.filter(url), ok ? url : null, url);
});

test('skipped lines and trailing CR', () => {
  const rules = parseFilterRules('#x\r\n\r\n  \r\n+^http://a/\r\n', 'f');
  assert.is(rules.length, 1);
  assert.is(rules[0]!.where, 'f:4');
  assert.ok(rules[0]!.regex.test('http://a/x'));
});

test('errors name file and line', () => {
  const table: [string, RegExp][] = [
    ['+.\n*foo\n', /^bad\.txt:2: a rule must start with \+ or -/],
    ['# c\n-(unclosed\n', /^bad\.txt:2: invalid regular expression \(unclosed/],
    ['+a\n+b\n-x++y\n', /^bad\.txt:3: invalid regular expression/],
    ['+a\n+b\n+c\n+(?>atomic)\n', /^bad\.txt:4: invalid regular expression/],
  ];
  for (const [text, re] of table) {
    try {
      parseFilterRules(text, 'bad.txt');
      assert.unreachable(`accepted ${JSON.stringify(text)}`);
    } catch (e) {
      assert.instance(e, HzError);
      assert.match((e as Error).message, re);
    }
  }
});

test('shipped regex-urlfilter.txt: Nutch rules then accept the rest', () => {
  const f = RegexURLFilter.fromFile(path.join(PACKAGE_CONF_DIR, 'regex-urlfilter.txt'));
  const table: [string, boolean][] = [
    ['http://intranet/', true],
    ['https://docs.example.org/guide/intro.html', true],
    ['file:///etc/passwd', false],
    ['mailto:a@b', false],
    ['ftp://x/y', false],
    ['http://x/a.JPG', false],
    ['http://x/a.gz', false],
    ['http://x/page?id=1', false],
    ['http://x/a/b/a/c/a/d/', false],
    ['http://x/a/b/c/', true],
  ];
  for (const [url, ok] of table) assert.is(f.filter(url) !== null, ok, url);
  assert.ok(fs.readFileSync(path.join(PACKAGE_CONF_DIR, 'regex-urlfilter.txt'), 'utf8').includes('-.'), 'documents how to restrict');
});

test.run();
