/**
 * @module searcher/shard/routes
 * What a shard searcher (`hazelnut-searcher -shard`) answers its broker
 * (searcher/shard/protocol.ts), beside the pages every searcher serves:
 * statistics, term frequencies, matches scored with the broker's
 * statistics, the proximity bonus of the best of them, the hits' summaries
 * and site names, and explain.
 */
import type { Hono } from 'hono';
import { FIELDS } from '../../shared/index/types.js';
import { docByUrl, hitDetails } from '../details.js';
import { explainHtml } from '../explain.js';
import type { LeaseEnv } from '../http/lease.js';
import { messagePage } from '../http/layout.js';
import { makeScorer } from '../rank/score.js';
import { findMatches, readQuery, searchable } from '../search.js';
import { homeTitle } from '../sites.js';
import { didYouMean } from '../suggest.js';
import type { Snapshot } from '../snapshot.js';
import {
  termStatsOf,
  type DetailsRequest,
  type DetailsResponse,
  type DfRequest,
  type DfResponse,
  type ExplainRequest,
  type ProximityRequest,
  type ProximityResponse,
  type ShardSearchRequest,
  type ShardSearchResponse,
  type ShardStats,
} from './protocol.js';

export function shardStats(snap: Snapshot): ShardStats {
  const m = snap.reader.meta;
  return {
    version: snap.version,
    docCount: m.docCount,
    deletedCount: m.deletedCount,
    termCount: m.termCount,
    createdAt: m.createdAt,
    loadedAt: snap.loadedAt,
    indexSegments: m.segments,
    segments: snap.segments.names().length,
    avgFieldLength: m.avgFieldLength,
    avgSectionLength: m.avgSectionLength,
    sectionCount: m.sectionCount,
    analyzer: m.analyzer,
  };
}

/** The shard's matches, each with its base score: the broker ranks them with the other shards' matches. */
export function shardSearch(snap: Snapshot, req: ShardSearchRequest): ShardSearchResponse {
  const out: ShardSearchResponse = { version: snap.version, exact: true, sites: [], siteUrls: [], types: [], langs: [], hits: [] };
  const { query } = readQuery(req.query, snap.analyzer, snap.settings);
  if (!searchable(query)) return out;
  const m = findMatches(snap, query, termStatsOf(req.stats));
  const index = (list: string[], seen: Map<string, number>, value: string, onNew?: () => void) => {
    let i = seen.get(value);
    if (i === undefined) {
      seen.set(value, (i = list.push(value) - 1));
      onNew?.();
    }
    return i;
  };
  const [sites, types, langs] = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  for (const h of m.full.concat(m.some)) {
    const site = index(out.sites, sites, h.site, () => out.siteUrls.push(h.doc.url));
    out.hits.push([h.id, site, index(out.types, types, h.doc.type), index(out.langs, langs, h.doc.lang), h.score, h.full ? 1 : 0]);
  }
  out.exact = m.exact;
  return out;
}

/** The bonuses (proximity, section lift) of the given documents, with the broker's statistics. */
export function shardProximity(snap: Snapshot, req: ProximityRequest): ProximityResponse {
  const { query: q } = readQuery(req.query, snap.analyzer, snap.settings);
  const scorer = makeScorer(snap.reader, q.terms, snap.settings.rank, undefined, q.weights, q.alternatives, termStatsOf(req.stats));
  return { version: snap.version, bonus: req.ids.map((id, k) => scorer.proximity(id) + (k < (req.lifted ?? 0) ? scorer.sectionLift(id) : 0)) };
}

export function shardDetails(snap: Snapshot, req: DetailsRequest): DetailsResponse {
  const q = { raw: req.query, ...readQuery(req.query, snap.analyzer, snap.settings) };
  const docs = req.ids.map((id) => {
    const doc = snap.reader.doc(id);
    // Anchors are shown by /anchors, which the broker forwards: they need not travel with every hit.
    return { doc: { ...doc, anchors: [] }, ...hitDetails(snap, { id, doc }, q) };
  });
  const names: Record<string, string> = {};
  for (const { site, url } of req.sites) {
    const title = homeTitle(snap.reader, { site, url });
    if (title) names[site] = title;
  }
  return { version: snap.version, docs, names, suggestion: (req.suggest && didYouMean(snap, q)) || null };
}

export function shardRoutes(app: Hono<LeaseEnv>): void {
  app.get('/shard/stats', (c) => c.json(shardStats(c.get('snapshot'))));
  app.post('/shard/df', async (c) => {
    const snap = c.get('snapshot');
    const { terms } = await c.req.json<DfRequest>();
    const body: DfResponse = { version: snap.version, df: terms.map((t) => FIELDS.map((f) => snap.reader.docFreq(f, t))) };
    return c.json(body);
  });
  app.post('/shard/search', async (c) => c.json(shardSearch(c.get('snapshot'), await c.req.json<ShardSearchRequest>())));
  app.post('/shard/proximity', async (c) => c.json(shardProximity(c.get('snapshot'), await c.req.json<ProximityRequest>())));
  app.post('/shard/details', async (c) => c.json(shardDetails(c.get('snapshot'), await c.req.json<DetailsRequest>())));
  app.post('/shard/explain', async (c) => {
    const snap = c.get('snapshot');
    const req = await c.req.json<ExplainRequest>();
    const doc = docByUrl(snap, req.url);
    if (!doc) return c.html(messagePage('Not found', `${req.url} is not in the index.`), 404);
    return c.html(explainHtml(snap, doc, req.query, termStatsOf(req.stats)));
  });
}
