/**
 * Runs `hazelnut <args>` in this process through the CLI's `main`, as the
 * binary does, with an optional piped stdin; and once as a real child
 * process, for what only the binary wires up.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../../crawler/cli.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** A temporary configuration directory holding `files` (name → content); removed by `cleanup`. */
export function tempConf(files: Record<string, string> = {}): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-checkers-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export async function hz(args: string[], opts: { confDir: string; stdin?: string }): Promise<CliRun> {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.on('data', (d) => (o += String(d)));
  err.on('data', (d) => (e += String(d)));
  const input = opts.stdin === undefined ? undefined : Readable.from([opts.stdin]);
  const code = await main(args, { out, err, tty: false, env: { HAZELNUT_CONF_DIR: opts.confDir }, in: input });
  return { code, out: o, err: e };
}

const BIN = path.resolve(import.meta.dirname, '../../../crawler/hazelnut.js');

/** The real `hazelnut` binary with `stdin` piped in (or a terminal-less empty stdin). */
export function hzBin(args: string[], opts: { confDir: string; stdin?: string }): CliRun {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    input: opts.stdin ?? '',
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, HAZELNUT_CONF_DIR: opts.confDir },
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}
