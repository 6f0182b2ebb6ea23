/**
 * @module crawler/cli
 * `hazelnut <command> [args]`: global options (`-conf <dir>`, `-D name=value`),
 * then a table of commands, each a Tool loaded only when it runs. Errors a user
 * can cause print one message (and the usage, for wrong arguments) and exit
 * non-zero; anything else is a bug and prints its stack.
 */
import { Conf } from '../shared/conf.js';
import { HzError, UsageError } from '../shared/errors.js';
import type { Tool, ToolContext } from './tool.js';

interface CommandEntry {
  name: string;
  description: string;
  load: () => Promise<Tool>;
}

/** Every command, in the order `hazelnut help` lists them (Nutch's order where it has one). */
export const COMMANDS: CommandEntry[] = [
];

const GLOBAL_USAGE = `Usage: hazelnut [-conf <dir>] [-D name=value ...] <command> [args]
Run 'hazelnut help' for the list of commands, 'hazelnut <command>' for a command's usage.`;

export interface CliIo {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  tty: boolean;
  env?: NodeJS.ProcessEnv;
}

function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length), 4) + 2;
  return [
    'Usage: hazelnut [-conf <dir>] [-D name=value ...] <command> [args]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.description}`),
    `  ${'help'.padEnd(width)}list these commands`,
    '',
    'Global options:',
    '  -conf <dir>        configuration directory (default $HAZELNUT_CONF_DIR, else the package conf/)',
    '  -D name=value      override one property for this run (repeatable)',
    '',
    "Run 'hazelnut <command>' without arguments to see its usage.",
  ].join('\n');
}

/** Splits the global options off the front of argv. */
export function parseGlobal(argv: string[]): { confDir?: string; overrides: Record<string, string>; rest: string[] } {
  const overrides: Record<string, string> = {};
  let confDir: string | undefined;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-conf' || a === '--conf') {
      confDir = argv[++i];
      if (!confDir) throw new UsageError('-conf needs a directory');
    } else if (a === '-D' || a.startsWith('-D')) {
      const kv = a === '-D' ? argv[++i] : a.slice(2);
      const eq = kv?.indexOf('=') ?? -1;
      if (!kv || eq <= 0) throw new UsageError(`-D needs name=value, not ${kv ?? 'nothing'}`);
      overrides[kv.slice(0, eq)] = kv.slice(eq + 1);
    } else break;
  }
  return { confDir, overrides, rest: argv.slice(i) };
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  let command: string | undefined;
  let tool: Tool | undefined;
  try {
    const g = parseGlobal(argv);
    command = g.rest[0];
    if (!command || command === 'help' || command === '-help' || command === '--help' || command === '-h') {
      (command ? io.out : io.err).write(helpText() + '\n');
      return command ? 0 : 2;
    }
    const entry = COMMANDS.find((c) => c.name === command);
    if (!entry) {
      io.err.write(`hazelnut: unknown command '${command}'\n${GLOBAL_USAGE}\n`);
      return 2;
    }
    tool = await entry.load();
    const args = g.rest.slice(1);
    const conf = Conf.load({ confDir: g.confDir ?? io.env?.HAZELNUT_CONF_DIR, overrides: g.overrides });
    const ctx: ToolContext = { conf, out: io.out, err: io.err, tty: io.tty, confOverrides: g.overrides };
    return await tool.run(ctx, args);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err.write(`hazelnut${command ? ' ' + command : ''}: ${e.message}\n${tool ? tool.usage : GLOBAL_USAGE}\n`);
      return 2;
    }
    if (e instanceof HzError) {
      io.err.write(`hazelnut${command ? ' ' + command : ''}: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}
