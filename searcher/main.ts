/**
 * @module searcher/main
 * `hazelnut-searcher [-conf <dir>] [-D name=value ...] -dir <crawl> [-port <n>] [-host <address>] [-workers <n>]`:
 * the searcher as its own program, for a machine that holds only a copy of
 * a crawl's index/ and segments/; with `-shard` (and `-index <dir>`) one
 * shard of a larger index, and with `-shards host:port,...` the broker in
 * front of the shards.
 */
import { loadConf } from '../shared/plugin/properties.js';
import { reportError, takeGlobal, type GlobalOptions } from '../shared/command.js';
import { serveUntilSignal } from './tools.js';

const USAGE =
  'Usage: hazelnut-searcher [-conf <dir>] [-D name=value ...] (-dir <crawl_dir> [-index <dir>] [-shard] | -shards <host:port[|replica],...>) [-port <n>] [-host <address>] [-workers <n>]';

export interface MainIo {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

/** Takes `-conf` and `-D` off the arguments; the rest are the server's. */
function splitConf(argv: string[]): GlobalOptions & { rest: string[] } {
  const g: GlobalOptions = { overrides: {} };
  const rest: string[] = [];
  for (let i = 0; i < argv.length; ) {
    const used = takeGlobal(argv, i, g);
    if (used) i += used;
    else rest.push(argv[i++]!);
  }
  return { ...g, rest };
}

export async function main(argv: string[], io: MainIo): Promise<number> {
  try {
    if (argv.includes('-help') || argv.includes('--help') || argv.includes('-h')) {
      io.out.write(USAGE + '\n');
      return 0;
    }
    const g = splitConf(argv);
    const conf = await loadConf({ confDir: g.confDir ?? io.env?.HAZELNUT_CONF_DIR, overrides: g.overrides });
    return await serveUntilSignal({ conf, out: io.out, err: io.err, tty: false, confOverrides: g.overrides }, g.rest);
  } catch (e) {
    return reportError(e, io.err, 'hazelnut-searcher', USAGE);
  }
}
