/**
 * The commands run a build of the sources (shared/build.js): a build never
 * runs stale code, commands starting at once each get a whole build, a
 * replaced build stays while a process runs from it, a built
 * module still finds the files beside its source, and the installed
 * `hazelnut` crawls and indexes with its parse and analysis threads loaded
 * from the build, tsx nowhere.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ENTRIES, ensureBuild } from '../../shared/build.js';
import { builtName } from '../../shared/thread-module.js';
import { runNode } from '../fixtures/run-bin.js';
import { startTestWeb } from '../fixtures/testweb.js';
import { hzBin, tempConf } from '../crawler/checkers/run-cli.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-build-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A package of two modules: `app/main.ts` imports `lib/value.ts`, which says where it is. */
function tinyPackage(dir: string, value: number) {
  fs.mkdirSync(path.join(dir, 'app'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } }));
  fs.writeFileSync(path.join(dir, 'app', 'main.ts'), "export { value, url, dirname } from '../lib/value.js';\n");
  writeValue(dir, value);
}
function writeValue(dir: string, value: number) {
  fs.writeFileSync(
    path.join(dir, 'lib', 'value.ts'),
    `export const value: number = ${value};\nexport const url = import.meta.url;\nexport const dirname = import.meta.dirname;\n`,
  );
}
const load = async (build: URL) => (await import(new URL(builtName('app/main.ts'), build).href)) as { value: number; url: string; dirname: string };

test('a build is rebuilt when a source it was built from changes, and not otherwise', async () => {
  const pkg = path.join(tmp, 'pkg');
  tinyPackage(pkg, 1);
  const opts = { root: pkg, entries: ['app/main.ts'] };
  const first = await ensureBuild(opts);
  const m = await load(first);
  assert.is(m.value, 1);
  assert.is(m.url, pathToFileURL(path.join(pkg, 'lib', 'value.ts')).href, 'import.meta.url names the source');
  assert.is(m.dirname, path.join(pkg, 'lib'));
  assert.is((await ensureBuild(opts)).href, first.href, 'nothing changed: the same build');

  writeValue(pkg, 22);
  const second = await ensureBuild(opts);
  assert.is.not(second.href, first.href);
  assert.is((await load(second)).value, 22, 'the edit is in the next run');
  assert.ok(fs.existsSync(new URL(builtName('app/main.ts'), first)), 'the replaced build stays for commands still running from it');

  fs.rmSync(path.join(pkg, 'lib', 'value.ts'));
  const gone = await ensureBuild(opts).then(
    () => 'built',
    (e: Error) => e.message,
  );
  assert.match(gone, /Could not resolve "\.\.\/lib\/value\.js"/, 'a source gone is not served from the old build');
});

test('commands starting at once on a stale build each get a whole, fresh build', async () => {
  const pkg = path.join(tmp, 'race');
  tinyPackage(pkg, 1);
  await ensureBuild({ root: pkg, entries: ['app/main.ts'] });
  writeValue(pkg, 7);
  const script = `
    const { ensureBuild } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'shared', 'build.js')).href)});
    const b = await ensureBuild({ root: ${JSON.stringify(pkg)}, entries: ['app/main.ts'] });
    const m = await import(new URL('app.main.js', b).href);
    process.stdout.write(String(m.value));`;
  const runs = await Promise.all(Array.from({ length: 4 }, () => runNode(['--input-type=module', '-e', script])));
  for (const r of runs) assert.equal([r.code, r.out], [0, '7'], r.err);
  const current = fs.readFileSync(path.join(pkg, 'build', 'current'), 'utf8');
  assert.is((await load(new URL(`${current}/`, pathToFileURL(path.join(pkg, 'build') + '/')))).value, 7);
});

test('a replaced build stays while a process runs from it, and goes with the next build after it exits', async () => {
  const pkg = path.join(tmp, 'live');
  tinyPackage(pkg, 1);
  const opts = { root: pkg, entries: ['app/main.ts'], graceMs: 0 };
  // Builds A, runs from it and loads its module only when asked, as a command loads its chunks on demand.
  const script = `
    const { ensureBuild } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'shared', 'build.js')).href)});
    const b = await ensureBuild(${JSON.stringify(opts)});
    process.stdout.write(b.href + '\\n');
    process.stdin.once('data', async () => process.stdout.write(String((await import(new URL('app.main.js', b).href)).value) + '\\n'));
    setTimeout(() => process.exit(3), 30_000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const lines: string[] = [];
  const line = (n: number) =>
    new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no line ${n} from the child: ${lines}`)), 20_000);
      const check = () => {
        if (lines.length < n) return;
        clearTimeout(t);
        child.stdout.off('data', check);
        resolve(lines[n - 1]!);
      };
      child.stdout.on('data', check);
      check();
    });
  child.stdout.on('data', (d: Buffer) => lines.push(...String(d).split('\n').filter(Boolean)));
  try {
    const a = new URL(await line(1));
    writeValue(pkg, 2);
    const b = await ensureBuild(opts);
    writeValue(pkg, 3);
    await ensureBuild(opts);
    assert.is.not(b.href, a.href);
    assert.ok(fs.existsSync(new URL(builtName('app/main.ts'), a)), 'the child still runs from A');
    child.stdin.write('load\n');
    assert.is(await line(2), '1', 'the child loads a module from A after A was replaced twice');
    assert.ok(fs.existsSync(b), 'B is kept: this process runs from it');

    child.kill('SIGKILL'); // no exit handler: its record stays, naming a pid that is gone
    await exited;
    const unfinished = path.join(pkg, 'build', `.${Date.now()}-${child.pid}`);
    fs.mkdirSync(unfinished);
    writeValue(pkg, 4);
    await ensureBuild(opts);
    assert.not.ok(fs.existsSync(a), 'A goes with the next build once its process is gone');
    assert.not.ok(fs.existsSync(unfinished), 'what a dead builder left goes too');
    assert.ok(fs.existsSync(b), 'B stays while this process lives');
  } finally {
    child.kill('SIGKILL');
  }
});

