/**
 * @module searcher/highlight
 * Which words of a summary are marked. The index's analyzer decides what
 * matches (with stemming, `expense` finds `expensive` too); a summary marks
 * only the query's own words and their inflections (plural, possessive,
 * -ed, -ing), so a reader sees the word they typed: `expense` marks
 * "expenses" and "expensed", not "expensive". Words that came into the
 * query as synonyms are marked wherever their term matches.
 */
import { Analyzer } from '../shared/analysis/analyzer.js';

/** Case and diacritics folded the analyzer's way, without stemming. */
const folder = new Analyzer({ stemEnglish: false });

/** A word without its inflection: `policies` → `policy`, `reported` → `report`, `running` → `run`, `expense` → `expens`. */
export function inflectionBase(word: string): string {
  let w = folder.terms(word)[0] ?? word.toLowerCase();
  if (!/^[a-z]+$/.test(w)) return w;
  if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  else if (/(?:s|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|ff|zz)$/.test(w)) w = w.slice(0, -1);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/**
 * The summary's test for a word whose term matched: for a term the user
 * typed, the word must share an inflection base with what they typed.
 */
export function typedWords(analyzer: Analyzer, rawQuery: string): (word: string, term: string) => boolean {
  // A page repeats its words: each is judged once per term.
  const typed = new Map<string, { bases: Set<string>; judged: Map<string, boolean> }>();
  for (const t of analyzer.tokens(rawQuery)) {
    let entry = typed.get(t.term);
    if (!entry) typed.set(t.term, (entry = { bases: new Set(), judged: new Map() }));
    entry.bases.add(inflectionBase(rawQuery.slice(t.start, t.end)));
  }
  return (word, term) => {
    const entry = typed.get(term);
    if (!entry) return true;
    let ok = entry.judged.get(word);
    if (ok === undefined) entry.judged.set(word, (ok = entry.bases.has(inflectionBase(word))));
    return ok;
  };
}
