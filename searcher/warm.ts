/**
 * @module searcher/warm
 * What the first queries on a newly opened index would pay, paid before
 * they come. Before the index is current (before `/healthz` answers, or
 * before a switch): one search for a term in a few documents and its hits'
 * summaries, so the query and summary code is compiled, at a cost that does
 * not grow with the index. The commonest term, the one queries meet most,
 * is warmed before a switch (the old index answers meanwhile), not before a
 * start: its search grows with the index (some 130 ms of a worker's CPU at
 * 100k pages, a fifth of its start; 300 at a million). After a start only its unit scores
 * are worked out, a few blocks at a time between requests (`warmCommonest`);
 * a query meanwhile works out what it needs itself, the same numbers.
 * A switch leaves the summaries out: the segments' summaries files are
 * read anew only once the new index is current.
 */
import { hitDetails } from './details.js';
import { unitScores } from './prune.js';
import { search } from './search.js';
import type { Snapshot } from './snapshot.js';

/** The most documents the term warmed before a start is in: enough blocks to run every step of a query, the same few at any index size. */
export const FEW_DOCS = 1024;

/** Unit score blocks worked out between two looks at the requests waiting (about a millisecond at 100k pages). */
const BLOCKS_A_TURN = 16;

/**
 * The term in the most documents' text, and the one in the most of those
 * in fewer and at most `few`: undefined in an empty index (or with no such
 * term). Even a small index warms a term other than its commonest before
 * it serves, so a start works the same at any size. One pass over the
 * content document frequencies, kept per reader (a start asks twice).
 */
export function warmTerms(snap: Pick<Snapshot, 'reader'>, few = FEW_DOCS): { commonest?: string; few?: string } {
  const known = few === FEW_DOCS ? found.get(snap.reader) : undefined;
  if (known) return known;
  const df = snap.reader.docFreqs('content');
  let best = -1;
  // The first term of the highest frequency at most `few`, and of the highest below that one's.
  let first = -1;
  let second = -1;
  const at = (t: number) => (t < 0 ? 0 : df[t]!);
  for (let t = 0; t < df.length; t++) {
    const n = df[t]!;
    if (n > at(best)) best = t;
    if (n > few) continue;
    if (n > at(first)) (second = first), (first = t);
    else if (n < at(first) && n > at(second)) second = t;
  }
  const term = (t: number) => (t < 0 ? undefined : snap.reader.term(t));
  const terms = { commonest: term(best), few: term(at(first) < at(best) ? first : second) };
  if (few === FEW_DOCS) found.set(snap.reader, terms);
  return terms;
}

/** warmTerms' answer for each reader, at FEW_DOCS. */
const found = new WeakMap<Snapshot['reader'], { commonest?: string; few?: string }>();

/** The term in the most documents' text; undefined in an empty index. */
export const commonestTerm = (snap: Pick<Snapshot, 'reader'>): string | undefined => warmTerms(snap).commonest;

/** Searches `term` once, with its hits' summaries when asked. */
function searchOnce(snap: Snapshot, term: string | undefined, summaries: boolean): void {
  if (term === undefined) return;
  const r = search(snap, { query: term });
  if (summaries) for (const h of r.hits) hitDetails(snap, h, r);
}

/**
 * Before a start: the search of a term in few documents. Before a switch
 * (`commonest`): the commonest term's, which the old index answers
 * meanwhile, so the first queries on the new one find it worked out.
 */
export function warmUp(snap: Snapshot, opts: { summaries: boolean; commonest?: boolean }): void {
  const terms = warmTerms(snap);
  searchOnce(snap, opts.commonest ? terms.commonest : (terms.few ?? terms.commonest), opts.summaries);
}

/**
 * After a start: the commonest term's unit scores (with its postings read),
 * a few blocks a turn of the event loop so that requests are answered
 * between. Not its search: its counting pass is one piece, as long as the
 * term's postings (some 110 ms at 100k pages), and would hold up every
 * request behind it; the first query of the term pays it. Stops once
 * `current()` is no longer true (the index was switched or closed).
 */
export async function warmCommonest(snap: Snapshot, current: () => boolean): Promise<void> {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  await turn();
  const { commonest } = warmTerms(snap);
  if (commonest === undefined || !current()) return;
  const id = snap.reader.termId(commonest);
  const blocks = snap.reader.postingBlocks(id).blocks;
  const units = unitScores(snap.reader, snap.settings.rank);
  for (let b = 0; b < blocks; b += BLOCKS_A_TURN) {
    await turn();
    if (!current()) return;
    // Looked up again each turn: a query meanwhile may have pushed the term out of the reader's caches.
    const term = units.term(id);
    for (let k = b; k < Math.min(blocks, b + BLOCKS_A_TURN); k++) term.block(k);
  }
}
