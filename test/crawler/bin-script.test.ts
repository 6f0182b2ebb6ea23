/**
 * bin/hazelnut, the command as npm installs it, run through a symlink as npm
 * links it: it becomes node running crawler/hazelnut.js in the same process
 * (its pid, stdin, output and exit status), with glibc's mmap threshold set
 * unless the caller set one, as node sees it (a module given to node through
 * NODE_OPTIONS prints it). Linux: it reads the process's /proc entry.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(import.meta.dirname, '..', '..');
const CONF = path.join(root, 'test', 'fixtures', 'conf');

interface Run {
  code: number | null;
  out: string;
  err: string;
  /** The process's executable once it ran node (read from /proc while it waited on stdin). */
  exe?: string;
  /** MALLOC_MMAP_THRESHOLD_ as node saw it. */
  threshold?: string;
}

/** A module node loads first (NODE_OPTIONS): it prints MALLOC_MMAP_THRESHOLD_ as the process has it. */
const PRINT_THRESHOLD = '--import=data:text/javascript,console.error(`threshold:${process.env.MALLOC_MMAP_THRESHOLD_}`)';

/** Runs the script through a symlink with `args`, reads its executable once it is node, then writes `stdin` and ends it. */
async function runLinked(args: string[], opts: { stdin: string; env?: Record<string, string> }): Promise<Run> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bin-'));
  const link = path.join(dir, 'hazelnut');
  fs.symlinkSync(path.join(root, 'bin', 'hazelnut'), link);
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, HAZELNUT_CONF_DIR: CONF, NODE_OPTIONS: PRINT_THRESHOLD };
    delete env.MALLOC_MMAP_THRESHOLD_;
    const p = spawn(link, args, { env: { ...env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const run: Run = { code: null, out: '', err: '' };
    p.stdout.on('data', (d) => (run.out += d));
    p.stderr.on('data', (d) => (run.err += d));
    const closed = new Promise<number | null>((resolve) => p.on('close', resolve));
    const timer = setTimeout(() => p.kill('SIGKILL'), 30_000);
    // sh execs node: wait (bounded) until the pid runs node.
    for (let i = 0; i < 300 && p.exitCode === null; i++) {
      let exe: string;
      try {
        exe = fs.readlinkSync(`/proc/${p.pid}/exe`, { encoding: 'utf8' });
      } catch {
        break; // it has ended already
      }
      if (path.basename(exe).startsWith('node')) {
        run.exe = exe;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    p.stdin.end(opts.stdin);
    run.code = await closed;
    clearTimeout(timer);
    run.threshold = /^threshold:(.*)$/m.exec(run.err)?.[1];
    return run;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('the command runs as node itself with an mmap threshold of 64 KB; stdin, output and exit status are its own', async () => {
  const r = await runLinked(['normalizerchecker'], { stdin: 'HTTP://Example.COM:80/a/../b\n' });
  assert.is(r.code, 0, r.err);
  assert.is(r.exe, fs.realpathSync(process.execPath));
  assert.is(r.threshold, '65536');
  assert.match(r.out, 'http://example.com/b');
});

test('a threshold the caller set is left as it is', async () => {
  const r = await runLinked(['normalizerchecker'], { stdin: 'http://example.com/\n', env: { MALLOC_MMAP_THRESHOLD_: '131072' } });
  assert.is(r.code, 0, r.err);
  assert.is(r.threshold, '131072');
});

test("a failing command's exit status and message come through", async () => {
  const r = await runLinked(['nosuchcommand'], { stdin: '' });
  assert.is(r.code, 2);
  assert.match(r.err, 'nosuchcommand');
});

test.run();
