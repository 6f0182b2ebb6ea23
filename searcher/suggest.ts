/**
 * @module searcher/suggest
 * The "did you mean" of a search: the query's unknown words corrected from
 * the index vocabulary (searcher/spell), each written the way a page that
 * holds it writes it.
 */
import { parseText } from './details.js';
import type { SearchResult } from './search.js';
import { isEnglishWord } from '../shared/analysis/words.js';
import { corrections, editDistance, respell, writtenForm, type Respelled } from './spell.js';
import type { Snapshot } from './snapshot.js';
import { MAX_SUMMARY_TOKENS } from './summary.js';

/** Pages looked at for a term's written form. */
const SPELLING_PAGES = 3;
const SPELLING_TEXT_CHARS = 60_000;

/**
 * How the pages of the corrected query (those holding the term and
 * `context`, else the term) write the term, the form nearest to what was
 * typed over all of them; undefined when none shows it.
 */
function spelled(snap: Snapshot, term: string, typed: string, context: readonly string[]): string | undefined {
  const withContext = snap.reader.candidates([...new Set([term, ...context])], { limit: SPELLING_PAGES });
  const pages = withContext.length ? withContext : snap.reader.candidates([term], { limit: SPELLING_PAGES });
  const text = pages
    .map((id) => {
      const doc = snap.reader.doc(id);
      return `${doc.title}\n${parseText(snap, doc) ?? ''}`.slice(0, SPELLING_TEXT_CHARS);
    })
    .join('\n');
  return writtenForm(snap.analyzer, text, term, typed, SPELLING_PAGES * MAX_SUMMARY_TOKENS);
}

/**
 * A corrected query when some query word is in no document and a near index
 * term exists. Every word of it is written as the pages of the corrected
 * query write it: a misspelt word whose term the index knows all the same
 * (`inheritence`, stemmed as inheritance is) is respelt beside the unknown one.
 */
export function didYouMean(snap: Snapshot, r: Pick<SearchResult, 'raw' | 'query'>): Respelled | undefined {
  // Synonyms were never typed, and a typed word with synonyms finds pages through them: nothing to correct.
  // (An identifier's group reads it whole or in parts: its words are typed.)
  const withSynonyms = new Set(r.query.alternatives.flat(2));
  const typed = r.query.terms.filter((t) => !r.query.weights.has(t) && !withSynonyms.has(t));
  const fixes = corrections(snap.reader, snap.analyzer, r.raw, typed);
  if (fixes.size === 0) return undefined;
  const context = typed.map((t) => fixes.get(t) ?? t);
  const unknown = new Set(fixes.keys());
  for (const t of typed) if (!fixes.has(t)) fixes.set(t, t);
  return respell(snap.analyzer, r.raw, fixes, (t, word) => (unknown.has(t) ? (spelled(snap, t, word, context) ?? t) : misspelt(word) ? nearForm(spelled(snap, t, word, context), word) : word));
}

/** A page's form of a misspelt known word when it is within two edits of it (`inheritence` → inheritance, not inherited); else the word. */
const nearForm = (form: string | undefined, word: string) => (form && editDistance(word, form.toLowerCase(), 2) <= 2 ? form : word);

/** A typed word in lower-case letters that is no English word: the pages' own spelling of its term may be the word meant. */
const misspelt = (word: string) => /^[a-z]+$/.test(word) && !isEnglishWord(word);
