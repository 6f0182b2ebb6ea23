/**
 * @module searcher/query/variants
 * A typed word's derivational variants that the English stemmer leaves
 * apart: Porter2 strips inflections and most derivational suffixes
 * (`insertion` → `insert`, `existence` → `exist`), but not a handful that
 * change the word's ending (`usage` ≠ `use`, `comparison` ≠ `compare`,
 * `conversion` ≠ `convert`, `storage` ≠ `store`,
 * `modification` ≠ `modify`). A question says the verb, a
 * reference page's title the noun (`Determining Disk Usage` for how much disk
 * a table uses), so each rule below names one such suffix pair; the query
 * word matches its variant as it matches a synonym. Suffixes that also
 * make unrelated words (`text` → `texture`, `commit` → `commission`) and the
 * comparative (`read` → `reader` is an agent, not a degree) are left out.
 */
import { isEnglishWord } from '../../shared/analysis/words.js';

/**
 * Suffix pairs [base ending, derived ending]: a word ending in the first
 * also reads as the word ending in the second and back, when at least
 * `MIN_ROOT` letters are left before the ending and the other form is an
 * English word. These are the regular English verb → noun derivations whose
 * noun Porter2 stems apart from the verb (its step 4 strips `ion` only after
 * `s` or `t`, and no `age` or `ification` at all).
 */
const PAIRS: readonly (readonly [string, string])[] = [
  ['e', 'age'], // use → usage, store → storage
  ['are', 'arison'], // compare → comparison
  ['vert', 'version'], // convert → conversion
  ['de', 'sion'], // decide → decision, include → inclusion
  ['nd', 'nsion'], // extend → extension, expand → expansion
  ['ify', 'ification'], // modify → modification, verify → verification
  ['ibe', 'iption'], // describe → description, subscribe → subscription
  ['uce', 'uction'], // reduce → reduction, produce → production
  ['olve', 'olution'], // resolve → resolution
  ['ume', 'umption'], // consume → consumption, assume → assumption
];

const MIN_ROOT = 2;
const WORD = /^[a-z]+$/;

/** The English surface variants of a lower-case word (not including the word). */
export function derivedForms(word: string): string[] {
  if (!WORD.test(word) || word.length < 3) return [];
  const out = new Set<string>();
  const keep = (root: string, ending: string) => {
    if (root.length >= MIN_ROOT && isEnglishWord(root + ending)) out.add(root + ending);
  };
  for (const [base, derived] of PAIRS) {
    if (word.endsWith(base)) keep(word.slice(0, word.length - base.length), derived);
    if (word.endsWith(derived)) keep(word.slice(0, word.length - derived.length), base);
  }
  out.delete(word);
  return [...out];
}
