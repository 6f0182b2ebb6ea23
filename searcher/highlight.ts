/**
 * @module searcher/highlight
 * Which words of a summary are marked. The index's analyzer decides what
 * matches (with stemming, `expense` finds `expensive` too); a summary marks
 * only the query's own words and their inflections (plural, possessive,
 * -ed, -ing), so a reader sees the word they typed: `expense` marks
 * "expenses" and "expensed", not "expensive". Words that came into the
 * query as synonyms are marked wherever their term matches.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { inflectionBase } from '../segments/inflection.js';
import { baseClass } from '../segments/offsets.js';

/** The summary's test for a word whose term matched, and what it knows without the word. */
export interface TypedWords {
  (word: string, term: string): boolean;
  /** The classes (segments/offsets.ts baseClass) of the bases typed for a term; undefined when its words are not judged. */
  classes(term: string): ReadonlySet<number> | undefined;
}

/**
 * The summary's test for a word whose term matched: for a term the user
 * typed, the word must share an inflection base with what they typed.
 */
export function typedWords(analyzer: Analyzer, rawQuery: string): TypedWords {
  // A page repeats its words: each is judged once per term.
  const typed = new Map<string, { bases: Set<string>; classes: Set<number>; judged: Map<string, boolean> }>();
  for (const t of analyzer.tokens(rawQuery)) {
    let entry = typed.get(t.term);
    if (!entry) typed.set(t.term, (entry = { bases: new Set(), classes: new Set(), judged: new Map() }));
    const base = inflectionBase(rawQuery.slice(t.start, t.end));
    entry.bases.add(base);
    entry.classes.add(baseClass(base));
  }
  const accept = (word: string, term: string) => {
    const entry = typed.get(term);
    if (!entry) return true;
    let ok = entry.judged.get(word);
    if (ok === undefined) entry.judged.set(word, (ok = entry.bases.has(inflectionBase(word))));
    return ok;
  };
  return Object.assign(accept, { classes: (term: string) => typed.get(term)?.classes });
}
