/**
 * @module searcher/explain
 * The /explain page of one document for a query: every factor of its score,
 * with the index's own statistics or, on a shard, the broker's.
 */
import type { StoredDoc } from '../shared/index/types.js';
import { explainPage } from './http/docpages.js';
import type { AnalyzedQuery } from './query/analyze.js';
import { matchOf } from './query/match.js';
import type { TermStats } from './rank/bm25f.js';
import { makeScorer, type Explanation } from './rank/score.js';
import { readQuery } from './search.js';
import type { Snapshot } from './snapshot.js';

/** Every factor of document `id`'s score for an analyzed query, as the searcher ranks it. */
export function explainScore(snap: Snapshot, id: number, q: AnalyzedQuery, stats?: TermStats): Explanation {
  const e = makeScorer(snap.reader, q.terms, snap.settings.rank, undefined, q.weights, q.alternatives, stats).explain(id);
  return { ...e, related: [...q.related].map(([term, of]) => ({ term, of, weight: q.weights.get(term) ?? 1 })) };
}

export function explainHtml(snap: Snapshot, doc: StoredDoc, raw: string, stats?: TermStats): string {
  if (!raw.trim()) return explainPage(doc, raw, undefined, 'none');
  const { query: q } = readQuery(raw, snap.analyzer, snap.settings, snap.related);
  const id = snap.reader.idOf(doc.url)!;
  return explainPage(doc, raw, explainScore(snap, id, q, stats), matchOf(snap.reader, id, doc, q), snap.settings.partialBelow);
}
