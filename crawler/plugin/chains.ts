/**
 * @module crawler/plugin/chains
 * The chains built from the active plugins, in the manner of Nutch's
 * URLNormalizers, URLFilters, IndexingFilters and ScoringFilters. Tools call
 * `loadCrawlerPlugins(conf)` once at start; the built-ins are those the
 * plugin folders registered (crawler/builtins.ts has them register), so
 * nothing here imports a plugin folder back.
 */
import type { Conf } from '../../shared/conf.js';
import { builtinPlugins, instantiate, listPlugins, orderedActive } from '../../shared/plugin/registry.js';
import type {
  ExtensionPoint,
  IndexingFilter,
  NormalizerScope,
  Parser,
  PluginDescriptor,
  ScoringFilter,
  URLFilter,
  URLNormalizer,
} from '../../shared/plugin/extension-points.js';
import { leadsToLocalFiles, overMaxLength, urlLimitBreach, urlLimits, type UrlLimits } from '../url/limits.js';
import { RegexURLFilter } from '../url/regex-filter.js';
import { RegexURLNormalizer } from '../url/regex-normalize.js';

export interface CrawlerPlugins {
  normalizers: { normalize(url: string, scope: NormalizerScope): string | null };
  filters: UrlFilterChain;
  parsers: Parser[];
  indexingFilters: IndexingFilter[];
  scoring: ScoringFilter;
  /** The active protocol plugins, started by the commands that fetch (fetch/protocols.ts). */
  protocols: PluginDescriptor<'protocol'>[];
  /** The active plugins, in chain order per point. */
  active: { id: string; point: ExtensionPoint }[];
  /**
   * True when the normalizers (in scope `outlink`) and the filters answer from
   * the URL alone, so their answer for a URL may be remembered: every one is
   * built in and no rule of theirs is matched under a timeout (whose answer
   * depends on the clock). A plugin of your own may keep state, so it is never
   * taken to.
   */
  outlinkAnswersFixed?: boolean;
}

/** See `CrawlerPlugins.outlinkAnswersFixed`. */
function answersFixed(builtins: readonly PluginDescriptor[], plugins: { id: string; impl: URLNormalizer | URLFilter }[]): boolean {
  return plugins.every(({ id, impl }) => {
    if (!builtins.some((d) => d.id === id)) return false;
    if (impl instanceof RegexURLFilter) return !impl.rules.some((r) => r.test.timed);
    if (impl instanceof RegexURLNormalizer) return !impl.rules('outlink').some((r) => r.apply.timed);
    return true;
  });
}

/**
 * Runs the normalizers in order, repeating the chain up to `loops` times until a pass changes nothing.
 * A URL over the length limit is dropped before any normalizer runs.
 */
export function normalizerChain(normalizers: URLNormalizer[], loops: number, limits?: UrlLimits): CrawlerPlugins['normalizers'] {
  return {
    normalize(url, scope) {
      if (limits && overMaxLength(url, limits)) return null;
      let cur: string | null = url;
      for (let pass = 0; pass < Math.max(1, loops); pass++) {
        const before: string = cur;
        for (const n of normalizers) {
          cur = n.normalize(cur, scope);
          if (cur === null) return null;
        }
        if (cur === before) break;
      }
      return cur;
    },
  };
}

/**
 * The URL filters as the crawler runs them. `from` is the page whose link,
 * refresh or redirect leads to the URL: from a web page, a local file is
 * rejected whatever the filters say (leadsToLocalFiles).
 */
export interface UrlFilterChain {
  /** The URL as the filters pass it on, or null when rejected. */
  filter(url: string, from?: string): string | null;
  /** Why `filter(url, from)` rejects the URL, or null when it passes. */
  rejection(url: string, from?: string): string | null;
}

