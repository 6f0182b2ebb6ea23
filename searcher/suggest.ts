/**
 * @module searcher/suggest
 * The "did you mean" of a search: the query's unknown words corrected from
 * the index vocabulary (searcher/spell), each written the way a page that
 * holds it writes it.
 */
import { parseText } from './details.js';
import type { SearchResult } from './search.js';
import { SpellingPages } from './spell-pages.js';
import { corrections, editDistance, forgivenMisspelling, respell, writtenForm, type Respelled } from './spell.js';
import type { Snapshot } from './snapshot.js';
import { MAX_SUMMARY_TOKENS } from './summary.js';

/** Pages looked at for a term's written form. */
const SPELLING_PAGES = 3;
const SPELLING_TEXT_CHARS = 60_000;
/** Tokens of those pages looked at, all told. */
const SPELLING_TOKENS = SPELLING_PAGES * MAX_SUMMARY_TOKENS;

/** The pages looked in per snapshot, kept for the queries after. */
const spellingPages = new WeakMap<Snapshot, SpellingPages>();

/**
 * How the pages of the corrected query (those holding the term and
 * `context`, else the term) write the term, the form nearest to what was
 * typed over all of them; undefined when none shows it.
 */
function spelled(snap: Snapshot, term: string, typed: string, context: readonly string[]): string | undefined {
  const withContext = snap.reader.candidates([...new Set([term, ...context])], { limit: SPELLING_PAGES });
  const ids = withContext.length ? withContext : snap.reader.candidates([term], { limit: SPELLING_PAGES });
  const pages = spellingPages.get(snap) ?? new SpellingPages(snap.analyzer, (id) => pageText(snap, id), SPELLING_TOKENS);
  spellingPages.set(snap, pages);
  // A page is read only while tokens are left to look at: one of many tokens can use them all.
  function* read() {
    for (const id of ids) yield pages.page(id);
  }
  return writtenForm(read(), term, typed, SPELLING_TOKENS);
}

/** A page's title and parse text, as far as the written forms are looked for. */
function pageText(snap: Snapshot, id: number): string {
  const doc = snap.reader.doc(id);
  return `${doc.title}\n${parseText(snap, doc) ?? ''}`.slice(0, SPELLING_TEXT_CHARS);
}

/**
 * A corrected query when some query word is in no document and a near index
 * term exists, or when the stemmer forgave a misspelt word. Every word of it
 * is written as the pages of the corrected query write it: a misspelt word
 * whose term the index knows all the same (`inheritence`, stemmed as
 * inheritance is) is respelt, beside an unknown word or alone.
 */
export function didYouMean(snap: Snapshot, r: Pick<SearchResult, 'raw' | 'query'>): Respelled | undefined {
  // Synonyms were never typed, and a typed word with synonyms finds pages through them: nothing to correct.
  // (An identifier's group reads it whole or in parts: its words are typed.)
  const withSynonyms = new Set(r.query.alternatives.flat(2));
  const typed = r.query.terms.filter((t) => !r.query.weights.has(t) && !withSynonyms.has(t));
  const fixes = corrections(snap.reader, snap.analyzer, r.raw, typed);
  const forgiven = new Set(forgivenWords(snap, r.raw, typed));
  if (fixes.size === 0 && forgiven.size === 0) return undefined;
  const context = typed.map((t) => fixes.get(t) ?? t);
  const replacements = new Set(fixes.values());
  for (const t of typed) if (!fixes.has(t)) fixes.set(t, t);
  return respell(snap.analyzer, r.raw, fixes, (t, word) =>
    replacements.has(t) ? (spelled(snap, t, word, context) ?? t) : forgiven.has(word) ? nearForm(spelled(snap, t, word, context), word) : word,
  );
}

/** The typed words, in lower case, whose misspelling the stemmer forgave (searcher/spell's forgivenMisspelling). */
function forgivenWords(snap: Snapshot, raw: string, typed: readonly string[]): string[] {
  return snap.analyzer
    .tokens(raw)
    .filter((t) => !t.part && typed.includes(t.term))
    .map((t) => raw.slice(t.start, t.end).toLowerCase())
    .filter((w, i, all) => all.indexOf(w) === i && forgivenMisspelling(snap.analyzer, w, snap.analyzer.terms(w)[0] ?? ''));
}

/** A page's form of a misspelt known word when it is within two edits of it (`inheritence` → inheritance, not inherited); else the word. */
const nearForm = (form: string | undefined, word: string) => (form && editDistance(word, form.toLowerCase(), 2) <= 2 ? form : word);

