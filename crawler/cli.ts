/**
 * @module crawler/cli
 * `hazelnut <command> [args]`: global options (`-conf <dir>`, `-D name=value`),
 * then a table of commands, each a Tool loaded only when it runs. Errors a user
 * can cause print one message (and the usage, for wrong arguments) and exit
 * non-zero; anything else is a bug and prints its stack.
 */
import { didYouMean } from '../shared/did-you-mean.js';
import { loadConf } from '../shared/plugin/properties.js';
import { configureWebDb } from './webdb/webdb.js';
import { UsageError } from '../shared/errors.js';
import { reportError, takeDefine, takeGlobal, type GlobalOptions, type Tool, type ToolContext } from '../shared/command.js';

interface CommandEntry {
  name: string;
  /** The command's one line in `hazelnut help`: written here only, so help lists the commands without loading them. */
  description: string;
  load: () => Promise<Tool>;
  /** The command runs the crawler's plugins: the plugin folders register theirs (crawler/builtins.ts) before it loads. */
  plugins?: true;
}

/** Every command, in the order `hazelnut help` lists them (Nutch's order where it has one). */
export const COMMANDS: CommandEntry[] = [
  { name: 'crawl', description: 'one-step crawler for intranets: inject, fetch rounds, index, dedup, merge', load: async () => (await import('./crawl.js')).default, plugins: true },
  { name: 'inject', description: 'inject new urls into the WebDB', load: async () => (await import('./inject.js')).default, plugins: true },
  { name: 'generate', description: 'generate a new segment to fetch from the WebDB', load: async () => (await import('./generate.js')).default, plugins: true },
  { name: 'fetch', description: 'fetch a generated segment politely (robots.txt, per-host delays), parsing inline', load: async () => (await import('./fetch/tool.js')).default, plugins: true },
  { name: 'parse', description: "parse a segment's pages", load: async () => (await import('./parse/tool.js')).default, plugins: true },
  { name: 'updatedb', description: 'update the WebDB from fetched and parsed segments', load: async () => (await import('./updatedb/tool.js')).default, plugins: true },
  { name: 'invertlinks', description: 'build the inlinks and anchors of each URL from parsed segments', load: async () => (await import('./invertlinks.js')).default, plugins: true },
  { name: 'linkrank', description: 'compute link scores (PageRank over content links) for the index boost', load: async () => (await import('./linkrank.js')).default },
  { name: 'readdb', description: 'read / dump the WebDB', load: async () => (await import('./readdb.js')).default },
  { name: 'partitions', description: 'list fetch partitions: state, holder, lease, progress and rate', load: async () => (await import('./partitions.js')).default },
  { name: 'readlinkdb', description: 'read / dump the inlinks and anchors of URLs', load: async () => (await import('./readlinkdb.js')).default },
  { name: 'readseg', description: 'read / dump segment data', load: async () => (await import('./readseg.js')).default },
  { name: 'index', description: 'build an index for each segment', load: async () => (await import('./index/tool.js')).default, plugins: true },
  { name: 'dedup', description: 'delete duplicate documents (same URL or same content) across segment indexes', load: async () => (await import('./dedup.js')).default },
  { name: 'merge', description: 'merge segment indexes into the index searched, swapped in atomically', load: async () => (await import('./merge.js')).default },
  { name: 'prune', description: 'delete segments older than a date, keeping the index consistent', load: async () => (await import('./prune/tool.js')).default },
  { name: 'report', description: 'write the crawl report: what changed, charts of statuses, hosts, fetch rate, errors, due dates and segment ages', load: async () => (await import('./report/tool.js')).default },
  { name: 'evaluate', description: "score the crawl's search on your own judged queries: MRR@10, P@1, misses, first hits changed since the last run", load: async () => (await import('./evaluate/tool.js')).default },
  { name: 'readindex', description: 'print statistics of an index', load: async () => (await import('./readindex.js')).default },
  // The front door also lists the searcher's two commands; nothing else in crawler/ reaches into searcher/.
  { name: 'serve', description: 'serve the search page, OpenSearch and JSON API over a crawl directory', load: async () => (await import('../searcher/tools.js')).serveTool },
  { name: 'search', description: 'search a crawl directory from the terminal', load: async () => (await import('../searcher/tools.js')).searchTool },
  { name: 'plugin', description: 'list the available plugins and which are active', load: async () => (await import('./plugin/tool.js')).default, plugins: true },
  { name: 'filterchecker', description: 'check URLs against the active URL filters: +accepted, -rejected and by which rule', load: async () => (await import('./checkers/filterchecker.js')).default, plugins: true },
  { name: 'normalizerchecker', description: 'show what the active URL normalizers make of URLs, in a scope', load: async () => (await import('./checkers/normalizerchecker.js')).default, plugins: true },
  { name: 'parsechecker', description: 'fetch and parse one URL as the crawler would, and print what it finds', load: async () => (await import('./checkers/parsechecker.js')).default, plugins: true },
  { name: 'robotsparser', description: 'check URLs against a robots.txt file: allowed or disallowed, and the Crawl-delay', load: async () => (await import('./checkers/robotsparser.js')).default, plugins: true },
];

