import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../../crawler/builtins.js';
import { loadCrawlerPlugins, NEUTRAL_SCORING, normalizerChain } from '../../../crawler/plugin/chains.js';
import { Conf } from '../../../shared/conf.js';
import { HzError } from '../../../shared/errors.js';
import { builtinPlugins, listPlugins, orderedActive, registerPlugins } from '../../../shared/plugin/registry.js';
import type { PluginDescriptor, URLFilter, URLNormalizer } from '../../../shared/plugin/extension-points.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-plugin-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const norm = (id: string, fn: (u: string) => string | null): PluginDescriptor<'url-normalizer'> => ({
  id,
  point: 'url-normalizer',
  description: id,
  create: (): URLNormalizer => ({ normalize: (u) => fn(u) }),
});
const filt = (id: string, fn: (u: string) => string | null): PluginDescriptor<'url-filter'> => ({
  id,
  point: 'url-filter',
  description: id,
  create: (): URLFilter => ({ filter: (u) => fn(u) }),
});
const BUILTINS: PluginDescriptor[] = [
  norm('urlnormalizer-a', (u) => u + 'a'),
  norm('urlnormalizer-b', (u) => u + 'b'),
  filt('urlfilter-x', (u) => (u.includes('x') ? null : u)),
  filt('urlfilter-off', () => null),
  { id: 'urlfilter-switched', point: 'url-filter', description: 'off by its own property', create: () => null },
];

function conf(d: Record<string, string>, dir = tmp): Conf {
  return Conf.load({ confDir: dir, overrides: { 'plugin.folders': path.join(tmp, 'none'), ...d } });
}

test('selection: includes is a whole-id match, excludes wins; order property', async () => {
  // [includes, excludes, order, expected active normalizer ids in order]
  const table: [string, string, string, string[]][] = [
    ['urlnormalizer-(a|b)', '', '', ['urlnormalizer-a', 'urlnormalizer-b']],
    ['urlnormalizer-(a|b)', '', 'urlnormalizer-b urlnormalizer-a', ['urlnormalizer-b', 'urlnormalizer-a']],
    ['urlnormalizer-(a|b)', '', 'urlnormalizer-b', ['urlnormalizer-b', 'urlnormalizer-a']],
    ['urlnormalizer-(a|b)', 'urlnormalizer-a', '', ['urlnormalizer-b']],
    ['urlnormalizer', '', '', []], // no partial match
    ['.*-a', '', '', ['urlnormalizer-a']],
  ];
  for (const [includes, excludes, order, ids] of table) {
    const c = conf({ 'plugin.includes': includes, 'plugin.excludes': excludes, 'urlnormalizer.order': order });
    const got = orderedActive(c, await listPlugins(c, BUILTINS), 'url-normalizer').map((d) => d.id);
    assert.equal(got, ids, `${includes} / ${excludes} / ${order}`);
  }
});

test('chains: normalizers in order, every filter must pass, create() null switches a plugin off', async () => {
  const c = conf({ 'plugin.includes': 'urlnormalizer-(a|b)|urlfilter-(x|switched)', 'urlnormalizer.order': 'urlnormalizer-b' });
  const p = await loadCrawlerPlugins(c, BUILTINS);
  assert.is(p.normalizers.normalize('u', 'default'), 'uba');
  assert.is(p.filters.filter('ok'), 'ok');
  assert.is(p.filters.filter('has-x'), null);
  assert.equal(
    p.active.map((a) => a.id),
    ['urlnormalizer-b', 'urlnormalizer-a', 'urlfilter-x'],
  );
  assert.is(p.scoring, NEUTRAL_SCORING, 'no scoring plugin: neutral scoring');
  assert.is(p.scoring.injectedScore('u', 2.5), 2.5);
  assert.is(p.scoring.indexerScore('u', 3, 4), 1);
  const off = await loadCrawlerPlugins(conf({ 'plugin.includes': 'urlfilter-off' }), BUILTINS);
  assert.is(off.filters.filter('anything'), null);
});

test('loop count repeats the chain until nothing changes', () => {
  const strip: URLNormalizer = { normalize: (u) => u.replace(/^x/, '') };
  assert.is(normalizerChain([strip], 1).normalize('xxxu', 'default'), 'xxu');
  assert.is(normalizerChain([strip], 5).normalize('xxxu', 'default'), 'u');
  assert.is(normalizerChain([{ normalize: () => null }], 3).normalize('u', 'default'), null);
});

