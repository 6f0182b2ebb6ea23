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
 * The searcher turns this into a small, saturating prior (ranking lesson:
 * raw PageRank piles up on hub pages).
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

export function linkRankOptions(conf: Conf): PageRankOptions & { ignoreNavigation: boolean } {
  return {
    damping: conf.getFloat('linkrank.damping'),
    tolerance: conf.getFloat('linkrank.tolerance'),
    maxIterations: conf.getInt('linkrank.max.iterations'),
    ignoreNavigation: conf.getBoolean('db.ignore.navigation.links'),
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
 * Computes link scores for every page of the WebDB and stores them, in one
 * transaction. Pages are numbers here, never URLs: memory is a few typed
 * arrays, 8 bytes a link and 24 a page.
 */
export async function linkrank(conf: Conf, opts: { webdb: string; log?: Log }): Promise<LinkRankSummary> {
  const o = linkRankOptions(conf);
  const db = openWebDb(opts.webdb);
  try {
    const pages = db.numberPages();
    const r = linkScores(pages, db.linkEdges({ withNavigation: !o.ignoreNavigation }), o);
    db.setLinkScores(r.scores);
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