const GLOBAL_USAGE = `Usage: hazelnut [-conf <dir>] [-D name=value ...] <command> [args]
Run 'hazelnut help' for the list of commands, 'hazelnut <command>' for a command's usage.`;

export interface CliIo {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  tty: boolean;
  env?: NodeJS.ProcessEnv;
  /** Piped standard input; absent when stdin is a terminal. */
  in?: NodeJS.ReadableStream;
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

const HELP = new Set(['help', '-help', '--help', '-h']);

/**
 * Splits the global options off argv: `-conf <dir>` before the command,
 * `-D name=value` before or after it (as Hadoop's generic options), so
 * `hazelnut inject -D db.score.injected=2 crawl/webdb urls` works too.
 */
export function parseGlobal(argv: string[]): GlobalOptions & { rest: string[] } {
  const g: GlobalOptions = { overrides: {} };
  let i = 0;
  while (i < argv.length) {
    const used = takeGlobal(argv, i, g);
    if (!used) break;
    i += used;
  }
  if (i < argv.length && argv[i]!.startsWith('-') && !HELP.has(argv[i]!)) throw new UsageError(`unknown option ${argv[i]}`);
  const rest = argv.slice(i, i + 1);
  for (let j = i + 1; j < argv.length; ) {
    const used = takeDefine(argv, j, g.overrides);
    if (used) j += used;
    else rest.push(argv[j++]!);
  }
  return { ...g, rest };
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  let command: string | undefined;
  let tool: Tool | undefined;
  try {
    const g = parseGlobal(argv);
    command = g.rest[0];
    const args = g.rest.slice(1);
    if (!command || HELP.has(command)) {
      // `hazelnut help <command>` shows that command's usage.
      const about = args[0] && COMMANDS.find((c) => c.name === args[0]);
      if (about) io.out.write((await about.load()).usage + '\n');
      else (command ? io.out : io.err).write(helpText() + '\n');
      return command && (!args[0] || about) ? 0 : 2;
    }
    const entry = COMMANDS.find((c) => c.name === command);
    if (!entry) {
      const near = didYouMean(command, [...COMMANDS.map((c) => c.name), 'help']);
      io.err.write(`hazelnut: unknown command '${command}'${near ? `; did you mean '${near}'?` : ''}\n${GLOBAL_USAGE}\n`);
      return 2;
    }
    if (entry.plugins) await import('./builtins.js');
    tool = await entry.load();
    // Every command shows its usage when run bare (exit 2) or with -help (exit 0).
    if (args.length === 0 && !(tool.stdin && io.in)) throw new UsageError('missing arguments');
    if (args.some((a) => HELP.has(a) && a !== 'help')) {
      io.out.write(tool.usage + '\n');
      return 0;
    }
    const conf = await loadConf({ confDir: g.confDir ?? io.env?.HAZELNUT_CONF_DIR, overrides: g.overrides });
    configureWebDb(conf);
    const ctx: ToolContext = { conf, out: io.out, err: io.err, tty: io.tty, confOverrides: g.overrides, in: io.in };
    return await tool.run(ctx, args);
  } catch (e) {
    return reportError(e, io.err, `hazelnut${command ? ' ' + command : ''}`, tool ? tool.usage : GLOBAL_USAGE);
  }
}
