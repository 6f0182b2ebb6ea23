/**
 * @module crawler/checkers/checker
 * What Nutch's AbstractChecker gives its checkers: the URLs come from the
 * arguments or, when there are none, one per line from piped stdin; each goes
 * through one check and its answer is printed as soon as it is known, so a
 * checker works at the end of a pipe (`grep -o 'http[^"]*' page.html |
 * hazelnut filterchecker`). A check that could not be done (a page that did
 * not fetch, a malformed URL) is printed like any other answer and makes the
 * exit code 1 at the end; wrong arguments exit 2.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import readline from 'node:readline';
import type { Conf } from '../../shared/conf.js';
import { HzError, UsageError } from '../../shared/errors.js';
import { instantiate, listPlugins, orderedActive } from '../../shared/plugin/registry.js';
import type { ExtensionPoint } from '../../shared/plugin/extension-points.js';
import { parseArgs, type ArgSpec, type ParsedArgs, type Tool, type ToolContext } from '../../shared/command.js';

export interface UrlInput {
  url: string;
  /** Where it came from, for messages: `argument 2`, `urls.txt:3`, `stdin:3`. */
  where: string;
}

export interface CheckResult {
  /** The answer, one or more lines without the final newline. */
  text: string;
  /** The URL could not be checked: the run exits 1. */
  failed?: boolean;
}

export interface Check {
  check(input: UrlInput): CheckResult | Promise<CheckResult>;
  close?(): void | Promise<void>;
}

export interface CheckerSpec {
  name: string;
  usage: string;
  args: ArgSpec;
  /**
   * Builds the check from the options, and says which URLs it runs over —
   * by default `urlInputs(a._, ctx)`. It reads `a._` itself when some
   * positional arguments are not URLs.
   */
  prepare(ctx: ToolContext, a: ParsedArgs): Promise<{ check: Check; inputs?: AsyncIterable<UrlInput> }>;
}

/** Non-empty lines that are not `#` comments, trimmed, with their line numbers. */
async function* lines(stream: NodeJS.ReadableStream, source: string): AsyncGenerator<UrlInput> {
  const rl = readline.createInterface({ input: stream, crlfDelay: Infinity });
  let n = 0;
  for await (const raw of rl) {
    n++;
    const url = raw.trim();
    if (url && !url.startsWith('#')) yield { url, where: `${source}:${n}` };
  }
}

/** An argument that names a URL rather than a file: it starts with a scheme. */
const looksLikeUrl = (s: string) => /^[a-z][a-z0-9+.-]*:/i.test(s);

/**
 * The URLs to check: the arguments, or stdin's lines when there are none.
 * With `files`, an argument that is not a URL names a file of URLs, one per
 * line (a file that cannot be read is an error naming it, before any output).
 */
export function urlInputs(args: string[], ctx: ToolContext, opts: { files?: boolean } = {}): AsyncIterable<UrlInput> {
  const stdin = ctx.in;
  if (args.length === 0) {
    if (!stdin) throw new UsageError('no URLs: give them as arguments or one per line on stdin');
    return lines(stdin, 'stdin');
  }
  const files = new Set(opts.files ? args.filter((x) => !looksLikeUrl(x)) : []);
  for (const f of files) readableFile(f, 'URL file');
  return (async function* () {
    for (const [i, a] of args.entries()) {
      if (files.has(a)) yield* lines(fs.createReadStream(a), a);
      else yield { url: a, where: `argument ${i + 1}` };
    }
  })();
}

/** Fails, naming the file, unless `file` is a readable regular file. */
export function readableFile(file: string, what: string): void {
  try {
    if (!fs.statSync(file).isFile()) throw new Error('not a regular file');
    fs.accessSync(file, fs.constants.R_OK);
  } catch (e) {
    throw new HzError('HZ_ERR_NOT_FOUND', `cannot read ${what} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** A checker as a command: options, then every URL through the check, one answer each. */
export function checkerTool(spec: CheckerSpec): Tool {
  return {
    name: spec.name,
    usage: spec.usage,
    stdin: true,
    async run(ctx, args) {
      const a = parseArgs(args, spec.args);
      const { check, inputs } = await spec.prepare(ctx, a);
      let failed = 0;
      try {
        for await (const input of inputs ?? urlInputs(a._, ctx)) {
          const r = await check.check(input);
          // A long list into a slow pipe: wait for the reader rather than buffer every answer.
          if (!ctx.out.write(r.text + '\n')) await once(ctx.out, 'drain');
          if (r.failed) failed++;
        }
      } finally {
        await check.close?.();
      }
      return failed ? 1 : 0;
    },
  };
}

/**
 * The active plugins of one extension point in chain order, each with its id,
 * built as `loadCrawlerPlugins` builds them: a checker names the plugin that
 * decided.
 */
export async function activePlugins<P extends ExtensionPoint>(conf: Conf, point: P) {
  return instantiate(conf, orderedActive(conf, await listPlugins(conf), point));
}
