/**
 * @module crawler/linkrank
 * `hazelnut linkrank <webdb>`: a PageRank over the WebDB's link graph, stored
 * in `pages.link_score` and handed to the indexer as each document's boost
 * (Nutch 1.x later grew a `webgraph`/`linkrank` pair of tools for the same
 * purpose; the classic releases had only OPIC).
 *
 * Why a PageRank beside OPIC: OPIC's cash is an on-line estimate made for
 * ordering the crawl. It depends on the order pages were fetched and, once a
 * page spends its cash (crawler/scoring/opic.ts), says nothing about the
 * page's standing. A PageRank computed over the whole graph after
 * invertlinks is stable, order-independent and cheap at intranet scale.
 *
 * The graph: every page in the WebDB is a node; edges are content links
 * between two known pages, each (source, target) once. Navigation links
 * (menus, headers, footers) are left out while `db.ignore.navigation.links`
 * is true — they point to the same hubs from every page and measured worse
 * in ranking — and self-links are always left out. Redirects are edges too
 * (updatedb records them as links), so a moved page's standing flows to its
 * new address. Dangling pages (no outlinks) spread their rank evenly over all
 * pages. Damping `linkrank.damping` (0.85); iterations stop when the L1
 * change falls below `linkrank.tolerance` or after `linkrank.max.iterations`.
 *
 * Stored scores are normalised so their mean is 1 (rank × number of pages):
 * a page with 2.0 has twice the average standing, whatever the crawl size.
 * With `linkrank.within.site` (the default) the mean is taken over each
 * site's fetched pages instead: over sites that do not link one another, a
 * site's share of the rank comes from how its own pages link (how many are
 * dangling and spread their rank over the whole crawl, how many links are
 * navigation), not from what other sites say of it, and every page of a
 * densely linked manual would otherwise lead its equals on other sites (on
 * realweb the Apache manual's pages averaged 2.20, Python's 1.05). Within its
 * site a page's score is what that site's links say of it. On a crawl of
 * sites that link one another, `false` keeps the crawl-wide mean. The
 * searcher turns this into a small, saturating prior (ranking lesson: raw
 * PageRank piles up on hub pages).
 */
import type { Conf } from '../shared/conf.js';
import { UsageError } from '../shared/errors.js';
import type { Log } from './log.js';
import { parseArgs, type Tool } from '../shared/command.js';
import { runWithLog } from './tool-run.js';
import { openWebDb } from './webdb/webdb.js';

export interface PageRankOptions {
  damping: number;
  tolerance: number;
  maxIterations: number;
}

export interface PageRankResult {
  /** Sums to 1 (for n > 0). */
  ranks: Float64Array;
  iterations: number;
  /** L1 change of the last iteration. */
  delta: number;
}

/**
 * PageRank of n nodes over directed edges `src[i] → dst[i]`. Duplicate edges
 * count once and self-links not at all.
 */
export function pageRank(n: number, src: ArrayLike<number>, dst: ArrayLike<number>, o: PageRankOptions): PageRankResult {
  if (n === 0) return { ranks: new Float64Array(0), iterations: 0, delta: 0 };
  // Edges as sorted keys s·n+t: duplicates fall next to each other, in 8 bytes an edge (a Set took ten times that).
  const keys = new Float64Array(src.length);
  let k = 0;
  for (let i = 0; i < src.length; i++) if (src[i] !== dst[i]) keys[k++] = src[i]! * n + dst[i]!;
  const sorted = keys.subarray(0, k).sort();
  const from = new Uint32Array(k);
  const to = new Uint32Array(k);
  const outDeg = new Uint32Array(n);
  let edges = 0;
  for (let i = 0; i < k; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) continue;
    const s = Math.floor(sorted[i]! / n);
    from[edges] = s;
    to[edges++] = sorted[i]! - s * n;
    outDeg[s]!++;
  }
  let rank = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  let delta = Infinity;
  let iterations = 0;
  while (iterations < o.maxIterations && delta >= o.tolerance) {
    let dangling = 0;
    for (let i = 0; i < n; i++) if (outDeg[i] === 0) dangling += rank[i]!;
    next.fill((1 - o.damping) / n + (o.damping * dangling) / n);
    for (let e = 0; e < edges; e++) next[to[e]!]! += (o.damping * rank[from[e]!]!) / outDeg[from[e]!]!;
    delta = 0;
    for (let i = 0; i < n; i++) delta += Math.abs(next[i]! - rank[i]!);
    [rank, next] = [next, rank];
    iterations++;
  }
  return { ranks: rank, iterations, delta };
}

export interface LinkRankSummary {
  pages: number;
  links: number;
  iterations: number;
  delta: number;
}

