/**
 * @module shared/command
 * The one shape every command has: a name, a usage string in Nutch's
 * argument form, and `run`, which returns the process exit code. Its
 * one-line description lives in the command table that lists it (`COMMANDS`
 * in crawler/cli.ts), the one place `hazelnut help` reads without loading
 * every command. User errors are thrown as HzError/UsageError
 * and turned into a message and an exit code by the CLI.
 */
import minimist from 'minimist';
import type { Conf } from './conf.js';
import { isHzError, isUsageError, UsageError } from './errors.js';

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

/**
 * Reads one `-D name=value` (or `-Dname=value`) at argv[i] into `overrides`:
 * Hadoop's generic option, which both programs take. Returns how many items
 * it used, 0 when argv[i] is not one.
 */
export function takeDefine(argv: readonly string[], i: number, overrides: Record<string, string>): number {
  const a = argv[i]!;
  if (a !== '-D' && !/^-D[\w.-]+=/.test(a)) return 0;
  const kv = a === '-D' ? argv[i + 1] : a.slice(2);
  const eq = kv?.indexOf('=') ?? -1;
  if (!kv || eq <= 0) throw new UsageError(`-D needs name=value, not ${kv ?? 'nothing'}`);
  overrides[kv.slice(0, eq)] = kv.slice(eq + 1);
  return a === '-D' ? 2 : 1;
}

/** The global options both programs take: the configuration directory and property overrides. */
export interface GlobalOptions {
  confDir?: string;
  overrides: Record<string, string>;
}

/** Reads one global option at argv[i], `-conf <dir>` or a `-D`, into `g`; returns how many items it used, 0 for anything else. */
export function takeGlobal(argv: readonly string[], i: number, g: GlobalOptions): number {
  const a = argv[i]!;
  if (a === '-conf' || a === '--conf') {
    g.confDir = argv[i + 1];
    if (!g.confDir) throw new UsageError('-conf needs a directory');
    return 2;
  }
  return takeDefine(argv, i, g.overrides);
}

/**
 * What a program prints for an error a user caused, and the exit code: the
 * message (after `prefix`), with the usage for wrong arguments. Anything else
 * is a bug and is thrown again, so its stack is seen.
 */
export function reportError(e: unknown, err: NodeJS.WritableStream, prefix: string, usage: string): number {
  if (isUsageError(e)) {
    err.write(`${prefix}: ${e.message}\n${usage}\n`);
    return 2;
  }
  if (isHzError(e)) {
    err.write(`${prefix}: ${e.message}\n`);
    return e.exitCode;
  }
  const full = diskFull(e);
  if (full) {
    err.write(`${prefix}: ${full}\n`);
    return 1;
  }
  throw e;
}

/**
 * The message for a full disk (SQLite's SQLITE_FULL, a write's ENOSPC or
 * EDQUOT), or undefined for any other error. Every store writes in
 * transactions, so what was committed before stays whole.
 */
export function diskFull(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    const where = (e as NodeJS.ErrnoException).path;
    return `the disk is full${where ? ` (writing ${where})` : ''}: free some space and run the same command again; what was stored before is intact (${code})`;
  }
  return undefined;
}

/** An integer option, with the option's name in the error. */
export function intOption(v: unknown, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw new UsageError(`-${name} needs an integer, not ${String(v)}`);
  return Number(v);
}