test('user plugin folder: ESM modules with a descriptor or an array of them', async () => {
  const dir = path.join(tmp, 'plugins-ok');
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'upper.mjs'),
    `export default { id: 'urlnormalizer-upper', point: 'url-normalizer', description: 'upper-cases', create: () => ({ normalize: (u) => u.toUpperCase() }) };\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'sub', 'index.js'),
    `export default [
      { id: 'urlfilter-noq', point: 'url-filter', description: 'no queries', create: (conf) => ({ filter: (u) => (u.includes('?') ? null : u) }) },
      { id: 'urlfilter-unused', point: 'url-filter', description: 'excluded', create: () => ({ filter: () => null }) },
    ];\n`,
  );
  fs.writeFileSync(path.join(dir, 'README.txt'), 'not a module');
  const c = conf({ 'plugin.folders': dir, 'plugin.includes': 'urlnormalizer-a', 'plugin.excludes': 'urlfilter-unused' });
  const entries = await listPlugins(c, BUILTINS);
  const user = entries.filter((e) => e.source !== 'builtin');
  assert.equal(
    user.map((e) => [e.descriptor.id, e.active, path.basename(e.source)]),
    [
      ['urlfilter-noq', true, 'index.js'], // folder entries in name order: sub/ before upper.mjs
      ['urlfilter-unused', false, 'index.js'],
      ['urlnormalizer-upper', true, 'upper.mjs'],
    ],
  );
  const p = await loadCrawlerPlugins(c, BUILTINS);
  assert.is(p.normalizers.normalize('http://h/', 'default'), 'HTTP://H/A');
  assert.is(p.filters.filter('http://h/?q'), null);
  assert.is(p.filters.filter('http://h/'), 'http://h/');
});

test('relative plugin folders resolve against the conf dir; a missing folder is skipped', async () => {
  const confDir = path.join(tmp, 'confdir');
  fs.mkdirSync(path.join(confDir, 'myplugins'), { recursive: true });
  fs.writeFileSync(path.join(confDir, 'myplugins', 'p.js'), `export default { id: 'urlfilter-rel', point: 'url-filter', description: '', create: () => ({ filter: (u) => u }) };\n`);
  const c = Conf.load({ confDir, overrides: { 'plugin.folders': 'myplugins, missing', 'plugin.includes': 'none' } });
  assert.equal(
    (await listPlugins(c, BUILTINS)).filter((e) => e.active).map((e) => e.descriptor.id),
    ['urlfilter-rel'],
  );
});

test('failing plugin modules are errors naming the file and the reason', async () => {
  // [file name, module source, expected message]
  const table: [string, string, RegExp][] = [
    ['throws.mjs', `throw new Error('boom at load');\n`, /throws\.mjs failed to load: boom at load/],
    ['syntax.mjs', `export default {{;\n`, /syntax\.mjs failed to load: /],
    ['nodefault.mjs', `export const x = 1;\n`, /nodefault\.mjs has no default export/],
    ['badpoint.mjs', `export default { id: 'p1', point: 'teleport', create() {} };\n`, /badpoint\.mjs: plugin p1: point must be one of/],
    ['nocreate.mjs', `export default { id: 'p2', point: 'url-filter' };\n`, /nocreate\.mjs: plugin p2: create\(conf\) is not a function/],
    ['dupe.mjs', `export default { id: 'urlfilter-x', point: 'url-filter', create: () => null };\n`, /plugin id urlfilter-x from .*dupe\.mjs is already used by a built-in plugin/],
    ['imports.mjs', `import './does-not-exist.mjs';\nexport default [];\n`, /imports\.mjs failed to load: .*does-not-exist/],
  ];
  for (const [name, src, re] of table) {
    const dir = path.join(tmp, `bad-${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, name), src);
    try {
      await listPlugins(conf({ 'plugin.folders': dir, 'plugin.includes': '' }), BUILTINS);
      assert.unreachable(name);
    } catch (e) {
      assert.instance(e, HzError, name);
      assert.is((e as HzError).code, 'HZ_ERR_PLUGIN', name);
      assert.match((e as Error).message, re, name);
    }
  }
  const boom = filt('urlfilter-boom', () => null);
  boom.create = () => {
    throw new Error('cannot start');
  };
  try {
    await loadCrawlerPlugins(conf({ 'plugin.includes': 'urlfilter-boom' }), [boom]);
    assert.unreachable('create() threw');
  } catch (e) {
    assert.match((e as Error).message, /plugin urlfilter-boom failed to start: cannot start/);
  }
});

test('the built-in crawler plugins load with the shipped configuration', async () => {
  const c = Conf.load({ overrides: { 'plugin.folders': path.join(tmp, 'none') } });
  const p = await loadCrawlerPlugins(c);
  const ids = p.active.map((a) => a.id);
  for (const id of ['urlnormalizer-basic', 'urlnormalizer-regex', 'urlfilter-regex']) assert.ok(ids.includes(id), id);
  assert.is(p.normalizers.normalize('HTTP://Example.com:80/a/../b;jsessionid=1?x#y', 'inject'), 'http://example.com/b?x');
  assert.is(p.filters.filter('http://example.com/b'), 'http://example.com/b');
  assert.is(p.filters.filter('http://example.com/b.gif'), null);
});

test('the plugin folders register each built-in once, in the order plugin list shows them', () => {
  assert.equal(
    builtinPlugins().map((d) => d.id),
    ['protocol-http', 'protocol-file', 'urlnormalizer-basic', 'urlnormalizer-regex', 'urlfilter-regex', 'urlfilter-host', 'parse-html', 'parse-text', 'parse-pdf', 'parse-office', 'scoring-opic', 'index-basic', 'index-anchor', 'index-more'],
  );
  const first = builtinPlugins()[0]!;
  assert.throws(() => registerPlugins(first), (e: unknown) => e instanceof HzError && /built-in plugin id protocol-http is registered twice/.test(e.message));
  assert.is(builtinPlugins().length, 14, 'a refused registration adds nothing');
});

test.run();