export function linkRankOptions(conf: Conf): PageRankOptions & { ignoreNavigation: boolean; withinSite: boolean } {
  return {
    damping: conf.getFloat('linkrank.damping'),
    tolerance: conf.getFloat('linkrank.tolerance'),
    maxIterations: conf.getInt('linkrank.max.iterations'),
    ignoreNavigation: conf.getBoolean('db.ignore.navigation.links'),
    withinSite: conf.getBoolean('linkrank.within.site'),
  };
}

/**
 * Link scores (mean 1) of pages 0..n-1 over the `edges` between them. The
 * WebDB numbers pages by URL, not in the order they were added (which
 * follows the fetch's timing): the sums then run in one order, so the same
 * graph gives the same scores to the last bit on every run and backend.
 */
export function linkScores(n: number, edges: Iterable<readonly [number, number]>, o: PageRankOptions): { scores: Float64Array; links: number; iterations: number; delta: number } {
  // Edges in typed arrays grown by doubling: 8 bytes a link, where arrays of numbers took twice that and more.
  let src = new Uint32Array(1024);
  let dst = new Uint32Array(1024);
  let links = 0;
  const grown = (x: Uint32Array) => {
    const y = new Uint32Array(x.length * 2);
    y.set(x);
    return y;
  };
  for (const [s, t] of edges) {
    if (links === src.length) {
      src = grown(src);
      dst = grown(dst);
    }
    src[links] = s;
    dst[links++] = t;
  }
  const r = pageRank(n, src.subarray(0, links), dst.subarray(0, links), o);
  const scores = r.ranks.map((x) => x * n);
  return { scores, links, iterations: r.iterations, delta: r.delta };
}

/**
 * `scores` (one a numbered page) over the mean score of each page's site as
 * the index will hold it: `sites` gives each page's host and, for a page
 * whose content was fetched, its content signature. Only fetched pages are
 * indexed, and dedup keeps one copy of each content, the best scored (a
 * site serving each page under several addresses, as a manual with language
 * variants does, would otherwise count its copies' low scores); a site with
 * many links to pages never fetched would otherwise have its pages lifted.
 * A site with no fetched page keeps its scores.
 */
export function withinSites(scores: Float64Array, sites: Iterable<readonly [host: string, signature: string | null]>): Float64Array {
  const hostOf: string[] = [];
  const best = new Map<string, Map<string, number>>();
  let i = 0;
  for (const [host, signature] of sites) {
    hostOf[i] = host;
    if (signature !== null) {
      const copies = best.get(host) ?? best.set(host, new Map()).get(host)!;
      copies.set(signature, Math.max(copies.get(signature) ?? 0, scores[i]!));
    }
    i++;
  }
  if (i !== scores.length) throw new Error(`linkrank: ${scores.length} pages numbered but ${i} sites read`);
  const mean = new Map<string, number>();
  for (const [host, copies] of best) {
    let sum = 0;
    for (const x of copies.values()) sum += x;
    if (sum > 0) mean.set(host, sum / copies.size);
  }
  return scores.map((x, id) => x / (mean.get(hostOf[id]!) ?? 1));
}

export async function linkrank(conf: Conf, opts: { webdb: string; log?: Log }): Promise<LinkRankSummary> {
  const o = linkRankOptions(conf);
  const db = openWebDb(opts.webdb);
  try {
    const pages = db.numberPages();
    const r = linkScores(pages, db.linkEdges({ withNavigation: !o.ignoreNavigation }), o);
    db.setLinkScores(o.withinSite ? withinSites(r.scores, db.numberedSites()) : r.scores);
    opts.log?.info(`${pages} pages, ${r.links} links, ${r.iterations} iterations, last change ${r.delta.toExponential(2)}`);
    return { pages, links: r.links, iterations: r.iterations, delta: r.delta };
  } finally {
    db.close();
  }
}

const USAGE = 'Usage: hazelnut linkrank <webdb> [-force]';

const tool: Tool = {
  name: 'linkrank',
  usage: USAGE,
  async run(ctx, args) {
    const a = parseArgs(args, { boolean: ['force'] });
    if (a._.length !== 1) throw new UsageError(a._.length === 0 ? 'missing <webdb>' : `unexpected argument ${a._[1]}`);
    const webdb = a._[0]!;
    const s = await runWithLog(ctx, { tool: 'linkrank', webdb, lock: { force: a.force === true } }, (log) =>
      linkrank(ctx.conf, { webdb, log }),
    );
    ctx.out.write(`linkrank: ${s.pages} pages, ${s.links} links, ${s.iterations} iterations (last change ${s.delta.toExponential(2)})\n`);
    return 0;
  },
};

export default tool;
