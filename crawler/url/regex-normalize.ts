/**
 * @module crawler/url/regex-normalize
 * Nutch's urlnormalizer-regex: `regex-normalize.xml` holds
 * `<regex><pattern>…</pattern><substitution>…</substitution></regex>` rules,
 * applied in file order, each a replace-all with Java's `$n` group
 * references. Patterns and substitutions are Java syntax, translated by
 * `java-regex`, so Nutch's own rule files work unchanged. A scope may have its
 * own file (`urlnormalizer.regex.file.<scope>`, e.g. `….outlink`); scopes
 * without one use `urlnormalizer.regex.file`. A rule that does not compile is
 * an error naming the file and line.
 *
 * The rules run on every outlink, so no rule may stall the crawler: each runs
 * bounded like a URL filter rule (see `bounded-regex`), and one that needs
 * the timed path and runs out of `urlnormalizer.regex.timeout` drops the URL,
 * is reported once with its file:line, and from then on drops, without
 * running, every URL at least as long as the shortest one it choked on.
 */
import { readConfText, type Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import type { NormalizerScope, PluginDescriptor, URLNormalizer } from '../../shared/plugin/extension-points.js';
import { child, parseConfXml } from '../../shared/xml.js';
import { boundedReplace, runRule, SLOW, type Bounded, type BoundedRule } from './bounded-regex.js';
import { javaRegex, javaReplacement } from './java-regex.js';

/** urlnormalizer.regex.timeout's default: the most one timed rule may spend on one URL (ms). */
export const NORMALIZE_BUDGET_MS = 50;

const SLOW_NORMALIZE = { property: 'urlnormalizer.regex.timeout', outcome: 'dropped' };

export interface NormalizeRule extends BoundedRule {
  /** The replace-all, bounded in time; throws RegexTimeout. */
  apply: Bounded<string>;
}

/** Parses a regex-normalize.xml document; `file` is only used in messages. */
export function parseNormalizeRules(src: string, file: string, budgetMs = NORMALIZE_BUDGET_MS): NormalizeRule[] {
  const root = parseConfXml(src, file, 'regex-normalize');
  const rules: NormalizeRule[] = [];
  for (const el of root.children) {
    const where = `${file}:${el.line}`;
    if (el.name !== 'regex') throw new HzError('HZ_ERR_CONF_XML', `${where}: unexpected <${el.name}> (expected <regex>)`);
    const pattern = child(el, 'pattern')?.text;
    if (!pattern) throw new HzError('HZ_ERR_CONF_XML', `${where}: <regex> without a <pattern>`);
    const substitution = child(el, 'substitution')?.text ?? '';
    try {
      const re = javaRegex(pattern);
      rules.push({ apply: boundedReplace(new RegExp(re.source, re.flags + 'g'), javaReplacement(substitution, re), budgetMs), where });
    } catch (e) {
      throw new HzError('HZ_ERR_CONF_FILE', `${where}: invalid rule ${pattern} → ${substitution}: ${(e as Error).message}`);
    }
  }
  return rules;
}

export function readNormalizeRules(file: string, budgetMs = NORMALIZE_BUDGET_MS): NormalizeRule[] {
  return parseNormalizeRules(readConfText(file, 'URL normalizer rules'), file, budgetMs);
}

/** Applies the rules in order; a URL emptied by them, or one a rule ran out of time on, is dropped (null). */
export function applyNormalizeRules(rules: NormalizeRule[], url: string): string | null {
  let out = url;
  for (const r of rules) {
    const next = runRule(r, r.apply, out, SLOW_NORMALIZE);
    if (next === SLOW) return null;
    out = next;
  }
  return out === '' ? null : out;
}

export class RegexURLNormalizer implements URLNormalizer {
  private readonly byScope = new Map<NormalizerScope, NormalizeRule[]>();

  constructor(private readonly conf: Conf) {}

  /** Rules for a scope, read once; a missing scope file falls back to the default rules. */
  rules(scope: NormalizerScope): NormalizeRule[] {
    let rules = this.byScope.get(scope);
    if (!rules) {
      const scoped = `urlnormalizer.regex.file.${scope}`;
      const name = scope !== 'default' && this.conf.has(scoped) ? this.conf.get(scoped) : this.conf.get('urlnormalizer.regex.file');
      rules = readNormalizeRules(this.conf.resolveFile(name), this.conf.getDuration('urlnormalizer.regex.timeout', 'ms'));
      this.byScope.set(scope, rules);
    }
    return rules;
  }

  normalize(url: string, scope: NormalizerScope): string | null {
    return applyNormalizeRules(this.rules(scope), url);
  }
}

export const urlnormalizerRegex: PluginDescriptor<'url-normalizer'> = {
  id: 'urlnormalizer-regex',
  point: 'url-normalizer',
  description: 'rewrite URLs with the ordered pattern/substitution rules of urlnormalizer.regex.file (regex-normalize.xml)',
  create: (conf: Conf) => {
    const n = new RegexURLNormalizer(conf);
    n.rules('default'); // a broken rule file fails when the plugin loads, not on the first URL
    return n;
  },
};
