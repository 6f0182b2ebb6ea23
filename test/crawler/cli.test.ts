import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMANDS, main, parseGlobal } from '../../crawler/cli.js';
import { acquireLock, lockPath } from '../../crawler/crawl-lock.js';
import { partialExitCode } from '../../shared/errors.js';
import { webDbSql } from '../fixtures/webdb-sql.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-cli-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const BIN = path.resolve('crawler/hazelnut.js');

/** Runs the real CLI; the conf dir defaults to an empty one so a developer's environment cannot leak in. */
function hz(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    timeout: 30000,
    env: { ...process.env, HAZELNUT_CONF_DIR: emptyConf, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const emptyConf = path.join(tmp, 'conf-empty');
fs.mkdirSync(emptyConf);
const seeds = path.join(tmp, 'seeds.txt');
fs.writeFileSync(seeds, 'http://127.0.2.1/\nhttp://127.0.2.2/a\nnot a url\n');

function rows(webdb: string) {
  const db = webDbSql(webdb, { readonly: true });
  try {
    return db.prepare('SELECT url, score, status FROM pages ORDER BY url').all() as { url: string; score: number; status: string }[];
  } finally {
    db.close();
  }
}

test('help lists every command; bare hazelnut and unknown commands/options exit 2', () => {
  const help = hz(['help']);
  assert.is(help.code, 0);
  for (const c of COMMANDS) assert.match(help.out, new RegExp(`^  ${c.name} +${c.description.replace(/[()[\]|.*+?]/g, '\\$&')}$`, 'm'));
  const bare = hz([]);
  assert.equal([bare.code, bare.out], [2, '']);
  assert.match(bare.err, /^Usage: hazelnut/);
  const unknown = hz(['frobnicate']);
  assert.is(unknown.code, 2);
  assert.match(unknown.err, /unknown command 'frobnicate'\nUsage: hazelnut/);
  const typo = hz(['crawll', 'urls']);
  assert.is(typo.code, 2);
  assert.match(typo.err, /^hazelnut: unknown command 'crawll'; did you mean 'crawl'\?\nUsage: hazelnut/);
  const opt = hz(['readdb', path.join(tmp, 'x'), '-stats', '-bogus']);
  assert.is(opt.code, 2);
  assert.match(opt.err, /hazelnut readdb: unknown option -bogus\nUsage: hazelnut readdb/);
  const help2 = hz(['help', 'inject']);
  assert.is(help2.code, 0);
  assert.match(help2.out, /^Usage: hazelnut inject <webdb> <url_dir\|url_file> \[-overwrite\] \[-force\]\n/);
});

test('one source for each command: the table names the module whose tool answers to that name and usage, and only the table describes it', async () => {
  for (const c of COMMANDS) {
    const tool = await c.load();
    assert.is(tool.name, c.name, `${c.name}: the tool's own name`);
    assert.ok(tool.usage.startsWith(`Usage: hazelnut ${c.name}`), `${c.name}: ${tool.usage.split('\n')[0]}`);
    assert.not.ok('description' in tool, `${c.name}: a second description beside the table's`);
    assert.ok(c.description.length > 10 && !c.description.includes('\n'), `${c.name}: one line of help`);
    const out = new PassThrough();
    let text = '';
    out.on('data', (d) => (text += String(d)));
    assert.is(await main(['help', c.name], { out, err: new PassThrough(), tty: false, env: { HAZELNUT_CONF_DIR: emptyConf } }), 0, c.name);
    assert.is(text, `${tool.usage}\n`, `hazelnut help ${c.name} prints the tool's usage`);
  }
});

test('every command run without arguments prints its usage on stderr and exits 2', async () => {
  assert.ok(COMMANDS.length >= 3);
  for (const c of COMMANDS) {
    const out = new PassThrough();
    const err = new PassThrough();
    let text = '';
    err.on('data', (d) => (text += String(d)));
    const code = await main([c.name], { out, err, tty: false, env: { HAZELNUT_CONF_DIR: emptyConf } });
    assert.is(code, 2, c.name);
    assert.match(text, new RegExp(`^hazelnut ${c.name}: missing arguments\\nUsage: hazelnut ${c.name}`), c.name);
  }
  const real = hz(['inject']);
  assert.is(real.code, 2);
  assert.match(real.err, /^hazelnut inject: missing arguments\nUsage: hazelnut inject <webdb>/);
});

test('partial success exits 0, refusing everything 1', () => {
  // [done, refused, exit code]
  const table: [number, number, number][] = [
    [2, 1, 0],
    [0, 0, 0],
    [3, 0, 0],
    [0, 2, 1],
  ];
  for (const [done, refused, code] of table) assert.is(partialExitCode(done, refused), code, `${done} done, ${refused} refused`);
});

test('global options: -conf, HAZELNUT_CONF_DIR and -D (before or after the command), -D winning', () => {
  const conf = path.join(tmp, 'conf-site');
  fs.mkdirSync(conf);
  fs.writeFileSync(
    path.join(conf, 'hazelnut-site.xml'),
    '<configuration><property><name>db.score.injected</name><value>4</value></property></configuration>',
  );
  // [args before the crawl dir, env conf dir, expected score]
  const table: [string[], string | undefined, number][] = [
    [['-conf', conf, 'inject'], undefined, 4],
    [['inject'], conf, 4],
    [['-D', 'db.score.injected=6', 'inject'], conf, 6],
    [['-conf', conf, 'inject', '-Ddb.score.injected=7'], undefined, 7],
    [['inject'], undefined, 1],
  ];
  table.forEach(([pre, envConf, score], i) => {
    const webdb = path.join(tmp, `g${i}`, 'webdb');
    const r = hz([...pre, webdb, seeds], envConf ? { HAZELNUT_CONF_DIR: envConf } : {});
    assert.is(r.code, 0, `${pre.join(' ')}: the good lines are injected, a malformed one is a warning`);
    assert.match(r.out, /^inject: 2 injected, 0 already known, 0 rejected by filters, 1 malformed \(1 seed file\)\n$/);
    assert.match(r.err, new RegExp(`${seeds.replace(/[.\\/]/g, '\\$&')}:3: "not a url" is not an absolute URL`));
    assert.equal(rows(webdb).map((p) => p.score), [score, score], pre.join(' '));
  });
  const bad = path.join(tmp, 'all-bad.txt');
  fs.writeFileSync(bad, 'not a url\nftp://127.0.2.9/\n');
  const refused = hz(['inject', path.join(tmp, 'g-bad', 'webdb'), bad]);
  assert.is(refused.code, 1, 'no line injected: a refusal');
  assert.match(refused.err, /all-bad\.txt:1: "not a url" is not an absolute URL/);
  assert.match(refused.err, /all-bad\.txt:2: ftp:\/\/127\.0\.2\.9\/ rejected by urlfilter-regex \(rule \S*regex-urlfilter\.txt:\d+\)/);
  assert.not.ok(fs.existsSync(path.join(tmp, 'g-bad')), 'nothing written, not even logs/');
  const mixed = path.join(tmp, 'mixed.txt');
  fs.writeFileSync(mixed, 'http://127.0.2.1/\nftp://127.0.2.9/\n');
  const partial = hz(['inject', path.join(tmp, 'g-mixed', 'webdb'), mixed]);
  assert.is(partial.code, 0, 'the good line is in: success with a warning');
  assert.match(partial.err, /^inject: \S*mixed\.txt:2: ftp:\/\/127\.0\.2\.9\/ rejected by urlfilter-regex \(rule \S*regex-urlfilter\.txt:\d+\)$/m);
  assert.throws(() => parseGlobal(['-D', 'novalue', 'inject']), /-D needs name=value/);
  assert.throws(() => parseGlobal(['-conf']), /-conf needs a directory/);
  assert.equal(parseGlobal(['-conf', 'c', '-D', 'a=1', '-Db=2', 'inject', 'w', '-D', 'c=3', 'u']), { confDir: 'c', overrides: { a: '1', b: '2', c: '3' }, rest: ['inject', 'w', 'u'] });
  assert.equal(parseGlobal(['inject', '-conf', 'c']).rest, ['inject', '-conf', 'c'], '-conf only before the command');
  const badConf = hz(['-conf', path.join(tmp, 'no-such-dir'), 'inject', 'a', 'b']);
  assert.is(badConf.code, 1);
  assert.match(badConf.err, /configuration directory .*no-such-dir does not exist/);
});

test('a second writer is refused while the lock is held; the WebDB stays intact; stale lock and -force', () => {
  const crawl = path.join(tmp, 'locked');
  const webdb = path.join(crawl, 'webdb');
  fs.writeFileSync(path.join(tmp, 'one.txt'), 'http://127.0.2.1/\n');
  fs.writeFileSync(path.join(tmp, 'more.txt'), 'http://127.0.2.3/\nhttp://127.0.2.4/\n');
  assert.is(hz(['inject', webdb, path.join(tmp, 'one.txt')]).code, 0);
  const before = rows(webdb);

  const release = acquireLock(crawl, 'generate');
  try {
    const r = hz(['inject', webdb, path.join(tmp, 'more.txt')]);
    assert.is(r.code, 1);
    assert.match(r.err, new RegExp(`^hazelnut inject: .*locked is locked by pid ${process.pid} \\(generate on `));
    assert.equal(rows(webdb), before, 'WebDB untouched');
  } finally {
    release();
  }

  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  fs.writeFileSync(lockPath(crawl), JSON.stringify({ pid: dead, tool: 'fetch', host: os.hostname(), started: new Date().toISOString() }));
  const stale = hz(['inject', webdb, path.join(tmp, 'more.txt')]);
  assert.is(stale.code, 1);
  assert.match(stale.err, new RegExp(`stale lock from pid ${dead} \\(fetch.*rerun with -force`));
  assert.equal(rows(webdb), before);
  const forced = hz(['inject', webdb, path.join(tmp, 'more.txt'), '-force']);
  assert.is(forced.code, 0, forced.err);
  assert.match(forced.out, /^inject: 2 injected/);
  assert.is(rows(webdb).length, 3);
  assert.not.ok(fs.existsSync(lockPath(crawl)), 'lock released');
});

test('a bad property is reported before anything is written: no WebDB, segment or log', () => {
  const dir = path.join(tmp, 'early');
  const cases: [string[], RegExp][] = [
    [['-D', 'fetcher.threads.fetch=ten'], /^hazelnut crawl: -D fetcher\.threads\.fetch: property fetcher\.threads\.fetch must be an integer, not "ten"/],
    [['-D', 'fetcher.threads.fecth=10'], /unknown property fetcher\.threads\.fecth; did you mean fetcher\.threads\.fetch\?/],
    [['-D', 'fetcher.threads.per.host=0'], /-D fetcher\.threads\.per\.host must be at least 1, not 0/],
    [['-D', 'fetcher.server.delay=-1'], /-D fetcher\.server\.delay must be at least 0, not -1/],
    [['-D', 'db.signature.class=SHA1Signature'], /db\.signature\.class in -D db\.signature\.class must be MD5Signature or TextProfileSignature/],
  ];
  for (const [defines, message] of cases) {
    const r = hz(['crawl', seeds, '-dir', dir, '-depth', '1', ...defines, '-D', 'http.agent.name=HzTest']);
    assert.is(r.code, 1, r.err);
    assert.match(r.err, message);
    assert.not.ok(fs.existsSync(dir), `nothing written for ${defines.join(' ')}`);
  }
  const site = path.join(tmp, 'conf-bad');
  fs.mkdirSync(site);
  fs.writeFileSync(path.join(site, 'hazelnut-site.xml'), '<configuration>\n<property><name>fetcher.threads.fetch</name><value>ten</value></property>\n</configuration>\n');
  const r = hz(['-conf', site, 'inject', path.join(dir, 'webdb'), seeds]);
  assert.is(r.code, 1);
  assert.match(r.err, new RegExp(`${path.join(site, 'hazelnut-site.xml').replace(/[.]/g, '\\.')}:2: property fetcher\\.threads\\.fetch must be an integer`));
  assert.not.ok(fs.existsSync(dir), 'inject wrote nothing');
});

test('readdb and plugin list through the real CLI', () => {
  const webdb = path.join(tmp, 'g0', 'webdb');
  const stats = hz(['readdb', webdb, '-stats', '-sort']);
  assert.is(stats.code, 0, stats.err);
  assert.match(stats.out, /TOTAL urls:\t2\nretry 0:\t2\nmin score:\t4\navg score:\t4\nmax score:\t4\nstatus 1 \(db_unfetched\):\t2\n   127\.0\.2\.1 :\t1\n   127\.0\.2\.2 :\t1\n/);
  const missing = hz(['readdb', webdb, '-url', 'http://127.0.2.9/']);
  assert.is(missing.code, 1);
  assert.match(missing.err, /URL not found/);
  const list = hz(['plugin', 'list']);
  assert.is(list.code, 0, list.err);
  assert.match(list.out, /^yes +urlnormalizer-basic +url-normalizer /m);
  assert.match(list.out, /^yes +urlfilter-regex +url-filter /m);
  const off = hz(['-D', 'plugin.excludes=urlfilter-regex', 'plugin', 'list']);
  assert.match(off.out, /^no +urlfilter-regex +url-filter /m);
  assert.is(hz(['plugin', 'show']).code, 2);
});

test('output cut short by a reader that stops (| head) ends quietly, exit 0', () => {
  const webdb = path.join(tmp, 'pipe', 'webdb');
  const seeds = path.join(tmp, 'pipe-seeds.txt');
  fs.writeFileSync(seeds, Array.from({ length: 3000 }, (_, i) => `http://127.0.2.${(i % 250) + 1}/page/${i}`).join('\n') + '\n');
  assert.is(hz(['inject', webdb, seeds]).code, 0);
  // head exits after one line; the dump keeps writing into the closed pipe.
  const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" readdb "${webdb}" -dump - | head -n 1`], { encoding: 'utf8', timeout: 60_000 });
  assert.match(r.stdout, /^http:\/\/127\.0\.2\./);
  assert.not.match(r.stderr, /EPIPE|Unhandled/, r.stderr);
  assert.is(r.status, 0);
});

test.run();
