import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { inject, readSeeds } from '../../crawler/inject.js';
import '../../crawler/builtins.js';
import { loadCrawlerPlugins } from '../../crawler/plugin/chains.js';
import type { PageRow } from '../../crawler/webdb/webdb.js';
import { webDbSql } from '../fixtures/webdb-sql.js';
import { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-inject-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const conf = Conf.load({ overrides: { 'plugin.includes': 'urlfilter-regex|urlnormalizer-(basic|regex)', 'plugin.folders': path.join(tmp, 'none') } });
const NOW = Date.UTC(2024, 0, 2, 3, 4, 5);

function write(rel: string, text: string): string {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}

function pages(webdb: string): PageRow[] {
  const db = webDbSql(webdb, { readonly: true });
  try {
    return db.prepare('SELECT * FROM pages ORDER BY url').all() as PageRow[];
  } finally {
    db.close();
  }
}

const SEEDS = [
  '# intranet seeds',
  'http://127.0.2.1/',
  '',
  'HTTP://127.0.2.1:80/', // duplicate after normalization
  'http://127.0.2.2/docs/\tnutch.score=2.5\tnutch.fetchInterval=3600\tteam=docs',
  'http://127.0.2.3/logo.png', // rejected by the filter
  'http://127.0.2.3/page?id=1', // rejected by the filter
  'no-scheme.example.com', // malformed
  'http://127.0.2.4/\tnutch.score=high', // malformed metadata
  'http://127.0.2.4/x\tjustaword', // malformed metadata
  '   http://127.0.2.4/trimmed   ',
  'javascript:void(0)', // malformed: not a document
].join('\n');

test('inject: good, bad, duplicate and filtered lines; twice changes nothing', async () => {
  const seeds = write('a/urls.txt', SEEDS);
  const webdb = path.join(tmp, 'a', 'crawl', 'webdb');
  const plugins = await loadCrawlerPlugins(conf);
  const s = await inject(conf, { webdb, seeds, plugins, now: NOW });
  assert.equal({ injected: s.injected, known: s.known, filtered: s.filtered, malformed: s.malformed }, { injected: 3, known: 1, filtered: 2, malformed: 4 });
  assert.equal(
    s.problems.map((p) => p.where.replace(seeds, 'F')),
    ['F:8', 'F:9', 'F:10', 'F:12'],
  );
  assert.match(s.problems[1]!.reason, /nutch\.score must be a number, not "high"/);
  assert.match(s.problems[2]!.reason, /metadata "justaword" is not key=value/);
  const rows = pages(webdb);
  assert.equal(
    rows.map((r) => [r.url, r.host, r.status, r.score, r.fetch_interval, r.fetch_time, r.retries, r.metadata]),
    [
      ['http://127.0.2.1/', '127.0.2.1', 'db_unfetched', 1, 2592000, NOW, 0, null],
      ['http://127.0.2.2/docs/', '127.0.2.2', 'db_unfetched', 2.5, 3600, NOW, 0, '{"team":"docs"}'],
      ['http://127.0.2.4/trimmed', '127.0.2.4', 'db_unfetched', 1, 2592000, NOW, 0, null],
    ],
  );

  const again = await inject(conf, { webdb, seeds, plugins, now: NOW + 1000 });
  assert.equal([again.injected, again.known, again.filtered, again.malformed], [0, 4, 2, 4]);
  assert.equal(pages(webdb), rows, 'second inject changes nothing');
});

test('existing URLs keep their state; defaults come from the configuration', async () => {
  const webdb = path.join(tmp, 'b', 'crawl', 'webdb');
  await inject(conf, { webdb, seeds: write('b/s1.txt', 'http://127.0.2.9/\n'), now: NOW });
  const db = webDbSql(webdb);
  db.prepare("UPDATE pages SET status = 'db_fetched', score = 7 WHERE url = 'http://127.0.2.9/'").run();
  db.close();
  const c = conf.with({ 'db.score.injected': '0.5', 'db.fetch.interval.default': '1d' });
  const s = await inject(c, { webdb, seeds: write('b/s2.txt', 'http://127.0.2.9/\tnutch.score=9\nhttp://127.0.2.10/\n'), now: NOW });
  assert.equal([s.injected, s.known], [1, 1]);
  assert.equal(
    pages(webdb).map((r) => [r.url, r.status, r.score, r.fetch_interval]),
    [
      ['http://127.0.2.10/', 'db_unfetched', 0.5, 86400],
      ['http://127.0.2.9/', 'db_fetched', 7, 2592000],
    ],
  );
});

test('a seed directory: every visible file, in name order', () => {
  write('c/seeds/2.txt', 'http://127.0.2.2/\n');
  write('c/seeds/1.txt', 'http://127.0.2.1/\n');
  write('c/seeds/.hidden', 'http://127.0.2.3/\n');
  write('c/seeds/old.txt~', 'http://127.0.2.4/\n');
  const batch = readSeeds(path.join(tmp, 'c', 'seeds'));
  assert.equal(batch.lines.map((l) => l.url), ['http://127.0.2.1/', 'http://127.0.2.2/']);
});

test('seed paths that cannot work are clear errors, and nothing is created', async () => {
  fs.mkdirSync(path.join(tmp, 'd', 'empty-dir'), { recursive: true });
  const table: [string, RegExp][] = [
    [path.join(tmp, 'd', 'missing.txt'), /seed path .*missing\.txt does not exist: give a text file, or a directory of text files, with one URL per line/],
    [write('d/comments.txt', '# only a comment\n\n'), /comments\.txt holds no URL: write one URL per line/],
    [path.join(tmp, 'd', 'empty-dir'), /seed directory .*empty-dir holds no files/],
  ];
  for (const [seeds, re] of table) {
    const webdb = path.join(tmp, 'd', 'crawl', 'webdb');
    try {
      await inject(conf, { webdb, seeds });
      assert.unreachable(seeds);
    } catch (e) {
      assert.instance(e, HzError);
      assert.is((e as HzError).code, 'HZ_ERR_SEED');
      assert.match((e as Error).message, re);
    }
    assert.not.ok(fs.existsSync(webdb), 'no WebDB created');
  }
});

test('with the shipped plugin.includes (scoring plugin active) injected scores pass through injectedScore', async () => {
  const full = Conf.load({ overrides: { 'plugin.folders': path.join(tmp, 'none') } });
  const webdb = path.join(tmp, 'e', 'crawl', 'webdb');
  const s = await inject(full, { webdb, seeds: write('e/s.txt', 'http://127.0.2.1/\tnutch.score=3\n'), now: NOW });
  assert.is(s.injected, 1);
  const plugins = await loadCrawlerPlugins(full);
  assert.is(pages(webdb)[0]!.score, plugins.scoring.injectedScore('http://127.0.2.1/', 3));
});

test.run();
