/**
 * A user who follows the README puts an agent name (and maybe a longer delay)
 * in conf/hazelnut-site.xml; the tests must not see it. This copies the
 * package into a temporary directory, writes such a site file into the copy's
 * conf/, and runs the test runner exactly as `npm test` does (the command
 * after its type check) over one probe test: in the test process and in a
 * `hazelnut` it spawns, the user's properties are not there.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(import.meta.dirname, '..');

const PROBE = `import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../shared/conf.js';
import { crawlConf } from '../crawler/crawl.js';

test('the user site file is not read', () => {
  assert.is(Conf.load().get('http.agent.name'), '');
  assert.is(crawlConf(Conf.load().confDir, {}).get('fetcher.server.delay'), '1.0');
  const r = spawnSync(process.execPath, ['crawler/hazelnut.js', 'crawl', 'seeds.txt', '-dir', 'probe-crawl'], { encoding: 'utf8' });
  assert.match(r.stderr, /http\\.agent\\.name is empty/);
});

test.run();
`;

test('npm test runs against the tests’ own configuration, not the user’s conf/hazelnut-site.xml', () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-confiso-'));
  try {
    for (const f of ['package.json', 'tsconfig.json', 'conf', 'crawler', 'shared', 'segments', 'searcher', 'test/fixtures/conf'])
      fs.cpSync(path.join(root, f), path.join(copy, f), { recursive: true, filter: (src) => !src.includes(`${path.sep}demo${path.sep}site`) });
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
    fs.writeFileSync(
      path.join(copy, 'conf', 'hazelnut-site.xml'),
      `<configuration>
  <property><name>http.agent.name</name><value>AcmeIntranetBot</value></property>
  <property><name>fetcher.server.delay</name><value>9</value></property>
</configuration>\n`,
    );
    fs.writeFileSync(path.join(copy, 'test', 'probe.test.ts'), PROBE);
    fs.writeFileSync(path.join(copy, 'seeds.txt'), 'http://127.0.9.1/\n');

    const script = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { test: string } }).scripts.test;
    const runner = script.split('&&').pop()!.trim();
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.join(copy, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`, NO_COLOR: '1' };
    delete env.HAZELNUT_CONF_DIR;
    delete env.FORCE_COLOR;
    const r = spawnSync('sh', ['-c', runner], { cwd: copy, env, encoding: 'utf8', timeout: 60_000 });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.is(r.status, 0, out);
    assert.match(out, /Passed:\s+1\b/);
    assert.not.ok(fs.existsSync(path.join(copy, 'probe-crawl')), 'the refused crawl wrote nothing');
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});

test.run();
