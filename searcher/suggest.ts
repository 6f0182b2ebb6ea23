/**
 * @module searcher/suggest
 * The "did you mean" of a search: the query's unknown words corrected from
 * the index vocabulary (searcher/spell), each written the way a page that
 * holds it writes it.
 */
import { parseText } from './details.js';
import type { SearchResult } from './search.js';
import { corrections, respell, writtenForm, type Respelled } from './spell.js';
import type { Snapshot } from './snapshot.js';
import { MAX_SUMMARY_TOKENS } from './summary.js';

/** Pages looked at for a term's written form. */
const SPELLING_PAGES = 3;
const SPELLING_TEXT_CHARS = 60_000;

/** How pages write the term; the term itself when none of the first pages shows it. */
function spelled(snap: Snapshot, term: string, typed: string): string {
  for (const id of snap.reader.candidates([term], { limit: SPELLING_PAGES })) {
    const doc = snap.reader.doc(id);
    const text = `${doc.title}\n${parseText(snap, doc) ?? ''}`.slice(0, SPELLING_TEXT_CHARS);
    const w = writtenForm(snap.analyzer, text, term, typed, MAX_SUMMARY_TOKENS);
    if (w) return w;
  }
  return term;
}

/** A corrected query when some query word is in no document and a near index term exists. */
export function didYouMean(snap: Snapshot, r: Pick<SearchResult, 'raw' | 'query'>): Respelled | undefined {
  // Synonyms were never typed, and a typed word with synonyms finds pages through them: nothing to correct.
  const withSynonyms = new Set(r.query.required.filter((g) => g.length > 1).flatMap((g) => g.flatMap((m) => m.terms)));
  const typed = r.query.terms.filter((t) => !r.query.weights.has(t) && !withSynonyms.has(t));
  const fixes = corrections(snap.reader, snap.analyzer, r.raw, typed);
  return fixes.size ? respell(snap.analyzer, r.raw, fixes, (t, typed) => spelled(snap, t, typed)) : undefined;
}
