/**
 * @module shared/errors
 * Errors a user can cause, with stable codes. Each message names the file,
 * line, property or URL at fault, so the CLI can print it as is and exit
 * non-zero. Expected outcomes (a URL filtered out, a page skipped) are return
 * values, never errors.
 */

export type HzErrorCode =
  | 'HZ_ERR_USAGE'
  | 'HZ_ERR_CONF_XML'
  | 'HZ_ERR_CONF_PROPERTY'
  | 'HZ_ERR_CONF_FILE'
  | 'HZ_ERR_SEED'
  | 'HZ_ERR_LOCKED'
  | 'HZ_ERR_NOT_FOUND'
  | 'HZ_ERR_PLUGIN'
  | 'HZ_ERR_SEGMENT_CORRUPT'
  | 'HZ_ERR_SEGMENT_STATE'
  | 'HZ_ERR_INDEX_FORMAT'
  | 'HZ_ERR_WEBDB'
  | 'HZ_ERR_NOTHING_TO_DO'
  | 'HZ_ERR_PORT_IN_USE';

/**
 * Brand checked instead of `instanceof`: a tool loaded through a second module
 * instance (a test loader, a user plugin) still throws errors the CLI knows.
 */
const BRAND = Symbol.for('hazelnut.error');

export class HzError extends Error {
  override name = 'HzError';
  readonly [BRAND] = true;
  /** Exit code a CLI should use for this error. */
  readonly exitCode: number;
  constructor(
    readonly code: HzErrorCode,
    message: string,
    opts: { exitCode?: number; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.exitCode = opts.exitCode ?? (code === 'HZ_ERR_USAGE' ? 2 : 1);
  }
}

/** Wrong command-line arguments: the CLI prints the tool's usage and exits 2. */
export class UsageError extends HzError {
  override name = 'UsageError';
  constructor(message: string) {
    super('HZ_ERR_USAGE', message, { exitCode: 2 });
  }
}

/**
 * The exit code of a command that does some items and refuses others (inject's
 * bad seed lines, prune's segments still in use): 0 when it did something or
 * refused nothing, the refusals being warnings on stderr; 1 when it refused
 * everything it was given, so a script notices that nothing happened.
 */
export function partialExitCode(done: number, refused: number): number {
  return refused > 0 && done === 0 ? 1 : 0;
}

export function isHzError(e: unknown): e is HzError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}

export function isUsageError(e: unknown): e is UsageError {
  return isHzError(e) && e.code === 'HZ_ERR_USAGE';
}
