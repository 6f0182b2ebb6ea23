/**
 * @module shared/url/regex-filter
 * Nutch's urlfilter-regex and its `regex-urlfilter.txt` rules: one rule per
 * line, `+regex` accepts and `-regex` rejects; empty lines and lines starting
 * with `#` or a space are skipped; the first rule whose regex occurs anywhere
 * in the URL decides (a substring search, like Java's `find()`), and a URL no
 * rule matches is rejected. Patterns are java.util.regex syntax (see
 * `java-regex`). A line starting with anything else, or a pattern that does
 * not compile, is an error naming the file and line. Trailing whitespace
 * (a `\r` from a Windows editor) is ignored, unlike in Nutch.
 *
 * No rule can stall the crawler (see `bounded-regex`): a rule that needs the
 * timed path and runs out of `urlfilter.regex.timeout` rejects the URL, is
 * reported once with its file:line, and from then on rejects, without
 * running, every URL at least as long as the shortest one it choked on.
 */
import fs from 'node:fs';
import type { Conf } from '../conf.js';
import { HzError } from '../errors.js';
import type { PluginDescriptor, URLFilter } from '../plugin/types.js';
import { boundedTest, RegexTimeout, type BoundedTest } from './bounded-regex.js';
import { javaRegex } from './java-regex.js';

/** urlfilter.regex.timeout's default: the most one timed rule may spend on one URL (ms). */
export const RULE_BUDGET_MS = 50;

export interface FilterRule {
  accept: boolean;
  regex: RegExp;
  /** `file:line`, for messages and the filter checker. */
  where: string;
  /** `regex.test`, bounded in time; throws RegexTimeout. */
  test: BoundedTest;
  /** Length of the shortest URL this rule ran out of time on: longer ones are rejected without a try. */
  slowAt?: number;
}

/** The rule that decided a URL; `slow` when it decided by running out of time (the URL is then rejected). */
export interface RuleMatch {
  rule: FilterRule;
  accept: boolean;
  slow?: true;
}

/** Parses the rules of a regex-urlfilter file; `file` is only used in messages. */
export function parseFilterRules(text: string, file: string, budgetMs = RULE_BUDGET_MS): FilterRule[] {
  const rules: FilterRule[] = [];
  text.split('\n').forEach((raw, idx) => {
    const line = raw.replace(/\s+$/, '');
    const where = `${file}:${idx + 1}`;
    if (line === '' || line[0] === '#' || line[0] === ' ' || line[0] === '\t') return;
    const sign = line[0];
    if (sign !== '+' && sign !== '-')
      throw new HzError('HZ_ERR_CONF_FILE', `${where}: a rule must start with + or -, not ${JSON.stringify(sign)}`);
    let regex: RegExp;
    try {
      regex = javaRegex(line.slice(1));
    } catch (e) {
      throw new HzError('HZ_ERR_CONF_FILE', `${where}: invalid regular expression ${line.slice(1)}: ${(e as Error).message}`);
    }
    rules.push({ accept: sign === '+', regex, where, test: boundedTest(regex, budgetMs) });
  });
  return rules;
}

/** The rule that decides a URL, or undefined when none matches (the URL is then rejected). */
export function matchingRule(rules: FilterRule[], url: string): RuleMatch | undefined {
  for (const rule of rules) {
    if (rule.slowAt !== undefined && url.length >= rule.slowAt) return { rule, accept: false, slow: true };
    try {
      if (rule.test(url)) return { rule, accept: rule.accept };
    } catch (e) {
      if (!(e instanceof RegexTimeout)) throw e;
      const first = rule.slowAt === undefined;
      rule.slowAt = Math.min(rule.slowAt ?? Infinity, url.length);
      if (first)
        process.emitWarning(
          `${rule.where}: rule ran out of its ${e.budgetMs} ms (urlfilter.regex.timeout) on a ${url.length}-character URL; ` +
            `URLs of ${url.length} characters or more are rejected from now on. Rewrite it without back-references or look-around.`,
          { code: 'HZ_SLOW_URL_RULE' },
        );
      return { rule, accept: false, slow: true };
    }
  }
  return undefined;
}

export class RegexURLFilter implements URLFilter {
  constructor(readonly rules: FilterRule[]) {}

  static fromFile(file: string, budgetMs = RULE_BUDGET_MS): RegexURLFilter {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new HzError('HZ_ERR_CONF_FILE', `cannot read URL filter rules ${file}: ${(e as Error).message}`);
    }
    return new RegexURLFilter(parseFilterRules(text, file, budgetMs));
  }

  filter(url: string): string | null {
    return matchingRule(this.rules, url)?.accept ? url : null;
  }
}

export const urlfilterRegex: PluginDescriptor<'url-filter'> = {
  id: 'urlfilter-regex',
  point: 'url-filter',
  description: 'accept or reject URLs by the +/- regular expressions in urlfilter.regex.file (regex-urlfilter.txt)',
  create: (conf: Conf) => RegexURLFilter.fromFile(conf.resolveFile(conf.get('urlfilter.regex.file')), conf.getDuration('urlfilter.regex.timeout', 'ms')),
};
