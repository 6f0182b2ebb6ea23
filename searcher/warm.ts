/**
 * @module searcher/warm
 * What the first query on a newly opened index would pay, paid before the
 * index is current (before `/healthz` answers, or before a switch): one
 * search for the index's commonest term, and on start its hits' summaries.
 * It reads the unit scores' per-document shares and the longest postings
 * list, opens the segments its hits are in, and runs the query path once, so
 * the code is compiled; the commonest term is the one queries meet most. A
 * switch leaves the summaries out: the segments' summaries files are read
 * anew only once the new index is current.
 */
import { hitDetails } from './details.js';
import { search } from './search.js';
import type { Snapshot } from './snapshot.js';

/** The term in the most documents' text; undefined in an empty index. */
export function commonestTerm(snap: Pick<Snapshot, 'reader'>): string | undefined {
  const df = snap.reader.docFreqs('content');
  let best = -1;
  for (let t = 0; t < df.length; t++) if (df[t]! > (best < 0 ? 0 : df[best]!)) best = t;
  return best < 0 ? undefined : snap.reader.term(best);
}

export function warmUp(snap: Snapshot, opts: { summaries: boolean }): void {
  const term = commonestTerm(snap);
  if (term === undefined) return;
  const r = search(snap, { query: term });
  if (opts.summaries) for (const h of r.hits) hitDetails(snap, h, r);
}
