/**
 * Running the baseline engines' programs: one bounded child process at a
 * time, output collected, and Debian's packages installed when a program
 * is missing (the benchmark reports an engine as not installed rather than
 * failing where apt is not available).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface RunResult {
  code: number | null;
  out: string;
  err: string;
}

export function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => p.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    p.on('error', (e) => (clearTimeout(timer), reject(e)));
    p.on('close', (code) => (clearTimeout(timer), resolve({ code, out, err })));
  });
}

/** Fails with the command line and its error output when the program did not exit 0. */
export async function runOk(cmd: string, args: string[], opts: Parameters<typeof run>[2] = {}): Promise<RunResult> {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}: ${(r.err || r.out).slice(-2000)}`);
  return r;
}

const exists = (file: string) => fs.existsSync(file);

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((d) => d && exists(path.join(d, name)));
}

/**
 * True when every program is there, after installing `packages` with apt-get
 * if one is missing and apt-get is usable (root); `why` receives the reason
 * when not.
 */
export async function ensureInstalled(programs: string[], packages: string[], why: (reason: string) => void): Promise<boolean> {
  const present = () => programs.every((p) => (p.startsWith('/') ? exists(p) : onPath(p)));
  if (present()) return true;
  if (!onPath('apt-get') || process.getuid?.() !== 0) {
    why(`not installed (${packages.join(', ')}) and apt-get is not available`);
    return false;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env, timeoutMs: 300_000 });
  let r = await install();
  if (r.code !== 0) {
    await run('apt-get', ['update'], { env, timeoutMs: 300_000 });
    r = await install();
  }
  if (present()) return true;
  why(`not installed: apt-get install ${packages.join(' ')} failed (${(r.err || r.out).trim().split('\n').pop()})`);
  return false;
}
