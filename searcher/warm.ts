/**
 * @module searcher/warm
 * What the first query on a newly opened index would pay, paid before a
 * query meets it: one search for the index's commonest term, and on start
 * its hits' summaries. The search reads the unit scores' per-document shares
 * and the longest postings list and runs the query path once, so the code is
 * compiled; the commonest term is the one queries meet most. It runs before
 * the index is current: before the first answer, or before a switch (the old
 * index answers meanwhile). The summaries (a third of the warm-up, some
 * 75 ms at 100k pages: opening the segments the hits are in, and compiling
 * the summary code) come after the searcher answers, a hit at a time, each
 * after a turn of the event loop, so `/healthz` and a query that come
 * meanwhile wait for one summary at most. A switch leaves them out: the
 * segments' summaries files are read anew only once the new index is current.
 */
import { hitDetails } from './details.js';
import { search, type SearchResult } from './search.js';
import type { Snapshot } from './snapshot.js';

/** The term in the most documents' text; undefined in an empty index. */
export function commonestTerm(snap: Pick<Snapshot, 'reader'>): string | undefined {
  const df = snap.reader.docFreqs('content');
  let best = -1;
  for (let t = 0; t < df.length; t++) if (df[t]! > (best < 0 ? 0 : df[best]!)) best = t;
  return best < 0 ? undefined : snap.reader.term(best);
}

/** The search for the commonest term, whose hits warmSummaries takes; undefined in an empty index. */
export function warmSearch(snap: Snapshot): SearchResult | undefined {
  const term = commonestTerm(snap);
  return term === undefined ? undefined : search(snap, { query: term });
}

/** The summaries of the warm search's hits, each after a turn of the event loop: requests that came are answered first. */
export async function warmSummaries(snap: Snapshot, r: SearchResult): Promise<void> {
  for (const h of r.hits) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    hitDetails(snap, h, r);
  }
}
