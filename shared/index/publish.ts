/**
 * @module shared/index/publish
 * Atomic publishing of indexes. A merged index root (`<crawl>/index/`) holds
 * generation directories (`000001/`, `000002/`, …) and a CURRENT file naming
 * the live one. A new generation is built in a `.tmp-*` directory, renamed to
 * its final name, and only then does CURRENT change, by renaming a new
 * pointer file over it — one atomic step, so a reader (or a merge killed at
 * any instant) sees either the old index or the new one, never half of one.
 * Superseded generations stay for a grace period so a searcher still
 * serving one can finish; the searcher notices a new index when
 * `currentIndex()` returns another generation.
 * A per-segment index (`segments/<name>/index/`) is replaced whole the same way.
 * `readIndexMeta` finds the live generation's meta and refuses an older format.
 */
import fs from 'node:fs';
import path from 'node:path';
import { crawlPaths } from '../crawl-dir.js';
import { HzError, isHzError } from '../errors.js';
import { processAlive } from '../lockfile.js';
import { INDEX_FILES, OLDEST_INDEX, readIndexFile } from './format.js';
import type { IndexMeta } from './types.js';

export const CURRENT_FILE = 'CURRENT';
const TMP_PREFIX = '.tmp-';
const GENERATION = /^\d{6,}$/;

export interface CurrentIndex {
  /** The index root holding CURRENT. */
  root: string;
  /** The live generation's directory. */
  dir: string;
  generation: string;
}

function readCurrent(root: string): CurrentIndex | undefined {
  let gen: string;
  try {
    gen = fs.readFileSync(path.join(root, CURRENT_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
  return GENERATION.test(gen) ? { root, dir: path.join(root, gen), generation: gen } : undefined;
}

/**
 * The live index under an index root (`<crawl>/index`) or a crawl directory
 * (whose `index/` is then the root); undefined when none was published.
 */
export function currentIndex(dir: string): CurrentIndex | undefined {
  return readCurrent(dir) ?? readCurrent(crawlPaths(dir).index);
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function generations(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).filter((n) => GENERATION.test(n)).sort();
}

/** Removes build directories `<prefix>…-<pid>` left by killed runs (their process is gone). */
export function removeStaleTmp(dir: string, prefix: string): void {
  if (!fs.existsSync(dir)) return;
  for (const n of fs.readdirSync(dir)) {
    const m = n.startsWith(prefix) ? /-(\d+)$/.exec(n) : null;
    if (m && !processAlive(Number(m[1]))) fs.rmSync(path.join(dir, n), { recursive: true, force: true });
  }
}

export interface PublishOptions {
  /** How long a superseded generation is kept for searchers still on it, ms. */
  graceMs: number;
}

/**
 * Builds a new generation under `root` with `build(tmpDir)` and makes it
 * current. If `build` throws, nothing changes and the build directory goes.
 */
export async function publishIndex(root: string, build: (dir: string) => Promise<void>, opts: PublishOptions): Promise<CurrentIndex> {
  fs.mkdirSync(root, { recursive: true });
  removeStaleTmp(root, TMP_PREFIX);
  const gens = generations(root);
  const last = Math.max(0, ...gens.map(Number), Number(readCurrent(root)?.generation ?? 0));
  const generation = String(last + 1).padStart(6, '0');
  const tmp = path.join(root, `${TMP_PREFIX}${generation}-${process.pid}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp);
  try {
    await build(tmp);
    fsyncDir(tmp);
    fs.renameSync(tmp, path.join(root, generation));
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  const pointer = path.join(root, `${CURRENT_FILE}.${process.pid}`);
  fs.writeFileSync(pointer, generation + '\n');
  const fd = fs.openSync(pointer, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(pointer, path.join(root, CURRENT_FILE));
  fsyncDir(root);
  removeSuperseded(root, opts.graceMs);
  return { root, dir: path.join(root, generation), generation };
}

/**
 * Deletes generations that are neither current nor the one just before it,
 * once their successor has been live longer than the grace period.
 */
export function removeSuperseded(root: string, graceMs: number, now = Date.now()): string[] {
  const cur = readCurrent(root)?.generation;
  if (!cur) return [];
  const gens = generations(root);
  const i = gens.indexOf(cur);
  const removed: string[] = [];
  for (let k = 0; k < i - 1; k++) {
    const successor = path.join(root, gens[k + 1]!);
    if (now - fs.statSync(successor).mtimeMs > graceMs) {
      fs.rmSync(path.join(root, gens[k]!), { recursive: true, force: true });
      removed.push(gens[k]!);
    }
  }
  return removed;
}

/**
 * Replaces directory `final` with a freshly built one: build beside it, then
 * two renames. A crash between them leaves only `final.old`, which the next
 * replacement first puts back.
 */
export async function replaceDir(final: string, build: (dir: string) => Promise<void>): Promise<void> {
  const parent = path.dirname(final);
  const base = path.basename(final);
  const old = `${final}.old`;
  if (!fs.existsSync(final) && fs.existsSync(old)) fs.renameSync(old, final);
  removeStaleTmp(parent, `${base}${TMP_PREFIX}`);
  const tmp = path.join(parent, `${base}${TMP_PREFIX}${process.pid}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  try {
    await build(tmp);
    fsyncDir(tmp);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(final)) fs.renameSync(final, old);
  fs.renameSync(tmp, final);
  fsyncDir(parent);
  fs.rmSync(old, { recursive: true, force: true });
}

/** The meta of an index directory, or of an index root's CURRENT generation, without loading the index. */
export function readIndexMeta(dir: string): { indexDir: string; meta: IndexMeta } {
  const cur = currentIndex(dir);
  const indexDir = cur ? cur.dir : dir;
  // A merge killed before its first publish leaves only a build directory.
  if (!cur && !fs.existsSync(path.join(indexDir, INDEX_FILES.meta))) {
    throw new HzError('HZ_ERR_NOT_FOUND', `${dir} holds no index yet (no CURRENT generation and no ${INDEX_FILES.meta} file); run 'hazelnut index' and 'hazelnut merge'`);
  }
  let meta: IndexMeta;
  try {
    meta = JSON.parse(readIndexFile(indexDir, INDEX_FILES.meta).toString('utf8')) as IndexMeta;
  } catch (e) {
    if (isHzError(e)) throw e;
    throw new HzError('HZ_ERR_INDEX_FORMAT', `index meta ${path.join(indexDir, INDEX_FILES.meta)} is not valid JSON`);
  }
  if (!(meta.version >= OLDEST_INDEX))
    throw new HzError(
      'HZ_ERR_INDEX_FORMAT',
      `index ${indexDir} has format version ${meta.version}; this hazelnut reads versions ${OLDEST_INDEX} and later: ` +
        `rebuild it with 'hazelnut index <crawl>/webdb -dir <crawl>/segments', 'hazelnut dedup -dir <crawl>/segments' and 'hazelnut merge <crawl>/index -dir <crawl>/segments'`,
    );
  return { indexDir, meta };
}
