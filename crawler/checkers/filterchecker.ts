/**
 * @module crawler/checkers/filterchecker
 * `hazelnut filterchecker`: Nutch's URLFilterChecker. For each URL, `+url`
 * when the active URL filters accept it and `-url` when they reject it,
 * followed by which filter rejected it — for urlfilter-regex the file:line of
 * the rule that decided, or that no rule matched. By default every filter
 * judges the URL on its own, so all filters that would reject it are named;
 * `-allCombined` runs them as the crawler's chain does, each seeing what the
 * one before returned, the first rejection ending it.
 */
import path from 'node:path';
import type { URLFilter } from '../../shared/plugin/extension-points.js';
import { matchingRule, RegexURLFilter } from '../url/regex-filter.js';
import { filterChain } from '../plugin/chains.js';
import { activePlugins, checkerTool } from './checker.js';

export interface NamedFilter {
  id: string;
  impl: URLFilter;
}

export interface FilterVerdict {
  /** The URL as the filters return it (a filter may rewrite it), or null when rejected. */
  result: string | null;
  /** The filters that rejected it, each with its reason. */
  rejectedBy: string[];
}

/** `file:line` with the file relative to the working directory when it is below it. */
function shortWhere(where: string): string {
  const m = /^(.*):(\d+)$/.exec(where);
  if (!m) return where;
  const rel = path.relative(process.cwd(), m[1]!);
  return `${rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : m[1]}:${m[2]}`;
}

/** Why a filter rejected `url`: urlfilter-regex knows its deciding rule, other filters are named only. */
function rejection(f: NamedFilter, url: string): string {
  if (!(f.impl instanceof RegexURLFilter)) return f.id;
  const m = matchingRule(f.impl.rules, url);
  return `${f.id} (${m ? `rule ${shortWhere(m.rule.where)}${m.slow ? ' ran out of time' : ''}` : 'no rule matched'})`;
}

/** What the filters do to one URL: each on its own, or `combined` as the crawler's chain. */
export function checkFilters(filters: NamedFilter[], url: string, combined: boolean): FilterVerdict {
  if (!combined) {
    const rejectedBy = filters.filter((f) => f.impl.filter(url) === null).map((f) => rejection(f, url));
    return { result: rejectedBy.length ? null : url, rejectedBy };
  }
  const rejectedBy: string[] = [];
  const traced = filters.map((f) => ({
    filter(u: string) {
      const r = f.impl.filter(u);
      if (r === null) rejectedBy.push(rejection(f, u));
      return r;
    },
  }));
  return { result: filterChain(traced).filter(url), rejectedBy };
}

/** `+url` (with what a rewriting filter made of it) or `-url` and the rejecting filters. */
export function verdictLine(url: string, v: FilterVerdict): string {
  if (v.result === null) return `-${url}\trejected by ${v.rejectedBy.join(', ')}`;
  return `+${url}${v.result !== url ? `\t-> ${v.result}` : ''}`;
}

export default checkerTool({
  name: 'filterchecker',
  usage: `Usage: hazelnut filterchecker [-allCombined] [<url> ...]
Prints +url for each URL the active URL filters accept, -url for each they reject and
which filter rejected it (for urlfilter-regex, the file:line of the deciding rule).
URLs come from the arguments or, with none, one per line from stdin.
  -allCombined  run the filters as one chain, as the crawler does: each sees what the one
                before returned and the first rejection ends it (default: each filter
                judges the URL on its own and every one that rejects it is named)`,
  args: { boolean: ['allCombined'] },
  async prepare(ctx, a) {
    const filters = await activePlugins(ctx.conf, 'url-filter');
    if (filters.length === 0) ctx.err.write('filterchecker: no URL filter is active (plugin.includes): every URL is accepted\n');
    const combined = a.allCombined === true;
    return { check: { check: ({ url }) => ({ text: verdictLine(url, checkFilters(filters, url, combined)) }) } };
  },
});
