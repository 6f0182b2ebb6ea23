/**
 * A throwaway PostgreSQL 15 server for the cluster tests: Debian's binaries
 * (`postgresql-15`, or HAZELNUT_PG_BIN), a data directory in a temp dir,
 * listening on 127.0.0.1 only, on an ephemeral port, no Unix socket. It runs
 * as a non-root user: when the tests run as root (CI) the server runs as
 * `postgres` through `runuser`, with the temp dir handed over to it. `stop()`
 * stops the server and removes the dir; a test file that starts a server
 * stops it in `test.after`, and the process's exit stops it too.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const PG_BIN = process.env.HAZELNUT_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const SUPERUSER = 'hazelnut';
/** The server's own account when the tests run as root. */
const SERVER_USER = 'postgres';

export interface PgServer {
  /** postgresql://hazelnut@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  dir: string;
  /** A new empty database, sorting text by the ICU locale `icuLocale` when given, or a copy of database `from`; returns its URL. */
  createDatabase(name: string, icuLocale?: string, from?: string): Promise<string>;
  /** Restarts the server as an operator would (pg_ctl restart, fast shutdown: every connection is cut). */
  restart(): void;
  /** Stops every process of the server (SIGSTOP): it neither accepts nor answers. Returns the function that lets it go on (SIGCONT). */
  pause(): () => void;
  /** Stops the server (immediate shutdown) and removes its directory. Idempotent. */
  stop(): void;
}

const asRoot = process.getuid?.() === 0;

/** Runs a server binary as the non-root user. */
function run(bin: string, args: string[], opts: { allowFail?: boolean } = {}): { status: number | null; out: string } {
  const cmd = asRoot ? 'runuser' : path.join(PG_BIN, bin);
  const argv = asRoot ? ['-u', SERVER_USER, '--', path.join(PG_BIN, bin), ...args] : args;
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`;
  if (r.status !== 0 && !opts.allowFail) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}): ${out}`);
  return { status: r.status, out };
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** The postmaster's pid (postmaster.pid) and its children's (from /proc). */
function serverPids(data: string): number[] {
  const main = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // The parent pid is the field after the state, past the command name in parentheses.
        return Number(fs.readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) \S+ /, '').split(' ')[0]) === main;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [main, ...children];
}

/** Starts a server; throws with the server's log when it cannot. */
export async function startPostgres(): Promise<PgServer> {
  if (!fs.existsSync(path.join(PG_BIN, 'postgres'))) throw new Error(`no PostgreSQL server binaries in ${PG_BIN} (apt-get install postgresql-15, or set HAZELNUT_PG_BIN)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  if (asRoot) execFileSync('chown', [`${SERVER_USER}:`, dir]);
  let stopped = false;
  let started = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    if (started) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'], { allowFail: true });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', stop);
  try {
    run('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    // The port is free when asked; another process may take it before the server binds, so try a few.
    let port = 0;
    for (let attempt = 0; attempt < 3 && !started; attempt++) {
      port = await freePort();
      const opts = `-h 127.0.0.1 -p ${port} -k '' -F -c max_connections=60 -c shared_buffers=32MB`;
      const r = run('pg_ctl', ['-D', data, '-l', log, '-o', opts, '-w', '-t', '60', 'start'], { allowFail: true });
      started = r.status === 0;
    }
    if (!started) throw new Error(`PostgreSQL did not start: ${fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : 'no log'}`);
    const url = `postgresql://${SUPERUSER}@127.0.0.1:${port}/postgres`;
    return {
      url,
      port,
      dir,
      async createDatabase(name, icuLocale, from) {
        if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
        if (from !== undefined && !/^[a-z_][a-z0-9_]*$/.test(from)) throw new Error(`bad database name ${from}`);
        if (icuLocale !== undefined && !/^[a-zA-Z-]+$/.test(icuLocale)) throw new Error(`bad ICU locale ${icuLocale}`);
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          await c.query(`CREATE DATABASE ${name}${from ? ` TEMPLATE ${from}` : icuLocale ? ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${icuLocale}'` : ''}`);
        } finally {
          await c.end();
        }
        return `postgresql://${SUPERUSER}@127.0.0.1:${port}/${name}`;
      },
      restart() {
        run('pg_ctl', ['-D', data, '-l', log, '-m', 'fast', '-w', '-t', '60', 'restart']);
      },
      pause() {
        const pids = serverPids(data);
        for (const pid of pids) process.kill(pid, 'SIGSTOP');
        return () => {
          for (const pid of pids) process.kill(pid, 'SIGCONT');
        };
      },
      stop,
    };
  } catch (e) {
    stop();
    throw e;
  }
}
