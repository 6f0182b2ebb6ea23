/**
 * Crash safety, tool by tool: each writing tool of the pipeline is run as the
 * real CLI and killed with SIGKILL at a random point, KILLS times in a row on
 * a copy of the crawl directory as the uninterrupted pipeline had it before
 * that tool; after every kill the WebDB, every segment and
 * every index must open and every stored record must read back whole, and a
 * WebDB that updatedb, invertlinks or linkrank was changing must be as before
 * the tool or as after it, never between. Then
 * the tool runs to the end, and what the crawl directory holds must equal
 * what an uninterrupted run of the same pipeline produced. A small tmpfs (when
 * this runs as root and can mount one) shows a full disk ending a tool with a
 * clear message and nothing corrupt.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isFolded } from '../../crawler/folded-index.js';
import { currentIndex } from '../../shared/index/publish.js';
import { openIndex } from '../../shared/index/reader.js';
import { isStale, lockPath, readLock } from '../../shared/lockfile.js';
import { listSegments, Segment } from '../../segments/segment.js';
import { SummariesFile } from '../../segments/summaries.js';
import { startTestWeb, type TestWeb } from '../fixtures/testweb.js';

const KILLS = Number(process.env.HZ_CRASH_KILLS ?? 20);
const BIN = path.resolve('crawler/hazelnut.js');
const HOSTS = 4;
const PAGES = 60;
const DEFINES = ['-D', 'http.agent.name=HzCrash', '-D', 'fetcher.server.delay=0', '-D', 'fetcher.threads.per.host=2', '-D', 'http.timeout=5000'];

let web: TestWeb;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-crash-'));

test.before(async () => {
  const hosts: Record<string, { pages: Record<string, string> }> = {};
  for (let h = 0; h < HOSTS; h++) {
    const pages: Record<string, string> = {};
    for (let i = 0; i < PAGES; i++)
      pages[`/p${i}`] = `<title>host ${h} page ${i}</title><p>words ${i} ${h} ${'lorem '.repeat(i % 7)}</p><a href="/p${(i + 1) % PAGES}">next</a><a href="/p${(i * 7) % PAGES}">jump</a>`;
    hosts[`h${h}`] = { pages };
  }
  web = await startTestWeb({ block: '127.0.12', hosts });
});

test.after(async () => {
  await web?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Step {
  tool: string;
  args: (crawl: string) => string[];
}

/** The pipeline of writing tools, in order; the segment is the crawl's only one (looked up when the step runs). */
const seg = (crawl: string) => path.join(crawl, 'segments', listSegments(path.join(crawl, 'segments'))[0]!);
/** Tools that change the WebDB in one transaction: after any kill it is as before them or as after them, never between. */
const ATOMIC = new Set(['updatedb', 'invertlinks', 'linkrank']);
const STEPS: Step[] = [
  { tool: 'inject', args: (c) => [`${c}/webdb`, `${tmp}/seeds.txt`] },
  { tool: 'generate', args: (c) => [`${c}/webdb`, `${c}/segments`] },
  { tool: 'fetch', args: (c) => [seg(c), '-noParsing'] },
  { tool: 'parse', args: (c) => [seg(c)] },
  { tool: 'updatedb', args: (c) => [`${c}/webdb`, seg(c)] },
  { tool: 'invertlinks', args: (c) => [`${c}/webdb`, '-dir', `${c}/segments`] },
  { tool: 'linkrank', args: (c) => [`${c}/webdb`] },
  { tool: 'index', args: (c) => [`${c}/webdb`, '-dir', `${c}/segments`] },
  { tool: 'dedup', args: (c) => ['-dir', `${c}/segments`] },
  { tool: 'merge', args: (c) => [`${c}/index`, '-dir', `${c}/segments`] },
  { tool: 'prune', args: (c) => [`${c}/segments`, '-before', '29991231', '-force'] },
];

/** Runs a tool to its end. Asynchronously: the test web answers from this process's event loop. */
function run(step: Step, crawl: string): Promise<{ status: number | null; out: string; ms: number }> {
  const t = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...DEFINES, step.tool, ...step.args(crawl)], { env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out, ms: Date.now() - t });
    });
  });
}

const logSize = (crawl: string, tool: string) => {
  try {
    return fs.statSync(path.join(crawl, 'logs', `${tool}.log`)).size;
  } catch {
    return 0;
  }
};

/**
 * Starts the tool and kills it with SIGKILL after `ms`. Resolves with whether
 * it was still running, and whether it was at work by then (it had written to
 * its log, which it does once its stores are open) rather than still starting.
 */
function runAndKill(step: Step, crawl: string, ms: number): Promise<{ killed: boolean; working: boolean }> {
  return new Promise((resolve) => {
    const before = logSize(crawl, step.tool);
    const child = spawn(process.execPath, [BIN, ...DEFINES, step.tool, ...step.args(crawl)], { stdio: 'ignore' });
    let exited = false;
    let working = false;
    child.on('exit', (_code, signal) => resolve({ killed: !exited && signal === 'SIGKILL', working }));
    setTimeout(() => {
      exited = child.exitCode !== null;
      working = logSize(crawl, step.tool) > before;
      child.kill('SIGKILL');
    }, ms);
  });
}

