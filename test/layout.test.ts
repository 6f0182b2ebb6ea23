/**
 * The layout is the architecture: imports flow one way. shared/ imports none
 * of the other rooms, segments/ only shared/, and the searcher never the
 * crawler, so a search machine needs only index/ and segments/. Each store
 * has one owner: SQL lives only in crawler/webdb/ (the WebDB and updatedb's
 * scratch file) and segments/ (a segment), and only they open a database.
 * Each plugin folder registers its own plugins, and nothing they import leads
 * back to the module that gathers them. A name names one thing: no two source
 * files share a base name but for the role names and backend parts. No
 * source file runs past 350 lines but a table or a format, and the longer
 * files listed to be split. Tools reach the WebDB through its seam alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(import.meta.dirname, '..');
const ROOMS = ['shared', 'segments', 'crawler', 'searcher'] as const;
const ALLOWED: Record<(typeof ROOMS)[number], string[]> = {
  shared: ['shared'],
  segments: ['shared', 'segments'],
  crawler: ['shared', 'segments', 'crawler'],
  searcher: ['shared', 'segments', 'searcher'],
};

/** The `hazelnut` command lists `serve` and `search` too: that one lazy import is the only crawler → searcher edge. */
function isCliFrontDoor(file: string, spec: string): boolean {
  return path.relative(root, file) === path.join('crawler', 'cli.ts') && spec === '../searcher/tools.js';
}

function* sources(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.(ts|js|mjs)$/.test(e.name)) yield p;
  }
}

function importsOf(file: string, opts: { runtime?: boolean } = {}): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/(?:^|[^\w.])(?:import|export)\s([^'"]*?)from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm))
    if (!(opts.runtime && m[1] !== undefined && /^type\s/.test(m[1]))) out.push((m[2] ?? m[3] ?? m[4])!);
  return out.filter((s) => s.startsWith('.'));
}

test('imports flow one way between shared, segments, crawler and searcher', () => {
  const violations: string[] = [];
  let files = 0;
  for (const room of ROOMS) {
    const dir = path.join(root, room);
    if (!fs.existsSync(dir)) continue;
    for (const file of sources(dir)) {
      files++;
      for (const spec of importsOf(file)) {
        const target = path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep)[0]!;
        if (isCliFrontDoor(file, spec)) continue;
        if (!ALLOWED[room].includes(target)) violations.push(`${path.relative(root, file)} imports ${spec}`);
      }
    }
  }
  assert.ok(files > 5, 'found the sources');
  assert.equal(violations, []);
});

test('only the CLI front door reaches the searcher, and only its tools module', () => {
  assert.ok(isCliFrontDoor(path.join(root, 'crawler', 'cli.ts'), '../searcher/tools.js'));
  assert.not.ok(isCliFrontDoor(path.join(root, 'crawler', 'crawl.ts'), '../searcher/tools.js'));
  assert.not.ok(isCliFrontDoor(path.join(root, 'crawler', 'cli.ts'), '../searcher/search.js'));
});

test('the import scan sees relative imports, dynamic ones included', () => {
  const tmp = path.join(fs.mkdtempSync(path.join(root, 'test', '.tmp-')), 'x.ts');
  try {
    fs.writeFileSync(tmp, "import a from '../crawler/x.js';\nconst b = await import('../crawler/y.js');\nimport fs from 'node:fs';\nimport '../crawler/z.js';\n");
    assert.equal(importsOf(tmp), ['../crawler/x.js', '../crawler/y.js', '../crawler/z.js']);
  } finally {
    fs.rmSync(path.dirname(tmp), { recursive: true, force: true });
  }
});

/**
 * Every relative import edge between source modules that runs (type-only
 * imports left out: an interface beside the backends that implement it is
 * no cycle), resolved to repository paths without extension.
 */
function moduleGraph(opts: { types?: boolean } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const room of ROOMS)
    for (const file of sources(path.join(root, room))) {
      const from = path.relative(root, file).replace(/\.(ts|js|mjs)$/, '');
      graph.set(
        from,
        importsOf(file, { runtime: !opts.types }).map((spec) => path.relative(root, path.resolve(path.dirname(file), spec)).replace(/\.(ts|js|mjs)$/, '')),
      );
    }
  return graph;
}

