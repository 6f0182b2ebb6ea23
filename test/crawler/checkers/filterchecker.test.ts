/** filterchecker: accept/reject per URL, the rejecting filter and rule, each filter alone or the combined chain. */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hz, hzBin, tempConf } from './run-cli.js';

const RULES = ['# test rules', '-\\.gif$', '-^http://127\\.0\\.9\\.2/', '', '+^https?://'].join('\n');
const conf = tempConf({ 'regex-urlfilter.txt': RULES });
const rules = path.join(conf.dir, 'regex-urlfilter.txt');
// A user plugin that rewrites URLs, to tell the combined chain from filters judging alone.
fs.mkdirSync(path.join(conf.dir, 'rewriting'));
fs.writeFileSync(
  path.join(conf.dir, 'rewriting', 'lower.mjs'),
  "export default { id: 'urlfilter-lower', point: 'url-filter', description: 'lower-cases URLs', create: () => ({ filter: (u) => u.toLowerCase() }) };\n",
);
test.after(conf.cleanup);

const run = (args: string[], stdin?: string) => hz(args, { confDir: conf.dir, stdin });
const HOSTS = ['-D', 'urlfilter.host.allow=127.0.9.1,127.0.9.2'];

test('each URL: +accepted, or -rejected with the filter and the file:line of the deciding rule', async () => {
  const table: [url: string, line: string][] = [
    ['http://127.0.9.1/index.html', '+http://127.0.9.1/index.html'],
    ['http://127.0.9.1/logo.gif', `-http://127.0.9.1/logo.gif\trejected by urlfilter-regex (rule ${rules}:2)`],
    ['http://127.0.9.2/page', `-http://127.0.9.2/page\trejected by urlfilter-regex (rule ${rules}:3)`],
    ['ftp://127.0.9.1/file', '-ftp://127.0.9.1/file\trejected by urlfilter-regex (no rule matched)'],
    ['http://127.0.9.3/page', '-http://127.0.9.3/page\trejected by urlfilter-host'],
    // Judged alone, every filter that rejects is named.
    ['http://127.0.9.3/a.gif', `-http://127.0.9.3/a.gif\trejected by urlfilter-regex (rule ${rules}:2), urlfilter-host`],
  ];
  const r = await run(['filterchecker', ...HOSTS, ...table.map((t) => t[0])]);
  assert.is(r.code, 0, r.err);
  assert.equal(r.out.split('\n'), [...table.map((t) => t[1]), '']);
});

test('-allCombined runs the chain in urlfilter.order: the first rejection ends it', async () => {
  const url = 'http://127.0.9.3/a.gif';
  const regexFirst = await run(['filterchecker', '-allCombined', ...HOSTS, url]);
  assert.is(regexFirst.out, `-${url}\trejected by urlfilter-regex (rule ${rules}:2)\n`);
  const hostFirst = await run(['filterchecker', '-allCombined', ...HOSTS, '-D', 'urlfilter.order=urlfilter-host urlfilter-regex', url]);
  assert.is(hostFirst.out, `-${url}\trejected by urlfilter-host\n`);
});

test('a rewriting filter: the chain passes its result on, filters alone each see the original', async () => {
  const plugin = ['-D', 'plugin.folders=rewriting', '-D', 'urlfilter.order=urlfilter-lower urlfilter-regex'];
  // Upper-case .GIF escapes the rule alone; lower-cased first by the chain, the rule rejects it.
  const url = 'http://127.0.9.1/LOGO.GIF';
  const alone = await run(['filterchecker', ...plugin, url, 'http://127.0.9.1/Page']);
  assert.is(alone.out, `+${url}\n+http://127.0.9.1/Page\n`);
  const chain = await run(['filterchecker', '-allCombined', ...plugin, url, 'http://127.0.9.1/Page']);
  assert.is(chain.out, `-${url}\trejected by urlfilter-regex (rule ${rules}:2)\n+http://127.0.9.1/Page\t-> http://127.0.9.1/page\n`);
});

test('with no URL arguments, one URL per line from stdin; blank lines and # comments skipped', async () => {
  const r = await run(['filterchecker', '-allCombined'], '# from a file\nhttp://127.0.9.1/a\n\n  http://127.0.9.1/b.gif  \r\n');
  assert.is(r.code, 0, r.err);
  assert.is(r.out, `+http://127.0.9.1/a\n-http://127.0.9.1/b.gif\trejected by urlfilter-regex (rule ${rules}:2)\n`);
  const bin = hzBin(['filterchecker'], { confDir: conf.dir, stdin: 'http://127.0.9.1/x.gif\nhttp://127.0.9.1/y\n' });
  assert.is(bin.code, 0, bin.err);
  assert.is(bin.out, `-http://127.0.9.1/x.gif\trejected by urlfilter-regex (rule ${rules}:2)\n+http://127.0.9.1/y\n`);
});

test('usage errors exit 2; a broken rule file exits 1 naming file and line; no active filter is said', async () => {
  const noInput = await run(['filterchecker']);
  assert.is(noInput.code, 2);
  assert.match(noInput.err, /^hazelnut filterchecker: missing arguments\nUsage: hazelnut filterchecker/);
  const bogus = await run(['filterchecker', '-allcombined', 'http://127.0.9.1/']);
  assert.is(bogus.code, 2);
  assert.match(bogus.err, /unknown option -allcombined/);
  const bad = tempConf({ 'regex-urlfilter.txt': '+^http://\n*oops\n' });
  try {
    const r = await hz(['filterchecker', 'http://127.0.9.1/'], { confDir: bad.dir });
    assert.is(r.code, 1);
    assert.is(r.out, '');
    assert.ok(r.err.includes(`${path.join(bad.dir, 'regex-urlfilter.txt')}:2: a rule must start with + or -`), r.err);
  } finally {
    bad.cleanup();
  }
  const none = await run(['filterchecker', '-D', 'plugin.includes=urlnormalizer-basic', 'http://127.0.9.1/a.gif']);
  assert.equal([none.code, none.out], [0, '+http://127.0.9.1/a.gif\n']);
  assert.match(none.err, /no URL filter is active/);
});

test.run();
