/**
 * A plugin from plugin.folders declares its own properties: a site file and
 * -D set them, with the type check and did-you-mean of the built-in ones, and
 * they change what a real crawl of a loopback site does. A misspelt name, a
 * value of the wrong type, or a property of an excluded plugin is refused
 * (file:line or -D) before anything is written, by the searcher too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startSearcher } from '../fixtures/searcher-process.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const HAZELNUT = path.join(root, 'crawler', 'hazelnut.js');
const SEARCHER = path.join(root, 'searcher', 'hazelnut-searcher.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-plugprops-'));
const confDir = path.join(tmp, 'conf');

const PLUGIN = `
export default {
  id: 'urlfilter-words',
  point: 'url-filter',
  description: 'keeps URLs matching words.block out',
  properties: [
    { name: 'words.block', type: 'regex', default: '', description: 'URLs matching this are not crawled; empty blocks nothing.' },
    { name: 'words.note', default: 'none', description: 'Free text, shown by plugin list.' },
  ],
  create(conf) {
    const src = conf.get('words.block');
    if (!src) return null;
    const re = new RegExp(src);
    return { filter: (u) => (re.test(u) ? null : u) };
  },
};
`;

const PAGES: Record<string, string> = {
  '/': '<html><head><title>Home</title></head><body><p>wombat home</p><a href="/alpha.html">alpha</a> <a href="/secret.html">secret</a></body></html>',
  '/alpha.html': '<html><head><title>Alpha</title></head><body><p>wombat alpha</p></body></html>',
  '/secret.html': '<html><head><title>Secret</title></head><body><p>wombat secret</p></body></html>',
};
const server = http.createServer((req, res) => {
  const page = PAGES[req.url ?? ''];
  res.writeHead(page ? 200 : 404, { 'content-type': page ? 'text/html' : 'text/plain' });
  res.end(page ?? 'not found');
});
let seeds = '';

test.before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.23.1', r));
  seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `http://127.0.23.1:${(server.address() as AddressInfo).port}/\n`);
  fs.mkdirSync(path.join(confDir, 'plugins'), { recursive: true });
  fs.writeFileSync(path.join(confDir, 'plugins', 'words.mjs'), PLUGIN);
});
test.after(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Writes the site file; returns the line each property's <name> is on. */
function site(props: Record<string, string>): Record<string, number> {
  const all = { 'http.agent.name': 'HzPluginProps', 'fetcher.server.delay': '0', ...props };
  const lines = ['<configuration>'];
  const at: Record<string, number> = {};
  for (const [k, v] of Object.entries(all)) {
    at[k] = lines.length + 1;
    lines.push(`<property><name>${k}</name><value>${v}</value></property>`);
  }
  lines.push('</configuration>');
  fs.writeFileSync(path.join(confDir, 'hazelnut-site.xml'), lines.join('\n') + '\n');
  return at;
}

