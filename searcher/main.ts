/**
 * @module searcher/main
 * `hazelnut-searcher [-conf <dir>] [-D name=value ...] -dir <crawl> [-port <n>] [-host <address>]`:
 * the searcher as its own program, for a machine that holds only a copy of
 * a crawl's index/ and segments/.
 */
import { Conf } from '../shared/conf.js';
import { HzError, UsageError } from '../shared/errors.js';
import { serveUntilSignal } from './tools.js';

const USAGE = 'Usage: hazelnut-searcher [-conf <dir>] [-D name=value ...] -dir <crawl_dir> [-port <n>] [-host <address>]';

export interface MainIo {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

/** Takes `-conf` and `-D` off the arguments; the rest are the server's. */
function splitConf(argv: string[]): { confDir?: string; overrides: Record<string, string>; rest: string[] } {
  const overrides: Record<string, string> = {};
  const rest: string[] = [];
  let confDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-conf') {
      confDir = argv[++i];
      if (!confDir) throw new UsageError('-conf needs a directory');
    } else if (a === '-D' || (a.startsWith('-D') && a.includes('='))) {
      const kv = a === '-D' ? argv[++i] : a.slice(2);
      const eq = kv?.indexOf('=') ?? -1;
      if (!kv || eq <= 0) throw new UsageError(`-D needs name=value, not ${kv ?? 'nothing'}`);
      overrides[kv.slice(0, eq)] = kv.slice(eq + 1);
    } else rest.push(a);
  }
  return { confDir, overrides, rest };
}

export async function main(argv: string[], io: MainIo): Promise<number> {
  try {
    if (argv.includes('-help') || argv.includes('--help') || argv.includes('-h')) {
      io.out.write(USAGE + '\n');
      return 0;
    }
    const g = splitConf(argv);
    const conf = Conf.load({ confDir: g.confDir ?? io.env?.HAZELNUT_CONF_DIR, overrides: g.overrides });
    return await serveUntilSignal({ conf, out: io.out, err: io.err, tty: false, confOverrides: g.overrides }, g.rest);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err.write(`hazelnut-searcher: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    if (e instanceof HzError) {
      io.err.write(`hazelnut-searcher: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}