/** The rooms besides shared/ that use each shared module, directly or through other shared modules, types included. */
function sharedUsers(graph: Map<string, string[]>): Map<string, Set<string>> {
  const users = new Map<string, Set<string>>();
  for (const [from, tos] of graph) {
    const room = from.split('/')[0]!;
    if (room === 'shared') continue;
    const seen = new Set<string>();
    const todo = [...tos];
    while (todo.length > 0) {
      const n = todo.pop()!;
      if (seen.has(n) || !n.startsWith('shared/')) continue;
      seen.add(n);
      users.set(n, (users.get(n) ?? new Set()).add(room));
      todo.push(...(graph.get(n) ?? []));
    }
  }
  return users;
}

/** Rooms of shared/ that are one unit whatever uses each file: the plugin API and the index format (written by the crawler, read by the searcher). */
const SHARED_UNITS = ['shared/plugin/', 'shared/index/'];

test('shared/ holds what two rooms use: a module only the crawler (or the searcher) needs lives in that room', () => {
  const graph = new Map([...moduleGraph({ types: true })].map(([k, v]) => [slashed(k), v.map(slashed)]));
  const users = sharedUsers(graph);
  const lonely = [...graph.keys()]
    .filter((m) => m.startsWith('shared/') && !m.endsWith('.d') && !SHARED_UNITS.some((u) => m.startsWith(u)))
    .filter((m) => (users.get(m)?.size ?? 0) < 2)
    .map((m) => `${m}: used by ${[...(users.get(m) ?? [])].join(', ') || 'no room'}`);
  assert.equal(lonely, []);
  const example = sharedUsers(new Map([['crawler/a', ['shared/x']], ['shared/x', ['shared/y']], ['searcher/b', ['shared/y']]]));
  assert.equal([...example].map(([m, r]) => `${m} ${[...r].join(',')}`), ['shared/x crawler', 'shared/y crawler,searcher'], 'the scan follows shared modules through each other');
});

/** The import cycles of a graph, each as the path around it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (!graph.has(m)) continue;
      if (state.get(m) === 'open') found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n);
  return found;
}

test('no module imports itself back through others', () => {
  assert.equal(cycles(moduleGraph()).map((c) => c.join(' → ')), []);
  assert.equal(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])), [['a', 'b', 'c', 'a']], 'the scan finds a cycle');
});

/** The modules a module reaches at run time, itself left out. */
function reach(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(graph.get(from) ?? [])];
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    todo.push(...(graph.get(n) ?? []));
  }
  return seen;
}

/** The one module that has every plugin folder register its plugins, and the entry points that import it. */
const BUILTINS = 'crawler/builtins';
const PLUGIN_ENTRIES = ['crawler/cli', 'crawler/parse/thread'];
const slashed = (p: string) => p.split(path.sep).join('/');

test('each plugin folder registers its own plugins; nothing a plugin or the registry imports leads back to them', () => {
  const graph = new Map([...moduleGraph()].map(([k, v]) => [slashed(k), v.map(slashed)]));
  const unregistered: string[] = [];
  const folders = new Set<string>();
  for (const file of sources(path.join(root, 'crawler'))) {
    const rel = slashed(path.relative(root, file)).replace(/\.(ts|js)$/, '');
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/export const (\w+): PluginDescriptor</g)) {
      const folder = path.posix.dirname(rel);
      const registration = path.join(root, folder, 'plugins.ts');
      const src = fs.existsSync(registration) ? fs.readFileSync(registration, 'utf8') : '';
      if (!new RegExp(`registerPlugins\\([^)]*\\b${m[1]}\\b`).test(src)) unregistered.push(`${rel}: ${m[1]} is not registered by ${folder}/plugins.ts`);
      folders.add(`${folder}/plugins`);
    }
  }
  assert.ok(folders.size >= 5, `found the plugin folders: ${[...folders].join(', ')}`);
  assert.equal(unregistered, []);
  const misplaced: string[] = [];
  for (const [from, tos] of graph) {
    const file = ['.ts', '.js', '.mjs'].map((ext) => path.join(root, from + ext)).find((f) => fs.existsSync(f))!;
    const registers = /\bregisterPlugins\(/.test(fs.readFileSync(file, 'utf8'));
    if (registers && !folders.has(from) && !from.startsWith('shared/plugin/')) misplaced.push(`${from} registers plugins outside a plugin folder's plugins.ts`);
    for (const to of tos) {
      if (folders.has(to) && from !== BUILTINS) misplaced.push(`${from} imports ${to}: only ${BUILTINS} gathers the plugin folders`);
      if (to === BUILTINS && !PLUGIN_ENTRIES.includes(from)) misplaced.push(`${from} imports ${BUILTINS}: only an entry point does`);
    }
  }
  assert.equal(misplaced, []);
  for (const low of ['shared/plugin/registry', 'shared/plugin/extension-points', 'crawler/plugin/chains', ...folders]) {
    const back = [...reach(graph, low)].filter((m) => m === BUILTINS || (folders.has(m) && m !== low));
    assert.equal(back, [], `${low} leads back to ${back.join(', ')}`);
  }
});