test('under --enable-source-maps a stack from a build names the source line', async () => {
  const pkg = path.join(tmp, 'maps');
  fs.mkdirSync(path.join(pkg, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(pkg, 'lib', 'fail.ts'), "export function fail(): never {\n  const why: string = 'on purpose';\n  throw new Error(why);\n}\n");
  const script = `
    const { ensureBuild } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'shared', 'build.js')).href)});
    const b = await ensureBuild({ root: ${JSON.stringify(pkg)}, entries: ['lib/fail.ts'] });
    try { (await import(new URL('lib.fail.js', b).href)).fail(); } catch (e) { process.stdout.write(e.stack); }`;
  const r = await runNode(['--enable-source-maps', '--input-type=module', '-e', script]);
  assert.ok(r.out.includes(`${path.join(pkg, 'lib', 'fail.ts')}:3`), r.out + r.err);
});

test('every module a thread starts with or loads by URL is an entry of the build', () => {
  const named: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.[jt]s$/.test(e.name) && !e.name.endsWith('.d.ts')) {
        const src = fs.readFileSync(p, 'utf8');
        for (const m of src.matchAll(/threadModule\(new URL\('([^']+)', import\.meta\.url\)\)/g)) named.push(path.relative(root, path.resolve(path.dirname(p), m[1]!)));
        if (/threadModule\(import\.meta\.url\)/.test(src)) named.push(path.relative(root, p));
      }
    }
  };
  for (const room of ['crawler', 'searcher', 'segments', 'shared']) walk(path.join(root, room));
  assert.ok(named.length >= 5, `found the thread modules: ${named}`);
  assert.equal(
    named.filter((n) => !ENTRIES.includes(n)),
    [],
  );
  const src = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');
  assert.not.match(src('crawler/index/analysis-pool.ts') + src('crawler/parse/documents/pool.ts'), /new Worker\(new URL/, 'threads start from threadModule');
});

test('hazelnut crawls and indexes with its threads loaded from the build, without tsx', async () => {
  const web = await startTestWeb({
    block: '127.0.9',
    hosts: {
      docs: {
        pages: Object.fromEntries(
          Array.from({ length: 12 }, (_, i) => [
            i === 0 ? '/' : `/p${i}.html`,
            `<html lang="en"><head><title>Page ${i}</title></head><body><p>Lantern number ${i} glows.</p>${i === 0 ? Array.from({ length: 11 }, (_, j) => `<a href="/p${j + 1}.html">p${j + 1}</a>`).join(' ') : ''}</body></html>`,
          ]),
        ),
      },
    },
  });
  // A thread that loaded tsx's require hook (as a thread of the sources does) fails the crawl.
  const noTsx = path.join(tmp, 'no-tsx.cjs');
  fs.writeFileSync(
    noTsx,
    `const M = require('node:module'); const r = M._resolveFilename;
     M._resolveFilename = function (req, ...a) { if (/^tsx(\\/|$)/.test(req)) throw new Error('tsx loaded from ' + (a[0] && a[0].filename)); return r.call(this, req, ...a); };`,
  );
  const conf = tempConf();
  try {
    const seeds = path.join(tmp, 'seeds.txt');
    fs.writeFileSync(seeds, `${web.url('docs', '/')}\n`);
    const dir = path.join(tmp, 'crawl');
    const defines = ['http.agent.name=hzTest', 'fetcher.server.delay=0', 'fetcher.parse.threads=1', 'indexer.threads=1'].flatMap((d) => ['-D', d]);
    const r = await runNode(['-r', noTsx, path.join(root, 'crawler', 'hazelnut.js'), ...defines, 'crawl', seeds, '-dir', dir, '-depth', '2'], {
      env: { ...process.env, HAZELNUT_CONF_DIR: conf.dir },
    });
    assert.is(r.code, 0, r.out + r.err);
    assert.match(r.out, /documents indexed\s+12/);
    const search = hzBin(['search', dir, 'lantern', '-n', '20'], { confDir: conf.dir });
    assert.is(search.code, 0, search.err);
    assert.is(search.out.match(/\/p\d+\.html/g)?.length, 11, search.out);
  } finally {
    conf.cleanup();
    await web.stop();
  }
});

test.run();
