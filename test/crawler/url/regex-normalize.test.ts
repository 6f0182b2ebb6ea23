import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf, PACKAGE_CONF_DIR } from '../../../shared/conf.js';
import { HzError } from '../../../shared/errors.js';
import { javaRegex, javaReplacement } from '../../../crawler/url/java-regex.js';
import { applyNormalizeRules, parseNormalizeRules, readNormalizeRules, RegexURLNormalizer, urlnormalizerRegex } from '../../../crawler/url/regex-normalize.js';

test('javaRegex: inline flags become JS flags or both-case letters', () => {
  // [java pattern, input, should match]
  const table: [string, string, boolean][] = [
    ['(?i)abc', 'xABCx', true],
    ['a(?i)bc', 'aBC', true],
    ['a(?i)bc', 'ABC', false],
    ['((?i)x)y', 'Xy', true],
    ['((?i)x)y', 'XY', false], // the flag ends with its group
    ['((?i)l|j|bv_)sid', 'BV_sid', true],
    ['((?i)l|j|bv_)sid', 'jSID', false],
    ['(?i:ab)c', 'ABc', true],
    ['(?i:ab)c', 'ABC', false],
    ['x(?i)[a-c]+', 'xAbC', true],
    ['x(?i)[a-c]+', 'XAbC', false],
    ['(?i)a(?-i)b', 'Ab', true],
    ['(?i)a(?-i)b', 'AB', false],
    ['\\Qa.b\\E', 'a.b', true],
    ['\\Qa.b\\E', 'axb', false],
    ['\\Aab\\z', 'ab', true],
    ['a{2}(?i)b{2}', 'aaBb', true],
    ['(?<n>x)\\k<n>', 'xx', true],
  ];
  for (const [src, input, ok] of table) assert.is(javaRegex(src).test(input), ok, `${src} on ${input}`);
});

test('javaReplacement: groups, escapes, missing groups', () => {
  const re = /(a)(b)?/;
  const table: [string, string, string][] = [
    ['$1-$2', 'ab', 'a-b'],
    ['$1-$2', 'a', 'a-'],
    ['\\$1', 'ab', '$1'],
    ['\\?', 'ab', '?'],
    ['x$0y', 'ab', 'xaby'],
  ];
  for (const [repl, input, out] of table) assert.is(input.replace(re, javaReplacement(repl, re)), out, repl);
  assert.throws(() => javaReplacement('$3', re), /group 3/);
  assert.throws(() => javaReplacement('a$b', re), /\$/);
});

test("Nutch's default regex-normalize.xml", () => {
  const rules = readNormalizeRules(path.join(PACKAGE_CONF_DIR, 'regex-normalize.xml'));
  assert.is(rules.length, 5);
  const table: [string, string | null][] = [
    ['http://x.com/a;jsessionid=0123ABC?q=1', 'http://x.com/a?q=1'],
    ['http://x.com/a;JSESSIONID=0123ABC', 'http://x.com/a'],
    ['http://x.com/p?PHPSESSID=abc&x=1', 'http://x.com/p?x=1'],
    ['http://x.com/p?x=1&sid=9&y=2', 'http://x.com/p?x=1&y=2'],
    ['http://x.com/p?a=1&BV_SessionID=7', 'http://x.com/p?a=1'],
    ['http://x.com/p?consider=1', 'http://x.com/p?consider=1'],
    ['http://x.com/a#frag', 'http://x.com/a'],
    ['http://x.com/a?&b=1', 'http://x.com/a?b=1'],
    ['http://x.com/a?b=1&&&c=2', 'http://x.com/a?b=1&c=2'],
    ['http://x.com/a?', 'http://x.com/a'],
    ['http://x.com/a.', 'http://x.com/a'],
    ['http://x.com/index.html', 'http://x.com/index.html'],
  ];
  for (const [input, out] of table) assert.is(applyNormalizeRules(rules, input), out, input);
});

test('shipped regex-normalize.xml: every rule runs in bounded time', () => {
  for (const r of readNormalizeRules(path.join(PACKAGE_CONF_DIR, 'regex-normalize.xml'))) assert.not.ok(r.apply.timed, `${r.where} needs the timed path`);
});

test('a catastrophic rule that the linear engine can run stays fast on a hostile URL', () => {
  // Backtracking alone takes 2^27 steps per start here (tens of seconds).
  const rules = parseNormalizeRules('<regex-normalize><regex><pattern>/(a+)+$</pattern><substitution>/</substitution></regex></regex-normalize>', 'evil.xml');
  assert.not.ok(rules[0]!.apply.timed);
  assert.is(applyNormalizeRules(rules, `http://x/${'a'.repeat(27)}!`), `http://x/${'a'.repeat(27)}!`);
  assert.is(applyNormalizeRules(rules, `http://x/${'a'.repeat(27)}`), 'http://x/');
});

