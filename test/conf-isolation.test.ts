/**
 * A user who follows the README puts an agent name (and maybe a longer delay)
 * in conf/hazelnut-site.xml; the tests must not see it, nor a `-conf DIR` of
 * their own. This copies the package into a temporary directory, writes such
 * a site file into the copy's conf/, and runs the test runner exactly as `npm
 * test` does (the command after its type check) over a probe test and the
 * checkers' tests, which give each tool a configuration directory without a
 * site file: in the test process and in a `hazelnut` it spawns, with
 * HAZELNUT_CONF_DIR or -conf, the user's properties are not there.
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
  for (const confDir of [undefined, 'own-conf']) {
    assert.is(Conf.load({ confDir }).get('http.agent.name'), '', String(confDir));
    assert.is(crawlConf(Conf.load({ confDir }).confDir, {}).get('fetcher.server.delay'), '1.0', String(confDir));
  }
  for (const conf of [[], ['-conf', 'own-conf']]) {
    const r = spawnSync(process.execPath, ['crawler/hazelnut.js', ...conf, 'crawl', 'seeds.txt', '-dir', 'probe-crawl'], { encoding: 'utf8' });
    assert.match(r.stderr, /http\\.agent\\.name is empty/, conf.join(' '));
  }
});

test.run();
`;

test('npm test runs against the tests’ own configuration, not the user’s conf/hazelnut-site.xml', () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-confiso-'));
  try {
    for (const f of ['package.json', 'tsconfig.json', 'conf', 'crawler', 'shared', 'segments', 'searcher', 'test/fixtures', 'test/crawler/checkers'])
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
    fs.mkdirSync(path.join(copy, 'own-conf'));

    const script = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { test: string } }).scripts.test;
    const runner = script.split('&&').pop()!.trim();
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${path.join(copy, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`, NO_COLOR: '1' };
    delete env.HAZELNUT_CONF_DIR;
    delete env.FORCE_COLOR;
    const r = spawnSync('sh', ['-c', runner], { cwd: copy, env, encoding: 'utf8', timeout: 60_000 });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.is(r.status, 0, out);
    assert.match(out, /Total:\s+(\d+)\s+Passed:\s+\1\b/);
    assert.ok(Number(/Total:\s+(\d+)/.exec(out)?.[1]) > 10, 'the checkers ran too');
    assert.not.ok(fs.existsSync(path.join(copy, 'probe-crawl')), 'the refused crawl wrote nothing');
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});

test.run();