/** Opens an index and reads every stored document; returns how many. */
async function readIndex(dir: string): Promise<number> {
  const r = await openIndex(dir);
  for (let i = 0; i < r.meta.docCount; i++) if (!r.doc(i).url) throw new Error(`${dir}: document ${i} has no URL`);
  return r.meta.docCount;
}

/** Opens every store of the crawl and reads every record; throws naming what is broken. */
async function checkIntact(crawl: string): Promise<number> {
  let records = 0;
  const sqliteOk = (file: string) => {
    if (!fs.existsSync(file)) return;
    const db = new Database(file);
    try {
      const r = db.pragma('integrity_check', { simple: true });
      if (r !== 'ok') throw new Error(`${file}: integrity_check says ${r}`);
    } finally {
      db.close();
    }
  };
  sqliteOk(path.join(crawl, 'webdb', 'webdb.sqlite'));
  const segments = path.join(crawl, 'segments');
  if (fs.existsSync(segments))
    for (const name of listSegments(segments)) {
      const dir = path.join(segments, name);
      for (const f of fs.readdirSync(dir)) if (f.endsWith('.sqlite') || f.endsWith('.db')) sqliteOk(path.join(dir, f));
      const s = Segment.open(dir);
      try {
        for (const f of s.fetches()) {
          records++;
          if (!f.url || !f.status) throw new Error(`${dir}: a fetch record without url or status`);
        }
        for (const c of s.contents()) {
          records++;
          if (!Buffer.isBuffer(c.bytes)) throw new Error(`${dir}: content of ${c.url} does not read back`);
        }
        for (const p of s.parses()) {
          records++;
          if (typeof p.text !== 'string') throw new Error(`${dir}: parse of ${p.url} does not read back`);
        }
      } finally {
        s.close();
      }
      // A folded segment index (its pages in the crawl's index, checked below) keeps only its summaries file.
      if (isFolded(dir)) SummariesFile.open(path.join(dir, 'index'))?.close();
      else if (fs.existsSync(path.join(dir, 'index'))) records += await readIndex(path.join(dir, 'index'));
    }
  // A merge killed before its first publish leaves an index root without CURRENT (a build directory at most): nothing to open yet.
  if (currentIndex(path.join(crawl, 'index'))) records += await readIndex(path.join(crawl, 'index'));
  return records;
}

async function indexCounts(dir: string): Promise<string> {
  const m = (await openIndex(dir)).meta;
  return `${m.docCount} docs, ${m.deletedCount} deleted, ${m.termCount} terms`;
}

/** What the crawl holds, without times and segment names: the result an uninterrupted run is compared with. */
async function snapshot(crawl: string): Promise<unknown> {
  const out: Record<string, unknown> = {};
  const file = path.join(crawl, 'webdb', 'webdb.sqlite');
  if (fs.existsSync(file)) {
    const db = new Database(file, { readonly: true });
    try {
      out.pages = db.prepare('SELECT url, status, retries, round(score, 6) AS score, signature, round(link_score, 6) AS ls FROM pages ORDER BY url').all();
      out.links = db.prepare('SELECT COUNT(*) AS n FROM links').get();
      out.inlinks = db.prepare('SELECT target, source, anchor FROM inlinks ORDER BY target, source').all();
      out.applied = db.prepare('SELECT tool, COUNT(*) AS n FROM applied GROUP BY tool ORDER BY tool').all();
    } finally {
      db.close();
    }
  }
  const segments = path.join(crawl, 'segments');
  const segs = [];
  for (const name of fs.existsSync(segments) ? listSegments(segments) : []) {
    const s = Segment.open(path.join(segments, name));
    try {
      const index = path.join(segments, name, 'index');
      segs.push({
        fetchlist: [...s.fetchlist()].map((e) => e.url).sort(),
        fetched: [...s.fetches()].map((f) => `${f.url} ${f.status}`).sort(),
        parsed: [...s.parses()].map((p) => `${p.url} ${p.status} ${p.title}`).sort(),
        index: isFolded(path.join(segments, name)) ? 'folded' : fs.existsSync(index) ? await indexCounts(index) : null,
      });
    } finally {
      s.close();
    }
  }
  out.segments = segs;
  const index = path.join(crawl, 'index');
  out.index = fs.existsSync(index) ? await indexCounts(index) : null;
  return out;
}

/** The first few places where two snapshots differ, as `path: want ≠ got` lines. */
function difference(want: unknown, got: unknown, at = '', out: string[] = []): string[] {
  if (out.length >= 5) return out;
  if (JSON.stringify(want) === JSON.stringify(got)) return out;
  if (want && got && typeof want === 'object' && typeof got === 'object') {
    const keys = new Set([...Object.keys(want), ...Object.keys(got)]);
    for (const k of keys) difference((want as Record<string, unknown>)[k], (got as Record<string, unknown>)[k], `${at}.${k}`, out);
    return out;
  }
  out.push(`${at}: ${JSON.stringify(want)} ≠ ${JSON.stringify(got)}`);
  return out;
}

