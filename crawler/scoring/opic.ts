/**
 * @module crawler/scoring/opic
 * The scoring-opic plugin: Nutch's take on OPIC (Abiteboul et al., "Adaptive
 * On-Line Page Importance Computation"). Each page holds cash; when it is
 * fetched and parsed its cash is split among its outlinks, and the score is
 * what orders `generate` (most cash first), so pages many fetched pages point
 * to are fetched early.
 *
 * Nutch never took the cash away from the page that handed it on ("the
 * source keeps its own score", admitted in its code), so every re-fetch
 * minted new cash and scores grew without bound with each cycle. Here a page
 * spends what it distributes (`scoring.opic.spend.cash`, default true): the
 * adjustment is returned under the page's own URL, as Nutch's "adjust datum",
 * and updatedb adds it like any cash. Total cash then stays bounded (only
 * pages without outlinks keep theirs).
 *
 * OPIC decides crawl order only. The document boost in the index comes from
 * the link score (crawler/linkrank.ts, a PageRank over content links), which
 * `indexerScore` hands on; see that module for why.
 */
import type { Conf } from '../../shared/conf.js';
import type { PluginDescriptor, ScoringFilter } from '../../shared/plugin/extension-points.js';
import { host } from '../url/keys.js';

export interface OpicOptions {
  /** Factor for cash sent to the same host (`db.score.link.internal`). */
  internal: number;
  /** Factor for cash sent to another host (`db.score.link.external`). */
  external: number;
  /** Divide by all outlinks the parser found (true) or by those kept (`db.score.count.filtered`). */
  countFiltered: boolean;
  /** The source gives up the cash it distributes (`scoring.opic.spend.cash`). */
  spendCash: boolean;
}

export function opicScoring(o: OpicOptions): ScoringFilter {
  return {
    injectedScore: (_url, score) => score,
    initialScore: () => 0,
    generatorSortValue: (_url, score) => score,
    distributeScoreToOutlinks(from, score, outlinks, allCount) {
      const cash = new Map<string, number>();
      const divisor = o.countFiltered ? Math.max(allCount, outlinks.length) : outlinks.length;
      if (divisor === 0 || !(score > 0)) return cash;
      const share = score / divisor;
      // With equal factors (the default) no host is needed: a host costs a regular expression a link.
      const fromHost = o.internal === o.external ? undefined : host(from);
      for (const to of outlinks) {
        if (to === from) continue;
        const f = fromHost === undefined || host(to) === fromHost ? o.internal : o.external;
        cash.set(to, (cash.get(to) ?? 0) + share * f);
      }
      if (o.spendCash && cash.size > 0) cash.set(from, (cash.get(from) ?? 0) - score);
      return cash;
    },
    updateDbScore: (_url, oldScore, inlinkCash) => Math.max(0, inlinkCash.reduce((s, c) => s + c, oldScore ?? 0)),
    // The boost is the link score (mean 1); 1 when link scores have not been computed yet.
    indexerScore: (_url, _dbScore, linkScore) => (linkScore > 0 ? linkScore : 1),
  };
}

export const scoringOpic: PluginDescriptor<'scoring-filter'> = {
  id: 'scoring-opic',
  point: 'scoring-filter',
  description: 'OPIC cash along links orders generate; the index boost is the link score',
  create: (conf: Conf) =>
    opicScoring({
      internal: conf.getFloat('db.score.link.internal'),
      external: conf.getFloat('db.score.link.external'),
      countFiltered: conf.getBoolean('db.score.count.filtered'),
      spendCash: conf.getBoolean('scoring.opic.spend.cash'),
    }),
};
