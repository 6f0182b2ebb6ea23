/**
 * What the tests of `npm start` share: `npm start` itself in a process group
 * of its own, a free port, how a process ended, and whether anything of its
 * process group or its servers is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().once('error', reject);
    s.listen(0, host, () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** How the process ended: `0`, `1`, `SIGINT`…, or `running` after ms. */
export function exited(p: ChildProcess, ms: number): Promise<string> {
  return new Promise((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve(String(p.exitCode ?? p.signalCode));
    const t = setTimeout(() => resolve('running'), ms);
    p.once('exit', (code, signal) => {
      clearTimeout(t);
      resolve(String(code ?? signal));
    });
  });
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch {
    return true;
  }
}

export interface NpmStart {
  proc: ChildProcess;
  out: () => string;
  err: () => string;
}

/** `npm start -- <args>` as a user runs it, leading a process group of its own (killGroup ends what is left). */
export function npmStart(args: string[]): NpmStart {
  const proc = spawn('npm', ['start', '--', ...args], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d));
  proc.stderr!.on('data', (d: Buffer) => (err += d));
  return { proc, out: () => out, err: () => err };
}

/** Waits until `what` holds, the process ends, or `ms` pass; whether `what` holds. */
export async function until(what: () => boolean, proc: ChildProcess, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!what() && proc.exitCode === null && proc.signalCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return what();
}

/** Waits (at most `ms`) for the whole group to end; whether it did. */
export async function groupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return !groupAlive(pgid);
}

/** SIGKILL to whatever is left of the group. */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}
