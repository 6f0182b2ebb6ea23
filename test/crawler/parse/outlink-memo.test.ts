import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OUTLINK_MEMO_SIZE, parseContent } from '../../../crawler/parse/parse-content.js';
import '../../../crawler/builtins.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from '../../../crawler/plugin/chains.js';
import { Conf } from '../../../shared/conf.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-outlink-memo-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function conf(files: Record<string, string>, overrides: Record<string, string> = {}): Conf {
  const dir = fs.mkdtempSync(path.join(tmp, 'conf-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return Conf.load({ confDir: dir, overrides: { 'plugin.folders': path.join(dir, 'plugins'), ...overrides } });
}

async function outlinks(plugins: CrawlerPlugins, c: Conf, url: string, body: string): Promise<string[]> {
  const content = { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(body), truncated: false };
  const p = await parseContent(plugins, c, content, { url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: {} });
  return p.outlinks.map((l) => l.url);
}

test('built-in normalizers and filters: answers remembered, the same outlinks as asking each time, a local file never reached from the web', async () => {
  const c = conf({ 'regex-urlfilter.txt': '-\\.gif$\n+.\n' }, { 'plugin.includes': 'protocol-(http|file)|urlfilter-regex|parse-html|urlnormalizer-(basic|regex)', 'db.max.outlinks.per.page': '-1' });
  const plugins = await loadCrawlerPlugins(c);
  assert.ok(plugins.outlinkAnswersFixed);
  const links = '<a href="file:///srv/share/a.txt">file</a><a href="/x.gif">gif</a><a href="/A/../b#f">b</a><a href="http://127.0.4.2:80/c">c</a>';
  for (let round = 0; round < 3; round++) {
    assert.equal(await outlinks(plugins, c, 'http://127.0.4.1/page.html', links), ['http://127.0.4.1/b', 'http://127.0.4.2/c'], `web page, round ${round}`);
    assert.equal(await outlinks(plugins, c, 'file:///srv/share/index.html', links), ['file:///srv/share/a.txt', 'file:///b', 'http://127.0.4.2/c'], `local file, round ${round}`);
  }
  // More distinct links than the memory holds: it is emptied and answers stay right.
  const many = Array.from({ length: OUTLINK_MEMO_SIZE + 10 }, (_, i) => `<a href="/p${i}.html">p</a>`).join('') + '<a href="/x.gif">gif</a><a href="/A/../b">b</a>';
  const got = await outlinks(plugins, c, 'http://127.0.4.1/page.html', many);
  assert.is(got.length, OUTLINK_MEMO_SIZE + 11);
  assert.is(got.at(-1), 'http://127.0.4.1/b');
});

test('a URL filter of your own is asked for every link, since it may keep state', async () => {
  const c = conf({}, { 'plugin.includes': 'parse-html|urlnormalizer-basic' });
  fs.mkdirSync(c.get('plugin.folders'));
  fs.writeFileSync(
    path.join(c.get('plugin.folders'), 'once.mjs'),
    `const seen = new Set();
export default { id: 'urlfilter-once', point: 'url-filter', description: 'each URL once', create: () => ({ filter: (u) => (seen.has(u) ? null : (seen.add(u), u)) }) };`,
  );
  const plugins = await loadCrawlerPlugins(c);
  assert.is(plugins.outlinkAnswersFixed, false);
  assert.equal(await outlinks(plugins, c, 'http://127.0.4.1/1', '<a href="/a">a</a>'), ['http://127.0.4.1/a']);
  assert.equal(await outlinks(plugins, c, 'http://127.0.4.1/2', '<a href="/a">a</a>'), []);
});

test('a rule matched under a timeout (back-reference) leaves answers unremembered', async () => {
  const timed = conf({ 'regex-urlfilter.txt': '-(a+)\\1b\n+.\n' }, { 'plugin.includes': 'parse-html|urlfilter-regex|urlnormalizer-basic' });
  assert.is((await loadCrawlerPlugins(timed)).outlinkAnswersFixed, false);
  const normalizer = conf(
    { 'regex-normalize.xml': '<regex-normalize><regex><pattern>(x)\\1</pattern><substitution>y</substitution></regex></regex-normalize>' },
    { 'plugin.includes': 'parse-html|urlnormalizer-(basic|regex)' },
  );
  assert.is((await loadCrawlerPlugins(normalizer)).outlinkAnswersFixed, false);
  const plain = conf({ 'regex-urlfilter.txt': '-a+b\n+.\n' }, { 'plugin.includes': 'parse-html|urlfilter-regex|urlnormalizer-basic' });
  assert.is((await loadCrawlerPlugins(plain)).outlinkAnswersFixed, true);
});

test.run();
