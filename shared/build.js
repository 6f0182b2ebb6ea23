// The installed commands (`hazelnut`, `hazelnut-searcher`) and every thread they start run JavaScript
// built from the TypeScript sources with esbuild, not the sources compiled on load by tsx: tsx's ES
// module loader is a thread with a V8 isolate of its own in each process, its require hook a
// compiler in each worker thread, and loading through either costs about a second of start-up.
// The build lives in <package>/build/<id>/ and is made when none is fresh: when any file it was
// built from changed since (its mtime or size), or is gone. So a source edit is in the next command
// run, and two commands starting at once each build their own and the last one's becomes current
// (`build/current` is replaced by rename, a build's files never change). Where the package's folder
// cannot be written, the commands load the sources through tsx as before. `npm install` builds once
// (`prepare`); `node shared/build.js` builds by hand.
//
// A process keeps needing its build after start (commands and chunks load through import() on
// demand, worker threads start from the folder later), for as long as it runs: a crawl or a deployed
// searcher for weeks. So each process records itself in the build it runs from (`<pid>.pid`, removed
// at exit when it can be), and a build is removed, by the next build made, only once it is replaced,
// no process it recorded is alive and it was replaced some minutes ago (a process that read its name
// just before records itself a moment later). A pid reused by another process only keeps a build longer.
//
// Each entry is bundled with what it imports; packages stay external (native modules, data files).
// A module's import.meta.url (and dirname) keep naming its source file, so the files the code finds
// beside itself (conf/, the demo site, worker modules) are found from a build as from the sources.
// Each build file has a source map beside it, read only under `node --enable-source-maps` (or
// NODE_OPTIONS, which threads inherit): then a stack names the TypeScript lines. It is not on by
// default because Node then reads every map as its module loads and maps every stack it formats.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtName } from './thread-module.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The modules started by URL rather than imported: the two commands, and what a worker thread starts
 * with or loads by URL (shared/thread-module.js names them in a build).
 */
export const ENTRIES = [
  'crawler/cli.ts',
  'searcher/main.ts',
  'crawler/parse/thread.ts',
  'crawler/parse/documents/worker.js',
  'crawler/parse/documents/extract.ts',
  'crawler/index/analysis-worker.js',
  'crawler/index/page-terms.ts',
  'shared/analysis/analyzer.ts',
];

/** Builds are folders of `out` named `<ms since 1970>-<pid>`; `current` holds the newest complete one's name. */
const ID = /^(\d+)-\d+$/;
/** How long a replaced build stays at least: a process that read its name in `current` before has recorded itself by then. */
const GRACE_MS = 10 * 60_000;

/**
 * The URL of a fresh build of `entries` (paths from `root`) in `out`, building one first when there
 * is none, with this process recorded in it. The crawl benchmark builds its child process with the
 * commands' entries, in a folder of its own; `graceMs` (how long a replaced build stays at least) is for tests.
 */
export async function ensureBuild({ root = ROOT, out = path.join(root, 'build'), entries = ENTRIES, graceMs = GRACE_MS } = {}) {
  let id;
  try {
    id = fs.readFileSync(path.join(out, 'current'), 'utf8').trim();
  } catch {}
  // Recorded before the check, so that the build cannot be pruned between the two; a record this
  // process had already (from a former call) stays.
  const had = id !== undefined && records.has(recordFile(path.join(out, id)));
  if (id && record(path.join(out, id))) {
    if (fresh(root, path.join(out, id), entries)) return pathToFileURL(path.join(out, id) + '/');
    if (!had) unrecord(path.join(out, id));
  }
  return pathToFileURL(path.join(out, await build(root, out, entries, graceMs)) + '/');
}

/** The record files this process wrote, removed when it exits. */
const records = new Set();

/**
 * Records this process in the build in `dir`; false when the build is gone. Where the folder cannot
 * be written the process runs from the build unrecorded: whoever cannot record cannot prune either.
 */
function record(dir) {
  const file = recordFile(dir);
  try {
    fs.writeFileSync(file, '');
  } catch (e) {
    if (e?.code === 'ENOENT' || e?.code === 'ENOTDIR') return false;
    if (['EACCES', 'EPERM', 'EROFS'].includes(e?.code)) return true;
    throw e;
  }
  if (!process.listeners('exit').includes(unrecordAll)) process.on('exit', unrecordAll);
  records.add(file);
  return true;
}

const recordFile = (dir) => path.join(dir, `${process.pid}.pid`);

/** Best-effort: a record left by a process that died is ignored by prune once that pid is gone. */
function unrecordAll() {
  for (const f of records)
    try {
      fs.rmSync(f, { force: true });
    } catch {}
}

function unrecord(dir) {
  const file = recordFile(dir);
  records.delete(file);
  fs.rmSync(file, { force: true });
}

