/** normalizerchecker: the normalizer chain of a scope over URLs, loops included; which normalizer dropped a URL. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hz, tempConf } from './run-cli.js';

const rule = (pattern: string, substitution: string) => `<regex><pattern>${pattern}</pattern><substitution>${substitution}</substitution></regex>`;
const conf = tempConf({
  // Rule 2's output is rule 1's input: only a second pass of the chain reaches /c/.
  'regex-normalize.xml': `<regex-normalize>${rule('/b/', '/c/')}${rule('/a/', '/b/')}</regex-normalize>`,
  'outlink.xml': `<regex-normalize>${rule('[?&amp;]sid=[0-9a-f]+', '')}${rule('^http://127\\.0\\.9\\.9/.*', '')}</regex-normalize>`,
});
test.after(conf.cleanup);

const run = (args: string[], stdin?: string) => hz(['normalizerchecker', ...args], { confDir: conf.dir, stdin });
const OUTLINK = ['-D', 'urlnormalizer.regex.file.outlink=outlink.xml'];

test('default scope: the basic normalizer, then the regex rules; unusable URLs are dropped by name', async () => {
  const table: [input: string, line: string][] = [
    ['HTTP://127.0.9.1:80/x/../y/%7Efoo#top', 'http://127.0.9.1/y/~foo'],
    ['http://127.0.9.1/a/page', 'http://127.0.9.1/b/page'],
    ['http://127.0.9.1/p?sid=00ff', 'http://127.0.9.1/p?sid=00ff'],
    ['javascript:void(0)', '-javascript:void(0)\tdropped by urlnormalizer-basic'],
    ['not a url', '-not a url\tdropped by urlnormalizer-basic'],
  ];
  const r = await run(table.map((t) => t[0]));
  assert.is(r.code, 0, r.err);
  assert.equal(r.out.split('\n'), [...table.map((t) => t[1]), '']);
});

test('urlnormalizer.loop.count repeats the chain until nothing changes', async () => {
  const once = await run(['http://127.0.9.1/a/']);
  const twice = await run(['-D', 'urlnormalizer.loop.count=2', 'http://127.0.9.1/a/']);
  assert.equal([once.out, twice.out], ['http://127.0.9.1/b/\n', 'http://127.0.9.1/c/\n']);
});

test('-scope picks the scope’s own rule file; a rule emptying a URL drops it', async () => {
  const urls = 'http://127.0.9.1/p?sid=00ff\nhttp://127.0.9.9/anything\n\nhttp://127.0.9.1/a/\n';
  const outlink = await run(['-scope', 'outlink', ...OUTLINK], urls);
  assert.is(outlink.code, 0, outlink.err);
  assert.is(outlink.out, 'http://127.0.9.1/p\n-http://127.0.9.9/anything\tdropped by urlnormalizer-regex\nhttp://127.0.9.1/a/\n');
  const inject = await run(['-scope', 'inject', ...OUTLINK], urls);
  assert.is(inject.out, 'http://127.0.9.1/p?sid=00ff\nhttp://127.0.9.9/anything\nhttp://127.0.9.1/b/\n');
});

test('an unknown scope or option exits 2; a broken rule file exits 1 naming it', async () => {
  const scope = await run(['-scope', 'outlinks', 'http://127.0.9.1/']);
  assert.is(scope.code, 2);
  assert.match(scope.err, /unknown scope outlinks \(one of default, inject, .*outlink, indexer\)\nUsage: hazelnut normalizerchecker/);
  const missing = await run(['-scope']);
  assert.is(missing.code, 2);
  const bad = await run(['-D', 'urlnormalizer.regex.file=nope.xml', 'http://127.0.9.1/']);
  assert.is(bad.code, 1);
  assert.match(bad.err, /nope\.xml/);
  assert.is(bad.out, '');
});

test.run();
