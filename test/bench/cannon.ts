/**
 * The search benchmarks' load generators: autocannon, in the bench's own
 * process, and wrk (Debian's package, a C program) as a process of its own,
 * which takes less of the cores the server shares with it. Each sends 16
 * connections for 6 s against one URL, or cycles through a list of paths on it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export interface CannonResult {
  rps: number;
  /** Requests answered. */
  requests: number;
  /** Milliseconds: whole for autocannon, as it reports them; to the hundredth for wrk. */
  p50: number;
  p99: number;
  errors: number;
}

const CONNECTIONS = 16;
const SECONDS = 6;

export async function cannon(url: string, paths?: string[]): Promise<CannonResult> {
  let i = 0;
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    ...(paths ? { requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths[i++ % paths.length] }) }] } : {}),
  } as autocannon.Options);
  return { rps: r.requests.average, requests: r.requests.total, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

const WRK = '/usr/bin/wrk';
/** Why wrk cannot run here, or undefined when it can. */
export const wrkMissing = (): string | undefined => (fs.existsSync(WRK) ? undefined : `${WRK} not installed (\`apt-get install wrk\`)`);

/** A wrk latency figure (`850.00us`, `18.86ms`, `1.02s`) in ms. */
function wrkMs(s: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(s);
  if (!m) throw new Error(`wrk printed a latency it does not explain: ${s}`);
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2] as 'us' | 'ms' | 's'];
}

/** wrk (one thread) against `url`, cycling through `paths` when given (a Lua script of them). */
export async function wrk(url: string, paths?: string[]): Promise<CannonResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-wrk-'));
  try {
    const args = ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency'];
    if (paths) {
      const script = path.join(dir, 'paths.lua');
      fs.writeFileSync(script, `local paths = {${paths.map((p) => JSON.stringify(p)).join(',')}}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i])\nend\n`);
      args.push('-s', script);
    }
    const out = await new Promise<string>((resolve, reject) =>
      execFile(WRK, [...args, url], { timeout: (SECONDS + 30) * 1000 }, (e, stdout, stderr) => (e ? reject(new Error(`wrk: ${e.message} ${stderr}`)) : resolve(stdout))),
    );
    const field = (re: RegExp) => {
      const m = re.exec(out);
      if (!m) throw new Error(`wrk printed no ${re.source}:\n${out}`);
      return m[1]!;
    };
    const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)?.slice(1).reduce((n, x) => n + Number(x), 0) ?? 0;
    return {
      rps: Number(field(/Requests\/sec:\s+([\d.]+)/)),
      requests: Number(field(/(\d+) requests in/)),
      p50: wrkMs(field(/ 50%\s+(\S+)/)),
      p99: wrkMs(field(/ 99%\s+(\S+)/)),
      errors: errors + Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A latency in ms as the tables print it: whole as autocannon reports them, else to the tenth. */
export const wholeMs = (x: number) => (x < 1 ? '<1' : Number.isInteger(x) ? String(x) : x.toFixed(1));