test('SIGKILL at random points of every writing tool: stores always open, records intact, the rerun ends as an uninterrupted run', async () => {
  fs.writeFileSync(path.join(tmp, 'seeds.txt'), Array.from({ length: HOSTS }, (_, h) => Array.from({ length: PAGES }, (_, i) => web.url(`h${h}`, `/p${i}`))).flat().join('\n') + '\n');
  const ref = path.join(tmp, 'ref');
  const crawl = path.join(tmp, 'killed');
  const report: string[] = [];
  for (const step of STEPS) {
    // Each tool's loop starts from what the uninterrupted pipeline had before that tool.
    fs.rmSync(crawl, { recursive: true, force: true });
    if (fs.existsSync(ref)) fs.cpSync(ref, crawl, { recursive: true });
    const before = JSON.stringify(await snapshot(ref));
    const r = await run(step, ref);
    assert.is(r.status, 0, `reference ${step.tool}: ${r.out}`);
    if (step.tool === 'fetch') {
      const s = Segment.open(seg(ref));
      try {
        const failed = [...s.fetches()].filter((f) => f.status !== 'fetch_success').map((f) => `${f.url} ${f.status} ${f.message}`);
        assert.equal(failed, [], 'the uninterrupted fetch fetched every page');
      } finally {
        s.close();
      }
    }
    const want = JSON.stringify(await snapshot(ref));
    let killedMidway = 0;
    let killedAtWork = 0;
    let maxRecords = 0;
    for (let k = 0; k < KILLS; k++) {
      // Node and tsx take most of the first few hundred ms; the rest of the run is the tool's work.
      const at = Math.round(150 + Math.random() * Math.max(200, r.ms * 0.9));
      const k1 = await runAndKill(step, crawl, at);
      if (k1.killed) killedMidway++;
      if (k1.killed && k1.working) killedAtWork++;
      try {
        maxRecords = Math.max(maxRecords, await checkIntact(crawl));
      } catch (e) {
        assert.unreachable(`${step.tool}, kill ${k + 1} at ${at} ms: ${(e as Error).message}`);
      }
      if (ATOMIC.has(step.tool)) {
        const now = JSON.stringify(await snapshot(crawl));
        if (now !== before && now !== want)
          assert.unreachable(`${step.tool}, kill ${k + 1} at ${at} ms: the WebDB is half-changed: ${difference(JSON.parse(want), JSON.parse(now)).join('; ')}`);
      }
      const lock = readLock(crawl);
      if (lock) {
        assert.ok(isStale(lock), `${step.tool}: the lock of a killed run is stale`);
        fs.rmSync(lockPath(crawl)); // what -force does with a stale lock
      }
    }
    // A kill that came after the tool had finished leaves nothing to do: the tool says so.
    const done = await run(step, crawl);
    assert.ok(done.status === 0 || /already (fetched|parsed|applied|indexed)|awaiting 'hazelnut updatedb'/.test(done.out), `${step.tool} after ${KILLS} kills: ${done.out}`);
    await checkIntact(crawl);
    assert.equal(difference(JSON.parse(want), await snapshot(crawl)), [], `${step.tool}: the rerun after kills ends where an uninterrupted run does`);
    report.push(`${step.tool}: ${KILLS} kills, ${killedMidway} before it ended, ${killedAtWork} of them at work; ${maxRecords} records checked at most; a whole run ${r.ms} ms`);
  }
  console.log(`  ${report.join('\n  ')}`);
});

test('a full disk (a 2 MiB tmpfs) ends a tool with a clear message and nothing corrupt', async () => {
  const mnt = path.join(tmp, 'full');
  fs.mkdirSync(mnt);
  const mounted = process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mnt]).status === 0;
  if (!mounted) {
    console.log('  full disk: skipped (mounting a tmpfs needs root)');
    return;
  }
  try {
    const many = Array.from({ length: 60_000 }, (_, i) => `${web.url('h0', `/filler/${i}/${'x'.repeat(40)}`)}`).join('\n');
    fs.writeFileSync(path.join(tmp, 'many.txt'), many + '\n');
    const r = spawnSync(process.execPath, [BIN, ...DEFINES, 'inject', `${mnt}/webdb`, `${tmp}/many.txt`], { encoding: 'utf8', timeout: 120_000 });
    const out = `${r.stdout}${r.stderr}`;
    assert.is.not(r.status, 0, out);
    assert.match(out, /no space left|disk.*full|SQLITE_FULL|ENOSPC/i);
    assert.not.match(out, /^\s+at /m, `a message, not a stack trace: ${out}`);
    await checkIntact(mnt);
  } finally {
    spawnSync('umount', [mnt]);
  }
});

test.run();