/** A command module: it defines a Tool. */
const isCommand = (file: string) => /:\s*Tool\s*=\s*\{/.test(fs.readFileSync(file, 'utf8'));
/** The commands that run other commands in sequence. */
const SEQUENCERS = ['crawler/crawl', 'crawler/prune/tool'];

test('one rule for names: a command is <command>.ts or tool.ts in its folder, never index.ts; commands do not import commands', () => {
  const commands = new Set<string>();
  const misnamed: string[] = [];
  for (const room of ROOMS)
    for (const file of sources(path.join(root, room))) {
      const rel = path.relative(root, file);
      if (!isCommand(file)) continue;
      commands.add(rel.replace(/\.(ts|js)$/, ''));
      const dir = path.dirname(rel);
      const topLevel = dir === 'crawler' || dir === path.join('crawler', 'checkers') || rel === path.join('searcher', 'tools.ts');
      if (path.basename(rel) === 'index.ts' || !(topLevel || path.basename(rel) === 'tool.ts')) misnamed.push(rel);
    }
  assert.ok(commands.size >= 15, `found ${commands.size} commands`);
  assert.equal(misnamed, []);
  const sideways: string[] = [];
  for (const [from, tos] of moduleGraph())
    if (commands.has(from) && !SEQUENCERS.includes(from.split(path.sep).join('/')))
      for (const to of tos) if (commands.has(to) && to !== from) sideways.push(`${from} imports ${to}`);
  assert.equal(sideways, []);
});

/** A source file's base name: its file name without the extension; a `.d.ts` is one with the `.js` it declares. */
const baseName = (file: string) => path.basename(file).replace(/\.(d\.ts|ts|js|mjs)$/, '');

/**
 * The names a file may share with others because each names the same role in
 * its own folder: `tool` a folder's command, `plugins` the built-in plugins the
 * folder registers.
 */
const ROLE_NAMES = new Set(['tool', 'plugins']);
/** A WebDB backend's file is named after the part of the WebDB it holds or the command it stores for, the same in every backend. */
const BACKEND_PART = new RegExp(`^crawler/webdb/[\\w-]+/[\\w-]+\\.ts$`);

/** The base names more than one source file has, with the files, outside the role names and backend parts. */
function sharedNames(files: string[]): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const f of files) {
    const name = baseName(f);
    if (ROLE_NAMES.has(name) || BACKEND_PART.test(f)) continue;
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  for (const [name, list] of byName) if (new Set(list.map((f) => f.replace(/\.d\.ts$/, '.js'))).size < 2) byName.delete(name);
  return byName;
}

test('one name, one meaning: no two source files share a base name, but for role names and backend parts', () => {
  const files = ROOMS.flatMap((room) => [...sources(path.join(root, room))].map((f) => slashed(path.relative(root, f))));
  assert.equal([...sharedNames(files)].map(([n, list]) => `${n}: ${list.join(', ')}`), []);
  assert.ok(files.filter((f) => baseName(f) === 'index').length === 0, 'an index.ts holds code under a name that says nothing');
});