test('a back-reference rule runs on urlnormalizer.regex.timeout: it drops the URL, names its file:line once, then drops longer URLs untried', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-rn-'));
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  process.on('warning', onWarning);
  try {
    // Nutch 1.x's loop rule as a rewrite: a segment pair repeated three times becomes one.
    fs.writeFileSync(
      path.join(dir, 'loops.xml'),
      '<regex-normalize>\n<!-- loops -->\n<regex><pattern>(.*)(/[^/]+)/[^/]+\\2/[^/]+\\2/</pattern><substitution>$1$2/</substitution></regex>\n</regex-normalize>\n',
    );
    const conf = Conf.load({ confDir: dir, overrides: { 'urlnormalizer.regex.file': 'loops.xml', 'urlnormalizer.regex.timeout': '200' } });
    const n = urlnormalizerRegex.create(conf) as RegexURLNormalizer;
    const [rule] = n.rules('outlink');
    assert.ok(rule!.apply.timed);
    assert.is(n.normalize('http://x/a/b/a/c/a/d', 'outlink'), 'http://x/a/d', 'the rule still works');
    assert.is(n.normalize('http://x/a/b/c/', 'outlink'), 'http://x/a/b/c/');
    // The rule backtracks quadratically: 20,000 characters took 184 ms on this machine on a quick day, under the
    // 200 ms budget; 60,000 take about eight times the budget, so the URL runs out of time however fast the machine.
    const long = `http://x/${'x'.repeat(60_000)}`;
    assert.is(n.normalize(long, 'outlink'), null, 'out of time: dropped');
    assert.is(rule!.slowAt, long.length);
    let tries = 0;
    const run = rule!.apply;
    rule!.apply = Object.assign((s: string) => (tries++, run(s)), { timed: true });
    assert.is(n.normalize(long + 'yy', 'outlink'), null);
    assert.is(tries, 0, 'a longer URL is not tried again (a try would take the whole budget)');
    assert.is(n.normalize('http://x/short/', 'outlink'), 'http://x/short/', 'short URLs still run the rule');
    assert.is(tries, 1);
    await new Promise((r) => setImmediate(r));
    const slow = warnings.filter((w) => (w as NodeJS.ErrnoException).code === 'HZ_SLOW_URL_RULE');
    assert.is(slow.length, 1);
    assert.match(slow[0]!.message, /loops\.xml:3: rule ran out of its 200 ms \(urlnormalizer\.regex\.timeout\) on a 60009-character URL; URLs of 60009 characters or more are dropped/);
  } finally {
    process.off('warning', onWarning);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('rules apply in order as replace-all', () => {
  const xml = `<regex-normalize>
<regex><pattern>a</pattern><substitution>b</substitution></regex>
<regex><pattern>b+</pattern><substitution>c</substitution></regex>
</regex-normalize>`;
  assert.is(applyNormalizeRules(parseNormalizeRules(xml, 'r.xml'), 'http://h/abab'), 'http://h/c');
  const empty = `<regex-normalize><regex><pattern>.*</pattern><substitution></substitution></regex></regex-normalize>`;
  assert.is(applyNormalizeRules(parseNormalizeRules(empty, 'e.xml'), 'http://h/'), null);
});

test('bad rule files name file and line', () => {
  const table: [string, RegExp][] = [
    ['<regex-normalize>\n<regex>\n<pattern>(</pattern></regex></regex-normalize>', /^n\.xml:2: invalid rule/],
    ['<regex-normalize>\n<regex><pattern>a</pattern></regex>\n<regex><substitution>x</substitution></regex></regex-normalize>', /^n\.xml:3: <regex> without a <pattern>/],
    ['<regex-normalize>\n<regex><pattern>a</pattern>\n</regex-normalize>', /^n\.xml:3: /],
    ['<rules/>', /^n\.xml:1: root element must be <regex-normalize>/],
    ['<regex-normalize><regex><pattern>(a)</pattern><substitution>$2</substitution></regex></regex-normalize>', /n\.xml:1: .*group 2/],
  ];
  for (const [xml, re] of table) {
    try {
      parseNormalizeRules(xml, 'n.xml');
      assert.unreachable(xml);
    } catch (e) {
      assert.instance(e, HzError);
      assert.match((e as Error).message, re);
    }
  }
});

test('per-scope rule files: urlnormalizer.regex.file.<scope>, others fall back to the default file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-rn-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'outlink.xml'),
      '<regex-normalize><regex><pattern>(?i)/PRINT/</pattern><substitution>/</substitution></regex></regex-normalize>',
    );
    const conf = Conf.load({ confDir: dir, overrides: { 'urlnormalizer.regex.file.outlink': 'outlink.xml' } });
    const n = urlnormalizerRegex.create(conf)!;
    // [scope, input, output]
    const table: [Parameters<typeof n.normalize>[1], string, string][] = [
      ['outlink', 'http://h/print/a?', 'http://h/a?'],
      ['inject', 'http://h/print/a?', 'http://h/print/a'],
      ['default', 'http://h/a;jsessionid=1', 'http://h/a'],
    ];
    for (const [scope, input, out] of table) assert.is(n.normalize(input, scope), out, scope);
    const broken = Conf.load({ confDir: dir, overrides: { 'urlnormalizer.regex.file': 'missing.xml' } });
    assert.throws(() => urlnormalizerRegex.create(broken), /configuration file .*missing\.xml does not exist/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