function run(bin: string, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [bin, ...args], { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

const hazelnut = (...args: string[]) => run(HAZELNUT, '-conf', confDir, ...args);

async function crawledPaths(dir: string): Promise<string[]> {
  const search = await hazelnut('search', dir, 'wombat', '-json');
  assert.is(search.code, 0, search.err);
  return (JSON.parse(search.out) as { hits: { url: string }[] }).hits.map((h) => new URL(h.url).pathname).sort();
}

test('a plugin property set in the site file, then by -D, changes what a crawl fetches', async () => {
  site({ 'words.block': 'secret' });
  const list = await hazelnut('plugin', 'list');
  assert.is(list.code, 0, list.err);
  assert.match(list.out, /property words\.block \(regex, default ""\) = "secret" \(.*hazelnut-site\.xml\): URLs matching this/);
  assert.match(list.out, /property words\.note \(string, default "none"\) = "none" \(plugin urlfilter-words\)/);

  const bySite = await hazelnut('crawl', seeds, '-dir', 'by-site', '-depth', '2');
  assert.is(bySite.code, 0, bySite.out + bySite.err);
  assert.equal(await crawledPaths('by-site'), ['/', '/alpha.html']);

  const byD = await hazelnut('-D', 'words.block=alpha', 'crawl', seeds, '-dir', 'by-d', '-depth', '2');
  assert.is(byD.code, 0, byD.out + byD.err);
  assert.equal(await crawledPaths('by-d'), ['/', '/secret.html']);
});

test('the searcher reads the same site file: it knows the plugin properties and refuses a misspelt one', async () => {
  site({ 'words.block': 'secret' });
  const { proc, base } = await startSearcher(['-conf', confDir, '-dir', 'by-site', '-port', '0', '-host', '127.0.23.2'], tmp);
  try {
    const res = await fetch(`${base}/api/search?query=wombat`);
    assert.is(res.status, 200);
    assert.is(((await res.json()) as { hits: unknown[] }).hits.length, 2);
  } finally {
    proc.kill();
  }

  const at = site({ 'words.blok': 'secret' });
  const refused = await run(SEARCHER, '-conf', confDir, '-dir', 'by-site', '-port', '0', '-host', '127.0.23.2');
  assert.is(refused.code, 1, refused.err);
  assert.ok(refused.err.includes(`hazelnut-site.xml:${at['words.blok']}: unknown property words.blok; did you mean words.block?`), refused.err);
});

test('a misspelt, mistyped or inactive plugin property is refused before anything is written', async () => {
  const at = site({ 'words.blok': 'secret' });
  const misspelt = await hazelnut('crawl', seeds, '-dir', 'bad1', '-depth', '1');
  assert.is(misspelt.code, 1, misspelt.err);
  assert.ok(
    misspelt.err.includes(`${path.join(confDir, 'hazelnut-site.xml')}:${at['words.blok']}: unknown property words.blok; did you mean words.block?`),
    misspelt.err,
  );
  assert.not.ok(fs.existsSync(path.join(tmp, 'bad1')));
  // Every command reads the same site file, not only those that load plugins.
  const readdb = await hazelnut('readdb', 'by-site/webdb', '-stats');
  assert.is(readdb.code, 1);
  assert.match(readdb.err, /unknown property words\.blok; did you mean words\.block\?/);

  site({});
  const mistyped = await hazelnut('-D', 'words.block=(', 'crawl', seeds, '-dir', 'bad2', '-depth', '1');
  assert.is(mistyped.code, 1, mistyped.err);
  assert.match(mistyped.err, /-D words\.block: property words\.block must be a valid regular expression, not "\("/);
  assert.not.ok(fs.existsSync(path.join(tmp, 'bad2')));

  site({ 'plugin.excludes': 'urlfilter-words', 'words.block': 'secret' });
  const inactive = await hazelnut('crawl', seeds, '-dir', 'bad3', '-depth', '1');
  assert.is(inactive.code, 1, inactive.err);
  assert.match(inactive.err, /hazelnut-site\.xml:\d+: property words\.block belongs to plugin urlfilter-words, which is not active/);
  assert.not.ok(fs.existsSync(path.join(tmp, 'bad3')));
});

test('a plugin whose declaration is wrong is named with its module', async () => {
  site({});
  const bad = path.join(confDir, 'plugins', 'zz-bad.mjs');
  for (const [props, why] of [
    [`[{ name: 'words.block', default: '' }]`, /plugin zz-bad: property words\.block is already declared by plugin urlfilter-words/],
    [`[{ name: 'fetcher.threads.fetch', default: '1' }]`, /property fetcher\.threads\.fetch is already declared by hazelnut-default\.xml/],
  ] as const) {
    fs.writeFileSync(bad, `export default { id: 'zz-bad', point: 'url-filter', description: '', properties: ${props}, create: () => null };`);
    const r = await hazelnut('plugin', 'list');
    assert.is(r.code, 1, r.out);
    assert.ok(r.err.includes(`plugin module ${bad}`), r.err);
    assert.match(r.err, why);
  }
  fs.rmSync(bad);
});

test.run();