/** A URL must keep the limits, then pass every filter; each may rewrite it for the next. */
export function filterChain(filters: URLFilter[], limits?: UrlLimits): UrlFilterChain {
  const pass = (url: string): string | null => {
    if (limits && urlLimitBreach(url, limits) !== null) return null;
    let cur: string | null = url;
    for (const f of filters) {
      cur = f.filter(cur);
      if (cur === null) return null;
    }
    return cur;
  };
  const local = (url: string, from: string | undefined) => from !== undefined && leadsToLocalFiles(from, url);
  return {
    filter: (url, from) => (local(url, from) ? null : pass(url)),
    rejection(url, from) {
      if (local(url, from)) return 'is a local file: a web page never leads the crawler there';
      return pass(url) === null ? 'rejected by the URL filters' : null;
    },
  };
}

/**
 * With no scoring plugin active, scores stay neutral: an injected page keeps
 * the score it was given, a new page gets 1.0 (CrawlDatum's default), no cash
 * flows along links, and every document's boost is 1.
 */
export const NEUTRAL_SCORING: ScoringFilter = {
  injectedScore: (_url, score) => score,
  initialScore: () => 1,
  generatorSortValue: (_url, score) => score,
  distributeScoreToOutlinks: () => new Map(),
  updateDbScore: (_url, oldScore) => oldScore ?? 1,
  indexerScore: () => 1,
};

/** Several scoring filters chained as Nutch's ScoringFilters does: each hook passes its result to the next. */
export function scoringChain(filters: ScoringFilter[]): ScoringFilter {
  if (filters.length === 0) return NEUTRAL_SCORING;
  if (filters.length === 1) return filters[0]!;
  return {
    injectedScore: (url, score) => filters.reduce((s, f) => f.injectedScore(url, s), score),
    initialScore: (url) => filters.reduce((_s, f) => f.initialScore(url), 0),
    generatorSortValue: (url, score) => filters.reduce((s, f) => f.generatorSortValue(url, s), score),
    distributeScoreToOutlinks: (from, score, outlinks, all) => {
      const merged = new Map<string, number>();
      for (const f of filters)
        for (const [u, cash] of f.distributeScoreToOutlinks(from, score, outlinks, all)) merged.set(u, (merged.get(u) ?? 0) + cash);
      return merged;
    },
    updateDbScore: (url, old, cash) => filters.reduce<number | undefined>((s, f) => f.updateDbScore(url, s, cash), old) ?? 1,
    indexerScore: (url, db, link) => filters.reduce((s, f) => s * f.indexerScore(url, db, link), 1),
  };
}

export async function loadCrawlerPlugins(conf: Conf, builtins: readonly PluginDescriptor[] = builtinPlugins()): Promise<CrawlerPlugins> {
  const entries = await listPlugins(conf, builtins);
  const make = <P extends ExtensionPoint>(point: P) => instantiate(conf, orderedActive(conf, entries, point));
  const normalizers = make('url-normalizer');
  const filters = make('url-filter');
  const parsers = make('parser');
  const indexing = make('indexing-filter');
  const scoring = make('scoring-filter');
  const protocols = orderedActive(conf, entries, 'protocol');
  const limits = urlLimits(conf);
  let fixed: boolean | undefined;
  const active = [
    ...normalizers.map((p) => ({ id: p.id, point: 'url-normalizer' as const })),
    ...filters.map((p) => ({ id: p.id, point: 'url-filter' as const })),
    ...parsers.map((p) => ({ id: p.id, point: 'parser' as const })),
    ...indexing.map((p) => ({ id: p.id, point: 'indexing-filter' as const })),
    ...scoring.map((p) => ({ id: p.id, point: 'scoring-filter' as const })),
    ...protocols.map((p) => ({ id: p.id, point: 'protocol' as const })),
  ];
  return {
    normalizers: normalizerChain(
      normalizers.map((p) => p.impl),
      conf.getInt('urlnormalizer.loop.count'),
      limits,
    ),
    filters: filterChain(
      filters.map((p) => p.impl),
      limits,
    ),
    parsers: parsers.map((p) => p.impl),
    indexingFilters: indexing.map((p) => p.impl),
    scoring: scoringChain(scoring.map((p) => p.impl)),
    protocols,
    active,
    // Worked out when first asked: a broken rule file of scope outlink is reported by the first command that uses it.
    get outlinkAnswersFixed() {
      return (fixed ??= answersFixed(builtins, [...normalizers, ...filters]));
    },
  };
}