/** Whether the build in `dir` holds `entries` and every file it was built from is as it was. */
function fresh(root, dir, entries) {
  let built;
  try {
    built = JSON.parse(fs.readFileSync(path.join(dir, 'inputs.json'), 'utf8'));
  } catch {
    return false;
  }
  if (entries.some((e) => !built.entries.includes(e))) return false;
  for (const [file, [mtimeMs, size]] of Object.entries(built.inputs)) {
    let st;
    try {
      st = fs.statSync(path.join(root, file));
    } catch {
      return false;
    }
    if (st.mtimeMs !== mtimeMs || st.size !== size) return false;
  }
  return true;
}

/** import.meta as the source file at `rel` sees it, from a build file in a folder `up` (a relative path) below the root. */
function importMeta(up, rel, what) {
  const from = (p) => JSON.stringify(`${up}/${p}`);
  if (what === 'url') return `new URL(${from(rel)}, import.meta.url).href`;
  if (what === 'dirname') return `decodeURIComponent(new URL(${from(path.posix.dirname(rel))}, import.meta.url).pathname)`;
  if (what === 'build') return 'new URL("./", import.meta.url).href';
  throw new Error(`${rel}: import.meta.${what} has no meaning in a build`);
}

async function build(root, out, entries, graceMs) {
  const { build: esbuild } = await import('esbuild');
  const t0 = Date.now();
  const id = `${t0}-${process.pid}`;
  const tmp = path.join(out, `.${id}`);
  fs.mkdirSync(out, { recursive: true });
  const up = path.relative(tmp, root).split(path.sep).join('/');
  const sourceMeta = {
    name: 'source-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.[jt]s$/ }, async ({ path: file }) => {
        const rel = path.relative(root, file).split(path.sep).join('/');
        if (rel.startsWith('..') || rel.startsWith('node_modules/')) return undefined;
        const src = await fs.promises.readFile(file, 'utf8');
        return { contents: src.replace(/\bimport\.meta\.(\w+)/g, (_, what) => importMeta(up, rel, what)), loader: file.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(entries.map((e) => [builtName(e).slice(0, -'.js'.length), e])),
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    // The maps name the sources by path; their text is on disk beside them.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'silent',
    plugins: [sourceMeta],
  });
  // A file changed while it was read may not be what was built: its stamp then never matches.
  const inputs = {};
  const settings = [import.meta.filename, path.join(root, 'tsconfig.json')].filter((f) => fs.existsSync(f)).map((f) => path.relative(root, f));
  for (const file of [...Object.keys(result.metafile.inputs), ...settings]) {
    const st = fs.statSync(path.join(root, file));
    inputs[file] = st.mtimeMs < t0 ? [st.mtimeMs, st.size] : [0, -1];
  }
  fs.writeFileSync(path.join(tmp, 'inputs.json'), JSON.stringify({ entries, inputs }));
  record(tmp);
  fs.renameSync(tmp, path.join(out, id));
  records.delete(recordFile(tmp));
  records.add(recordFile(path.join(out, id)));
  fs.writeFileSync(path.join(out, `.current-${id}`), id);
  fs.renameSync(path.join(out, `.current-${id}`), path.join(out, 'current'));
  prune(out, graceMs);
  return id;
}

/**
 * Removes the builds replaced more than `graceMs` ago that no live process recorded itself in, and
 * what builds whose builder is dead left unfinished (`.<id>`, `.current-<id>`: the id names the builder).
 */
function prune(out, graceMs) {
  let current;
  try {
    current = fs.readFileSync(path.join(out, 'current'), 'utf8').trim();
  } catch {}
  const names = fs.readdirSync(out);
  const times = names.map((n) => Number(ID.exec(n)?.[1])).filter((t) => t > 0);
  for (const n of names) {
    const unfinished = /^\.(?:current-)?\d+-(\d+)$/.exec(n);
    const t = Number(ID.exec(n)?.[1]);
    const replaced = t > 0 && n !== current && times.some((u) => u > t && Date.now() - u > graceMs);
    if (unfinished ? !alive(Number(unfinished[1])) : replaced && !inUse(path.join(out, n))) fs.rmSync(path.join(out, n), { recursive: true, force: true });
  }
}

/** Whether a process recorded in the build in `dir` may still run. */
function inUse(dir) {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return false;
  }
  return names.some((n) => /^\d+\.pid$/.test(n) && alive(Number.parseInt(n, 10)));
}

/** Whether process `pid` exists (another user's too); a pid reused since only keeps a build longer. */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e?.code !== 'ESRCH';
  }
}

/** A command's `main` module: the build's, or the source's through tsx where no build can be written. */
export async function loadCommand(entry) {
  let dir;
  try {
    dir = await ensureBuild();
  } catch (e) {
    if (!['EACCES', 'EPERM', 'EROFS'].includes(e?.code)) throw e;
    const { register } = await import('tsx/esm/api');
    register();
    return import(pathToFileURL(path.join(ROOT, entry)).href);
  }
  return import(new URL(builtName(entry), dir).href);
}

if (import.meta.filename === process.argv[1])
  ensureBuild().catch((e) => {
    process.stderr.write(`${e.message}\n`);
    process.exitCode = 1;
  });
