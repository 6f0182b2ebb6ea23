/**
 * @module segments/inflection
 * A word without its inflection (plural, possessive, -ed, -ing): summaries
 * mark a word only when it shares this base with what the user typed
 * (searcher/highlight.ts). The index stores, for every word of a page, which
 * of its term's bases it has (segments/offsets.ts), so a summary tells marked
 * words without reading their text.
 */
import { Analyzer } from '../shared/analysis/analyzer.js';

/** Case and diacritics folded the analyzer's way, without stemming. */
const folder = new Analyzer({ stemEnglish: false });

/** `policies` → `policy`, `reported` → `report`, `running` → `run`, `expense` → `expens`. */
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
