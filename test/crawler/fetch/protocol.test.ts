/**
 * The Protocol extension point: the fetch goes through the active protocol
 * plugin of each URL's scheme. A user's plugin, loaded from a plugin folder,
 * replaces protocol-http and serves its own scheme (with no robots.txt to
 * ask); a scheme no active plugin serves is a failure that says so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchSteps } from '../../../crawler/fetch/step.js';
import { startProtocols } from '../../../crawler/fetch/protocols.js';
import { RobotsCache } from '../../../crawler/fetch/robots.js';
import '../../../crawler/builtins.js';
import { loadCrawlerPlugins } from '../../../crawler/plugin/chains.js';
import { Conf } from '../../../shared/conf.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-protocol-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const PLUGIN = `
export default {
  id: 'protocol-memo',
  point: 'protocol',
  description: 'pages made up from their URL',
  create: (conf) => ({
    schemes: ['http', 'memo'],
    async get(req) {
      const body = Buffer.from('<html><head><title>memo ' + req.url + '</title></head><body>' + conf.get('http.agent.name') + '</body></html>');
      return { status: 200, headers: { 'content-type': 'text/html' }, body, truncated: false, wireBytes: body.length };
    },
  }),
};
`;

function conf(overrides: Record<string, string>): Conf {
  return Conf.load({ overrides: { 'http.agent.name': 'HzProtocolTest', 'plugin.folders': path.join(tmp, 'plugins'), ...overrides } });
}

const item = (url: string) => ({ url, datum: {}, hop: 0, chain: [url] });

test('a protocol plugin from a plugin folder fetches the schemes it claims, robots.txt only for http(s)', async () => {
  fs.mkdirSync(path.join(tmp, 'plugins'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'plugins', 'memo.mjs'), PLUGIN);
  const c = conf({ 'plugin.excludes': 'protocol-http' });
  const plugins = await loadCrawlerPlugins(c);
  assert.equal(plugins.protocols.map((p) => p.id), ['protocol-memo']);
  const protocols = startProtocols(c, plugins.protocols);
  // robots.txt of an http URL also comes through the plugin: it answers 200 with no rules, so all is allowed.
  const fetchOne = fetchSteps(c, protocols, new RobotsCache({ http: protocols, agents: ['HzProtocolTest'] }));
  try {
    // Nothing listens at 127.0.0.1:9: the page can only have come from the plugin.
    const web = await fetchOne(item('http://127.0.0.1:9/a'));
    assert.is(web.record.status, 'fetch_success');
    assert.match(web.content!.bytes.toString(), '<title>memo http://127.0.0.1:9/a</title>');
    const memo = await fetchOne(item('memo://notes/b'));
    assert.is(memo.record.status, 'fetch_success', 'no robots.txt is asked for memo:');
    assert.match(memo.content!.bytes.toString(), 'HzProtocolTest');
  } finally {
    await protocols.close();
  }
});

test('a scheme no active protocol plugin serves is a failure naming the scheme and plugin.includes', async () => {
  fs.rmSync(path.join(tmp, 'plugins'), { recursive: true, force: true });
  const c = conf({});
  const plugins = await loadCrawlerPlugins(c);
  assert.equal(plugins.protocols.map((p) => p.id), ['protocol-http']);
  const protocols = startProtocols(c, plugins.protocols);
  try {
    const o = await fetchSteps(c, protocols, null)(item('memo://notes/b'));
    assert.is(o.record.status, 'fetch_retry');
    assert.ok(o.exception);
    assert.match(o.record.message!, 'no active protocol plugin fetches memo: URLs');
    assert.match(o.record.message!, 'plugin.includes');
  } finally {
    await protocols.close();
  }
});

test.run();
