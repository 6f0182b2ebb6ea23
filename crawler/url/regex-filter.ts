/**
 * @module crawler/url/regex-filter
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
import { readConfText, type Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import type { PluginDescriptor, URLFilter } from '../../shared/plugin/extension-points.js';
import { boundedTest, runRule, SLOW, type BoundedRule, type BoundedTest } from './bounded-regex.js';
import { javaRegex } from './java-regex.js';

/** urlfilter.regex.timeout's default: the most one timed rule may spend on one URL (ms). */
export const RULE_BUDGET_MS = 50;

const SLOW_FILTER = { property: 'urlfilter.regex.timeout', outcome: 'rejected' };

export interface FilterRule extends BoundedRule {
  accept: boolean;
  regex: RegExp;
  /** `regex.test`, bounded in time; throws RegexTimeout. */
  test: BoundedTest;
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
    const hit = runRule(rule, rule.test, url, SLOW_FILTER);
    if (hit === SLOW) return { rule, accept: false, slow: true };
    if (hit) return { rule, accept: rule.accept };
  }
  return undefined;
}

export class RegexURLFilter implements URLFilter {
  constructor(readonly rules: FilterRule[]) {}

  static fromFile(file: string, budgetMs = RULE_BUDGET_MS): RegexURLFilter {
    return new RegexURLFilter(parseFilterRules(readConfText(file, 'URL filter rules'), file, budgetMs));
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
