import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_CONF_DIR } from '../../../shared/conf.js';
import { HzError } from '../../../shared/errors.js';
import { parseFilterRules, RegexURLFilter } from '../../../crawler/url/regex-filter.js';

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
    ['http://x/a/b/c/', true],
  ];
  for (const [url, ok] of table) assert.is(f.filter(url) !== null, ok, url);
  assert.ok(fs.readFileSync(path.join(PACKAGE_CONF_DIR, 'regex-urlfilter.txt'), 'utf8').includes('-.'), 'documents how to restrict');
});

test('shipped regex-urlfilter.txt: every rule runs in bounded time', () => {
  const rules = RegexURLFilter.fromFile(path.join(PACKAGE_CONF_DIR, 'regex-urlfilter.txt')).rules;
  assert.ok(rules.length >= 4);
  for (const r of rules) assert.not.ok(r.test.timed, `${r.where} needs the timed path`);
});

test('a catastrophic rule that the linear engine can run stays fast on a hostile URL', () => {
  // Backtracking alone takes 2^27 steps here (tens of seconds).
  const f = new RegexURLFilter(parseFilterRules('-(a+)+$\n+.\n', 'evil.txt'));
  assert.not.ok(f.rules[0]!.test.timed);
  const started = Date.now();
  assert.is(f.filter(`http://x/${'a'.repeat(27)}!`), `http://x/${'a'.repeat(27)}!`);
  assert.is(f.filter(`http://x/${'a'.repeat(27)}`), null);
  assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
});

test('a back-reference rule runs on a budget: it rejects, names its file:line once, then skips longer URLs', async () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  process.on('warning', onWarning);
  try {
    const f = new RegexURLFilter(parseFilterRules('# Nutch 1.x loop rule\n-.*(/[^/]+)/[^/]+\\1/[^/]+\\1/\n+.\n', 'loops.txt', 200));
    assert.ok(f.rules[0]!.test.timed);
    assert.is(f.filter('http://x/a/b/a/c/a/d/'), null, 'the rule still works');
    assert.is(f.filter('http://x/a/b/c/'), 'http://x/a/b/c/');
    // The rule backtracks quadratically: 20,000 characters took 184 ms on this machine on a quick day, under the
    // 200 ms budget; 60,000 take about eight times the budget, so the URL runs out of time however fast the machine.
    const long = `http://x/${'x'.repeat(60_000)}`;
    let t = Date.now();
    assert.is(f.filter(long), null, 'out of time: rejected');
    assert.ok(Date.now() - t < 1000, `took ${Date.now() - t} ms`);
    t = Date.now();
    assert.is(f.filter(long + 'yy'), null);
    assert.ok(Date.now() - t < 100, 'a longer URL is not tried again (a try would take the whole 200 ms budget)');
    assert.is(f.filter('http://x/short/'), 'http://x/short/', 'short URLs still run the rule');
    await new Promise((r) => setImmediate(r));
    const slow = warnings.filter((w) => (w as NodeJS.ErrnoException).code === 'HZ_SLOW_URL_RULE');
    assert.is(slow.length, 1);
    assert.match(slow[0]!.message, /^loops\.txt:2: rule ran out of its 200 ms/);
  } finally {
    process.off('warning', onWarning);
  }
});

test.run();
