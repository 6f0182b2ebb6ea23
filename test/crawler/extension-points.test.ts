/**
 * Every extension point `hazelnut plugin list` shows runs in the pipeline: a
 * user's plugin for each, loaded from a plugin folder, changes what a real
 * crawl does. The protocol plugin serves a made-up site (nothing listens on
 * the network), the normalizer drops a tracking parameter, the filter keeps
 * /private/ out, the parser reads its own content type, the indexing filter
 * rewrites titles and the scoring filter gives seeds their score.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(import.meta.dirname, '..', '..');
const HAZELNUT = path.join(root, 'crawler', 'hazelnut.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-points-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const PLUGINS = `
const PAGES = {
  'http://memo.test/': ['text/html', '<html><head><title>Memo home</title></head><body><p>quokka welcome</p>' +
    '<a href="/notes.memo?ref=home">notes</a> <a href="/private/secret.html">secret</a></body></html>'],
  'http://memo.test/notes.memo': ['text/x-memo', 'TITLE Field notes\\nquokka sightings by the river'],
  'http://memo.test/private/secret.html': ['text/html', '<html><head><title>Secret</title></head><body><p>quokka secret</p></body></html>'],
};
const answer = (status, type, text) => {
  const body = Buffer.from(text);
  return { status, headers: type ? { 'content-type': type } : {}, body, truncated: false, wireBytes: body.length };
};
export default [
  { id: 'protocol-memo', point: 'protocol', description: 'the memo.test site', create: () => ({
    schemes: ['http'],
    async get(req) {
      const page = PAGES[req.url];
      return page ? answer(200, page[0], page[1]) : answer(404, 'text/plain', 'not found');
    },
  }) },
  { id: 'urlnormalizer-noref', point: 'url-normalizer', description: 'drops ?ref=', create: () => ({ normalize: (u) => u.replace(/\\?ref=[^&#]*$/, '') }) },
  { id: 'urlfilter-noprivate', point: 'url-filter', description: 'keeps /private/ out', create: () => ({ filter: (u) => (u.includes('/private/') ? null : u) }) },
  { id: 'parse-memo', point: 'parser', description: 'text/x-memo', create: () => ({
    contentTypes: ['text/x-memo'],
    parse(input) {
      const [first, ...rest] = input.bytes.toString('utf8').split('\\n');
      return { status: 'success', title: first.replace(/^TITLE /, ''), text: rest.join('\\n'), outlinks: [], meta: {} };
    },
  }) },
  { id: 'index-shout', point: 'indexing-filter', description: 'titles in capitals', create: () => ({ filter: (doc) => ({ ...doc, title: String(doc.title ?? '').toUpperCase() }) }) },
  { id: 'scoring-fixed', point: 'scoring-filter', description: 'seeds score 42', create: () => ({
    injectedScore: () => 42,
    initialScore: () => 1,
    generatorSortValue: (_u, s) => s,
    distributeScoreToOutlinks: () => new Map(),
    updateDbScore: (_u, old) => old ?? 1,
    indexerScore: () => 1,
  }) },
];
`;

function hazelnut(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [HAZELNUT, '-conf', path.join(tmp, 'conf'), ...args], { cwd: tmp, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('a user plugin at each extension point changes what a crawl does', () => {
  fs.mkdirSync(path.join(tmp, 'conf', 'plugins'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'conf', 'plugins', 'memo.mjs'), PLUGINS);
  const props = { 'http.agent.name': 'HzPointsTest', 'fetcher.server.delay': '0', 'plugin.excludes': 'protocol-http' };
  fs.writeFileSync(
    path.join(tmp, 'conf', 'hazelnut-site.xml'),
    `<configuration>${Object.entries(props).map(([k, v]) => `<property><name>${k}</name><value>${v}</value></property>`).join('')}</configuration>`,
  );
  fs.writeFileSync(path.join(tmp, 'seeds.txt'), 'http://memo.test/\n');

  const list = hazelnut('plugin', 'list');
  assert.is(list.code, 0, list.err);
  const points = new Map(list.out.split('\n').map((l) => l.trim().split(/\s+/)).filter((w) => w[0] === 'yes').map((w) => [w[1]!, w[2]!]));
  for (const [id, point] of [
    ['protocol-memo', 'protocol'],
    ['urlnormalizer-noref', 'url-normalizer'],
    ['urlfilter-noprivate', 'url-filter'],
    ['parse-memo', 'parser'],
    ['index-shout', 'indexing-filter'],
    ['scoring-fixed', 'scoring-filter'],
  ])
    assert.is(points.get(id), point, `${id} is listed as active`);
  // Every point the list shows has a user plugin above.
  assert.equal([...new Set(list.out.split('\n').map((l) => l.trim().split(/\s+/)).filter((w) => w[0] === 'yes' || w[0] === 'no').map((w) => w[2]))].sort(), [
    'indexing-filter',
    'parser',
    'protocol',
    'scoring-filter',
    'url-filter',
    'url-normalizer',
  ]);

  const crawl = hazelnut('crawl', 'seeds.txt', '-dir', 'crawl', '-depth', '2');
  assert.is(crawl.code, 0, crawl.out + crawl.err);

  const search = hazelnut('search', 'crawl', 'quokka', '-json');
  assert.is(search.code, 0, search.err);
  const hits = (JSON.parse(search.out) as { hits: { url: string; title: string }[] }).hits;
  assert.equal(hits.map((h) => [h.url, h.title]).sort(), [
    ['http://memo.test/', 'MEMO HOME'],
    ['http://memo.test/notes.memo', 'FIELD NOTES'],
  ]);

  // OPIC hands a fetched page's cash on, so the injected score is read before any fetch.
  assert.is(hazelnut('inject', 'fresh/webdb', 'seeds.txt').code, 0);
  const seed = hazelnut('readdb', 'fresh/webdb', '-url', 'http://memo.test/');
  assert.is(seed.code, 0, seed.err);
  assert.match(seed.out, /Score: 42\b/);
});

test.run();
