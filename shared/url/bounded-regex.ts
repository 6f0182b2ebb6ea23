/**
 * @module shared/url/bounded-regex
 * Rule files run user-written regular expressions on URLs that strangers
 * write, and a backtracking match can take seconds or hours on a long URL
 * (`(a+)+$`, a back-reference after `.*`). Two bounds keep one rule from
 * stalling the crawler:
 *
 * - V8 is told to hand a match over to its linear-time engine once it has
 *   backtracked `BACKTRACK_LIMIT` times. Every pattern that engine can run
 *   (no back-references, no look-around) then costs at most that many steps
 *   plus time linear in the URL, at V8's full speed for ordinary URLs.
 * - A pattern it cannot run (back-references, look-around) is matched inside
 *   a `vm` context with a timeout, which interrupts the match where it
 *   stands. That costs about 0.1 ms a test, so only such patterns pay it.
 *
 * The V8 switches are process-wide; they change how long a runaway match
 * takes, never what a match returns.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/** Backtracks before V8 switches a match to its linear-time engine. */
export const BACKTRACK_LIMIT = 10_000;

let bound = false;

/** Sets the V8 switches, once per process; the regex compilers call it before compiling. */
export function boundBacktracking(): void {
  if (bound) return;
  bound = true;
  v8.setFlagsFromString('--enable-experimental-regexp-engine');
  v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  v8.setFlagsFromString(`--regexp-backtracks-before-fallback=${BACKTRACK_LIMIT}`);
}

/** True when V8's linear-time engine can run the pattern, so a runaway match falls back to it. */
export function runsInLinearTime(re: RegExp): boolean {
  boundBacktracking();
  try {
    new RegExp(re.source, re.flags.replace(/[gy]/g, '') + 'l');
    return true;
  } catch {
    return false;
  }
}

/** A match that ran out of its time budget. */
export class RegexTimeout extends Error {
  constructor(readonly budgetMs: number) {
    super(`no answer within ${budgetMs} ms`);
  }
}

/** `test` for one pattern, bounded in time: throws RegexTimeout when a budgeted pattern runs out. */
export interface BoundedTest {
  (s: string): boolean;
  /** True when the pattern needs the timed path (back-references, look-around). */
  readonly timed: boolean;
}

/** Wraps `re.test` so that no call runs unbounded: linear-time fallback where V8 has it, a timeout where not. */
export function boundedTest(re: RegExp, budgetMs: number): BoundedTest {
  if (runsInLinearTime(re)) return Object.assign((s: string) => re.test(s), { timed: false });
  const ctx = vm.createContext({ re, s: '' });
  const script = new vm.Script('re.test(s)');
  const test = (s: string): boolean => {
    ctx.s = s;
    try {
      return script.runInContext(ctx, { timeout: budgetMs }) as boolean;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new RegexTimeout(budgetMs);
      throw e;
    }
  };
  return Object.assign(test, { timed: true });
}