test('the name rule: role names and backend parts may repeat, a .d.ts goes with its .js, other names may not', () => {
  const cases: [string[], string[]][] = [
    [['crawler/fetch/tool.ts', 'crawler/parse/tool.ts', 'crawler/fetch/plugins.ts', 'crawler/url/plugins.ts'], []],
    [['crawler/webdb/sqlite/open.ts', 'crawler/webdb/postgres/open.ts'], []],
    [['shared/build.js', 'shared/build.d.ts'], []],
    [['crawler/prune.ts', 'searcher/prune.ts'], ['prune']],
    [['crawler/webdb/webdb.ts', 'shared/webdb.ts'], ['webdb']],
    [['crawler/sitemap/index.ts', 'crawler/parse/index.ts'], ['index']],
  ];
  for (const [files, names] of cases) assert.equal([...sharedNames(files).keys()], names, files.join(' '));
});

/** How long a source file may be: past this, a file holds more than one thing. */
const MAX_LINES = 350;
/** Files that may be longer: one table or one format, read as a whole. */
const ONE_TABLE_OR_FORMAT: Record<string, string> = {
  'crawler/demo/authoring/handbook.ts': "the demo handbook's pages, one table of text",
  'shared/index/format.ts': "the index's on-disk format, one format",
};
/** Files still longer than MAX_LINES that hold more than one thing, to be split: the list takes no new file. */
const TO_SPLIT: string[] = [];

test(`no source file over ${MAX_LINES} lines but one table or one format, and those listed to be split`, () => {
  const long: string[] = [];
  for (const room of ROOMS)
    for (const file of sources(path.join(root, room))) {
      const rel = slashed(path.relative(root, file));
      const lines = fs.readFileSync(file, 'utf8').split('\n').length - 1;
      if (lines > MAX_LINES && !(rel in ONE_TABLE_OR_FORMAT) && !TO_SPLIT.includes(rel)) long.push(`${rel}: ${lines} lines`);
    }
  assert.equal(long, []);
});

