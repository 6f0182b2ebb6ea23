/**
 * @module crawler/url/bounded-regex
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
 * takes, never what a match returns. `runRule` is what a rule file (URL
 * filter, URL normalizer) does with a rule that runs out of time.
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

/** One pattern's operation on a string, bounded in time: throws RegexTimeout when a budgeted pattern runs out. */
export interface Bounded<T> {
  (s: string): T;
  /** True when the pattern needs the timed path (back-references, look-around). */
  readonly timed: boolean;
}

export type BoundedTest = Bounded<boolean>;

/** `direct` where V8's linear-time fallback bounds the pattern, else `code` (over `re`, `s` and `globals`) in a vm context under a timeout. */
function bounded<T>(re: RegExp, budgetMs: number, direct: (s: string) => T, code: string, globals: Record<string, unknown> = {}): Bounded<T> {
  if (runsInLinearTime(re)) return Object.assign(direct, { timed: false });
  const ctx = vm.createContext({ ...globals, re, s: '' });
  const script = new vm.Script(code);
  const run = (s: string): T => {
    ctx.s = s;
    try {
      return script.runInContext(ctx, { timeout: budgetMs }) as T;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new RegexTimeout(budgetMs);
      throw e;
    }
  };
  return Object.assign(run, { timed: true });
}

/** Wraps `re.test` so that no call runs unbounded: linear-time fallback where V8 has it, a timeout where not. */
export function boundedTest(re: RegExp, budgetMs: number): BoundedTest {
  return bounded(re, budgetMs, (s) => re.test(s), 're.test(s)');
}

/** `s.replace(re, replacement)`, bounded like `boundedTest`. */
export function boundedReplace(re: RegExp, replacement: (match: string, ...rest: unknown[]) => string, budgetMs: number): Bounded<string> {
  return bounded(re, budgetMs, (s) => s.replace(re, replacement), 's.replace(re, replacement)', { replacement });
}

/** A rule of a rule file; `slowAt` is the length of the shortest URL it ran out of time on. */
export interface BoundedRule {
  /** `file:line`. */
  where: string;
  slowAt?: number;
}

/** What a rule that runs out of time means for its URL, and the property that sets its budget. */
export interface SlowRulePolicy {
  property: string;
  /** What becomes of the URL: "rejected", "dropped". */
  outcome: string;
}

/** Returned by `runRule` for a rule that is out of time on a URL. */
export const SLOW = Symbol('slow');

/**
 * Runs one rule on a URL. A rule that runs out of time, now or before on a
 * URL no longer than this one (it is not tried again: a try would spend the
 * whole budget), gives SLOW; the first time, it is reported with its
 * file:line, as warning HZ_SLOW_URL_RULE.
 */
export function runRule<T>(rule: BoundedRule, run: Bounded<T>, url: string, policy: SlowRulePolicy): T | typeof SLOW {
  if (rule.slowAt !== undefined && url.length >= rule.slowAt) return SLOW;
  try {
    return run(url);
  } catch (e) {
    if (!(e instanceof RegexTimeout)) throw e;
    const first = rule.slowAt === undefined;
    rule.slowAt = Math.min(rule.slowAt ?? Infinity, url.length);
    if (first)
      process.emitWarning(
        `${rule.where}: rule ran out of its ${e.budgetMs} ms (${policy.property}) on a ${url.length}-character URL; ` +
          `URLs of ${url.length} characters or more are ${policy.outcome} from now on. Rewrite it without back-references or look-around.`,
        { code: 'HZ_SLOW_URL_RULE' },
      );
    return SLOW;
  }
}
