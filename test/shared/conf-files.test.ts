import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { confSearchPath, DEFAULT_FILE, findConfFile, PACKAGE_CONF_DIR, SHIPPED_FILES, SITE_FILE } from '../../shared/conf-files.js';

const own = '/etc/hazelnut';

test('a configuration directory of one’s own is looked in alone, but for the files the package ships as defaults', () => {
  const cases: [string, string, string[]][] = [
    [own, SITE_FILE, [own]],
    [own, 'http-auth.xml', [own]],
    [own, 'my-rules.txt', [own]],
    [own, 'regex-urlfilter.txt', [own, PACKAGE_CONF_DIR]],
    [own, 'regex-normalize.xml', [own, PACKAGE_CONF_DIR]],
    [own, 'crawl-tool.xml', [own, PACKAGE_CONF_DIR]],
    [own, 'synonyms.txt', [own, PACKAGE_CONF_DIR]],
    [PACKAGE_CONF_DIR, SITE_FILE, [PACKAGE_CONF_DIR]],
    [PACKAGE_CONF_DIR, 'regex-urlfilter.txt', [PACKAGE_CONF_DIR]],
    [`${PACKAGE_CONF_DIR}/`, SITE_FILE, [PACKAGE_CONF_DIR]],
  ];
  for (const [dir, name, want] of cases) assert.equal(confSearchPath(dir, name), want, `${dir} ${name}`);
});

test('the shipped defaults are every file of the package’s conf/ but the declarations and the site file', () => {
  const files = fs.readdirSync(PACKAGE_CONF_DIR).filter((f) => f !== DEFAULT_FILE && f !== SITE_FILE);
  assert.equal([...files].sort(), [...SHIPPED_FILES].sort());
});

test('an empty directory of one’s own finds the stock rules and no site file, not even the package’s', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-conf-files-'));
  try {
    assert.is(findConfFile(dir, SITE_FILE), undefined);
    assert.is(findConfFile(dir, 'regex-urlfilter.txt'), path.join(PACKAGE_CONF_DIR, 'regex-urlfilter.txt'));
    fs.writeFileSync(path.join(dir, 'regex-urlfilter.txt'), '+.\n');
    assert.is(findConfFile(dir, 'regex-urlfilter.txt'), path.join(dir, 'regex-urlfilter.txt'));
    assert.is(findConfFile(PACKAGE_CONF_DIR, SITE_FILE), path.join(PACKAGE_CONF_DIR, SITE_FILE));
    assert.is(findConfFile(dir, path.join(dir, 'nope.xml')), undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