/** Where the statements of each store live; nothing else holds SQL or opens a database. */
const STORES = [path.join('crawler', 'webdb') + path.sep, 'segments' + path.sep];
const SQL = /\b(?:SELECT\s[\s\S]{0,300}?\bFROM\s+\w|INSERT\s+(?:OR\s+\w+\s+)?INTO\s+\w|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s+\w|CREATE\s+(?:TABLE|INDEX)\s|PRAGMA\s|\.pragma\s*\(|\.prepare\s*\(\s*['"`])/;
/** The demo intranet's page text, which talks about SQL to the people who read it. */
const PAGE_TEXT = path.join('crawler', 'demo', 'authoring') + path.sep;
/** The database drivers: SQLite for the stores, PostgreSQL (`pg`) for the WebDB's second backend. */
const DRIVER = /(?:from\s*|import\(\s*)['"](?:better-sqlite3|pg)['"]/;

function storeViolations(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  const m = SQL.exec(src);
  if (m) out.push(`${path.relative(root, file)} holds SQL: ${m[0].split('\n')[0]}`);
  if (DRIVER.test(src)) out.push(`${path.relative(root, file)} opens a database`);
  return out;
}

test('SQL and database connections only in the stores: crawler/webdb/, segments/ and updatedb\'s stage', () => {
  const violations: string[] = [];
  let stores = 0;
  for (const room of ROOMS) {
    for (const file of sources(path.join(root, room))) {
      const rel = path.relative(root, file);
      if (STORES.some((s) => rel.startsWith(s))) {
        stores += storeViolations(file).length > 0 ? 1 : 0;
        continue;
      }
      if (!rel.startsWith(PAGE_TEXT)) violations.push(...storeViolations(file));
    }
  }
  assert.ok(stores >= 3, 'the scan sees the statements in the stores');
  assert.equal(violations, []);
});

test('the store scan sees a statement, a prepared query and a connection', () => {
  const dir = fs.mkdtempSync(path.join(root, 'test', '.tmp-'));
  try {
    const cases: [string, boolean][] = [
      ["db.prepare('SELECT url FROM parse').all();", true],
      ['const q = `SELECT COUNT(*) AS n\n  FROM fetch WHERE x = 1`;', true],
      ["run('INSERT OR REPLACE INTO applied (tool) VALUES (?)');", true],
      ["s('UPDATE pages SET link_score = ?');", true],
      ["import Database from 'better-sqlite3';", true],
      ["import pg from 'pg';", true],
      ["const { Client } = await import('pg');", true],
      ["import pgFormat from 'pg-format-x';", false],
      ["db.pragma('journal_mode = WAL');", true],
      ["const m = { method: 'DELETE', path: '/v3/keys/{id}' }; // select a key, update it", false],
      ["const re = /x/.exec('SELECT');", false],
    ];
    for (const [src, bad] of cases) {
      const f = path.join(dir, 'x.ts');
      fs.writeFileSync(f, src);
      assert.is(storeViolations(f).length > 0, bad, src);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** The WebDB's seam: which backend holds a WebDB is known in crawler/webdb/ alone; a tool asks the WebDB (webDbKind, sharesPartitionsRemotely, withWebDbLock). */
const WEBDB_ROOM = 'crawler/webdb/';
const BACKENDS = /^crawler\/webdb\/(?:postgres|sqlite)\//;
const BACKEND_TEST = /\bisPostgresUrl\b/;

/** How a module outside crawler/webdb/ reaches past the seam: a backend's module imported, or the backend test named. */
function seamBreaks(from: string, tos: string[], src: string): string[] {
  if (from.startsWith(WEBDB_ROOM)) return [];
  const out = tos.filter((to) => BACKENDS.test(to)).map((to) => `${from} imports ${to}`);
  if (BACKEND_TEST.test(src)) out.push(`${from} asks isPostgresUrl`);
  return out;
}

test('tools reach the WebDB through its seam: no backend module or backend test outside crawler/webdb/', () => {
  const breaks: string[] = [];
  for (const [from, tos] of moduleGraph({ types: true })) {
    const file = ['.ts', '.js', '.mjs'].map((ext) => path.join(root, from + ext)).find((f) => fs.existsSync(f))!;
    breaks.push(...seamBreaks(slashed(from), tos.map(slashed), fs.readFileSync(file, 'utf8')));
  }
  assert.equal(breaks, []);
});

test('the seam rule: a backend import or test is one outside crawler/webdb/, the factory and interface are not', () => {
  const cases: [string, string[], string, number][] = [
    ['crawler/generate', ['crawler/webdb/webdb', 'crawler/webdb/interface'], 'sharesPartitionsRemotely(dir)', 0],
    ['crawler/tool-run', ['crawler/webdb/postgres/lock'], '', 1],
    ['crawler/crawl', ['crawler/webdb/sqlite/open'], 'if (!isPostgresUrl(webdb))', 2],
    ['crawler/webdb/webdb', ['crawler/webdb/postgres/open'], 'isPostgresUrl(dirOrUrl)', 0],
    ['searcher/x', [], 'isPostgresUrlish', 0],
  ];
  for (const [from, tos, src, n] of cases) assert.is(seamBreaks(from, tos, src).length, n, `${from} ${src}`);
});

/** A crawl directory's parts joined onto a path: only shared/crawl-dir.ts spells them. */
const LAYOUT_PATH = /path\.join\([^)]*['"](?:webdb|segments|index|logs|\.lock|webdb\.sqlite|segment\.sqlite)['"]/;

test('the crawl directory and a segment are laid out in shared/crawl-dir.ts alone', () => {
  const violations: string[] = [];
  for (const room of ROOMS)
    for (const file of sources(path.join(root, room))) {
      const rel = path.relative(root, file);
      if (rel === path.join('shared', 'crawl-dir.ts')) {
        assert.ok(LAYOUT_PATH.test(fs.readFileSync(file, 'utf8')), 'the scan sees the layout');
        continue;
      }
      const m = LAYOUT_PATH.exec(fs.readFileSync(file, 'utf8'));
      if (m) violations.push(`${rel}: ${m[0]}`);
    }
  assert.equal(violations, []);
});

test.run();
