/**
 * @module searcher/shard/routes
 * What a shard searcher (`hazelnut-searcher -shard`) answers its broker
 * (searcher/shard/protocol.ts), beside the pages every searcher serves:
 * statistics, term frequencies, a query's matches scored with the broker's
 * statistics with what the page needs of them (shard/query.ts), the
 * summaries of hits past those, and explain. A call of another protocol
 * (a broker of another release) is refused with a message saying so.
 */
import type { Context, Hono } from 'hono';
import { FIELDS } from '../../shared/index/types.js';
import { docByUrl, hitDetails } from '../details.js';
import { explainHtml } from '../explain.js';
import type { LeaseEnv } from '../http/lease.js';
import { messagePage } from '../http/layout.js';
import { readerStats } from '../rank/score.js';
import { readQuery } from '../search.js';
import { homeTitle } from '../sites.js';
import { didYouMean } from '../suggest.js';
import type { Snapshot } from '../snapshot.js';
import {
  SHARD_PROTOCOL,
  termStatsOf,
  type DetailsRequest,
  type DetailsResponse,
  type DfRequest,
  type DfResponse,
  type ExplainRequest,
  type ShardQueryRequest,
  type ShardStats,
} from './protocol.js';
import { shardQuery } from './query.js';

export function shardStats(snap: Snapshot): ShardStats {
  const m = snap.reader.meta;
  return {
    protocol: SHARD_PROTOCOL,
    version: snap.version,
    docCount: m.docCount,
    deletedCount: m.deletedCount,
    termCount: m.termCount,
    createdAt: m.createdAt,
    loadedAt: snap.loadedAt,
    indexSegments: m.segments,
    segments: snap.segments.names().length,
    // The body's as this searcher ranks it (searcher/rank/pivot), so the broker's global statistics rank alike.
    avgFieldLength: { ...m.avgFieldLength, content: readerStats(snap.reader, snap.settings.rank).avgFieldLength('content') },
    avgSectionLength: m.avgSectionLength,
    sectionCount: m.sectionCount,
    analyzer: m.analyzer,
  };
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

/** A broker of another release: refused, since the bodies would be misread. */
function refused(c: Context<LeaseEnv>, protocol: unknown) {
  const theirs = typeof protocol === 'number' ? `protocol ${protocol}` : 'an older protocol';
  return c.json({ error: `this shard speaks broker protocol ${SHARD_PROTOCOL} and the broker ${theirs}: run the same hazelnut release on the broker and its shards` }, 409);
}

/** A POST whose JSON body names this protocol, answered by `answer`; any other, refused. */
const speaking =
  <T extends { protocol?: unknown }>(answer: (c: Context<LeaseEnv>, snap: Snapshot, req: T) => Response | Promise<Response>) =>
  async (c: Context<LeaseEnv>) => {
    const req = await c.req.json<T>();
    return req.protocol === SHARD_PROTOCOL ? answer(c, c.get('snapshot'), req) : refused(c, req.protocol);
  };

export function shardRoutes(app: Hono<LeaseEnv>): void {
  app.get('/shard/stats', (c) => c.json(shardStats(c.get('snapshot'))));
  app.post(
    '/shard/df',
    speaking<DfRequest>((c, snap, { terms }) => c.json({ version: snap.version, df: terms.map((t) => FIELDS.map((f) => snap.reader.docFreq(f, t))) } satisfies DfResponse)),
  );
  app.post('/shard/query', speaking<ShardQueryRequest>((c, snap, req) => c.json(shardQuery(snap, req))));
  app.post('/shard/details', speaking<DetailsRequest>((c, snap, req) => c.json(shardDetails(snap, req))));
  // The calls of brokers before protocol 2.
  for (const path of ['/shard/search', '/shard/proximity']) app.post(path, (c) => refused(c, undefined));
  app.post(
    '/shard/explain',
    speaking<ExplainRequest>((c, snap, req) => {
      const doc = docByUrl(snap, req.url);
      if (!doc) return c.html(messagePage('Not found', `${req.url} is not in the index.`), 404);
      return c.html(explainHtml(snap, doc, req.query, termStatsOf(req.stats)));
    }),
  );
}
