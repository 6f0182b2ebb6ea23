/**
 * @module searcher/shard/query
 * A shard's answer to one query in one call (POST /shard/query): the broker
 * ranks every shard's matches together, so the shard cannot know which of
 * its hits end among the best over all shards or on the page; it gives what
 * any of them could need instead. Its best by base score hold every hit of
 * it that is among the best over all shards (a hit outranked by more than
 * `depth` of its own shard is outranked by as many over all), so their
 * bonuses come with the matches; and its best after the bonuses come with
 * their summaries, which is where the page's hits of this shard are unless
 * grouping by site reaches deeper.
 */
import type { RankedHit } from '../group.js';
import { addProximity, findMatches, rankByBase, readQuery, searchable } from '../search.js';
import { hitDetails } from '../details.js';
import { makeScorer } from '../rank/score.js';
import { homeTitle } from '../sites.js';
import type { Snapshot } from '../snapshot.js';
import { didYouMean } from '../suggest.js';
import { SHARD_PROTOCOL, termStatsOf, type ShardQueryRequest, type ShardQueryResponse, type WireBonus } from './protocol.js';

/** A match as the broker will rank it: `id` its place in the answer (the broker's tie-break), `local` its document id. */
interface Ranked {
  id: number;
  local: number;
  score: number;
  site: string;
  full: boolean;
}

/**
 * The shard's matches that can be among the best `depth` by base score over
 * every shard, each with its best rank here (a hit at rank r over all shards
 * is at rank r or better in its shard), and the shard's own ranking. Over all
 * shards partial matches are ranked when too few pages hold every word,
 * which this shard's count alone cannot tell unless it has enough full
 * matches itself: then the best of both rankings.
 */
export function bestOfShard<H extends RankedHit>(full: H[], some: H[], partialBelow: number, depth: number): { joined: H[]; best: Map<H, number> } {
  const joined = rankByBase(full, some, partialBelow).ranked;
  const alone = joined.length === full.length ? [] : rankByBase(full, [], partialBelow).ranked;
  const best = new Map<H, number>();
  for (const ranked of [joined, alone]) ranked.slice(0, depth).forEach((h, rank) => best.set(h, Math.min(rank, best.get(h) ?? rank)));
  return { joined, best };
}

export function shardQuery(snap: Snapshot, req: ShardQueryRequest): ShardQueryResponse {
  const out: ShardQueryResponse = { protocol: SHARD_PROTOCOL, version: snap.version, exact: true, sites: [], siteUrls: [], types: [], langs: [], hits: [], bonus: [], shown: {}, names: {}, suggestion: null };
  const q = { raw: req.query, ...readQuery(req.query, snap.analyzer, snap.settings) };
  if (req.suggest) out.suggestion = didYouMean(snap, q) || null;
  if (!searchable(q.query)) return out;
  const termStats = termStatsOf(req.stats);
  const m = findMatches(snap, q.query, termStats);
  out.exact = m.exact;
  const index = (list: string[], seen: Map<string, number>, value: string, onNew?: () => void) => {
    let i = seen.get(value);
    if (i === undefined) {
      seen.set(value, (i = list.push(value) - 1));
      onNew?.();
    }
    return i;
  };
  const [sites, types, langs] = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  const full: Ranked[] = [];
  const some: Ranked[] = [];
  for (const h of m.full.concat(m.some)) {
    const site = index(out.sites, sites, h.site, () => out.siteUrls.push(snap.reader.doc(h.id).url));
    const k = out.hits.push([h.id, site, index(out.types, types, h.type), index(out.langs, langs, h.lang), h.score, h.full ? 1 : 0]) - 1;
    (h.full ? full : some).push({ id: k, local: h.id, score: h.score, site: h.site, full: h.full });
  }
  out.sites.forEach((site, k) => {
    const title = homeTitle(snap.reader, { site, url: out.siteUrls[k]! });
    if (title) out.names[site] = title;
  });

  const { joined, best } = bestOfShard(full, some, req.partialBelow, req.depth);
  const scorer = makeScorer(snap.reader, q.query.terms, snap.settings.rank, undefined, q.query.weights, q.query.alternatives, termStats);
  const bonus = new Map<number, WireBonus>();
  for (const [h, rank] of best) bonus.set(h.id, [h.local, scorer.proximity(h.local), rank < req.lifted ? scorer.sectionLift(h.local) : 0]);
  out.bonus = [...bonus.values()];

  const mine = joined.map((h) => ({ ...h }));
  addProximity(mine, (h, rank) => {
    const b = bonus.get(h.id);
    return b ? b[1] + (rank < req.lifted ? b[2] : 0) : 0;
  });
  for (const h of mine.slice(0, req.summaries)) {
    const doc = snap.reader.doc(h.local);
    // Anchors are shown by /anchors, which the broker forwards: they need not travel with every hit.
    out.shown[h.local] = { doc: { ...doc, anchors: [] }, ...hitDetails(snap, { id: h.local, doc }, q) };
  }
  return out;
}
