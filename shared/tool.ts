/**
 * @module shared/tool
 * The one shape every command has: a name, a one-line description for
 * `hazelnut help`, a usage string in Nutch's argument form, and `run`, which
 * returns the process exit code. User errors are thrown as HzError/UsageError
 * and turned into a message and an exit code by the CLI.
 */
import minimist from 'minimist';
import type { Conf } from './conf.js';
import { UsageError } from './errors.js';

export interface ToolContext {
  conf: Conf;
  /** Where results and summaries go. */
  out: NodeJS.WritableStream;
  /** Where progress, warnings and errors go. */
  err: NodeJS.WritableStream;
  /** True when `err` is a terminal, so a live progress line makes sense. */
  tty: boolean;
  /** Global options the CLI took before the command (`-force` and the like stay with the tool). */
  confOverrides: Record<string, string>;
  /** Standard input when it is piped (not a terminal): the URLs of a tool with `stdin` run bare. */
  in?: NodeJS.ReadableStream;
}

export interface Tool {
  name: string;
  description: string;
  usage: string;
  /** Reads URLs one per line from piped stdin when given none, so a bare run is no usage error then. */
  stdin?: boolean;
  run(ctx: ToolContext, args: string[]): Promise<number>;
}

export interface ArgSpec {
  /** Options taking a value, Nutch style: `-topN 10`. */
  string?: string[];
  /** Flags: `-force`. */
  boolean?: string[];
  /** Options that may repeat, collected as arrays. */
  multi?: string[];
}

export interface ParsedArgs {
  _: string[];
  [opt: string]: string | boolean | string[] | undefined;
}

/**
 * Nutch uses single-dash long options (`-topN 5`), which minimist would read as
 * bundled short flags; they are rewritten to `--topN` first. Unknown options are
 * a UsageError, so a misspelt `-topn` never becomes a positional argument.
 */
export function parseArgs(args: string[], spec: ArgSpec): ParsedArgs {
  const known = new Set([...(spec.string ?? []), ...(spec.boolean ?? []), ...(spec.multi ?? [])]);
  const rewritten = args.map((a) => (/^-[A-Za-z][\w.-]*$/.test(a) ? `-${a}` : a));
  let unknown: string | undefined;
  const parsed = minimist(rewritten, {
    string: [...(spec.string ?? []), ...(spec.multi ?? [])],
    boolean: spec.boolean ?? [],
    unknown: (a) => {
      if (a.startsWith('-') && a.length > 1 && !/^-\d/.test(a)) {
        unknown ??= a.replace(/^--/, '-');
        return false;
      }
      return true;
    },
  });
  if (unknown) throw new UsageError(`unknown option ${unknown}`);
  const out: ParsedArgs = { _: parsed._.map(String) };
  for (const k of known) {
    const v = parsed[k];
    if (v === undefined) continue;
    if (spec.multi?.includes(k)) out[k] = ([] as string[]).concat(v);
    else if (Array.isArray(v)) out[k] = String(v[v.length - 1]);
    else out[k] = v;
    if (spec.string?.includes(k) && (out[k] === '' || out[k] === undefined))
      throw new UsageError(`option -${k} needs a value`);
  }
  return out;
}

/** An integer option, with the option's name in the error. */
export function intOption(v: unknown, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw new UsageError(`-${name} needs an integer, not ${String(v)}`);
  return Number(v);
}
