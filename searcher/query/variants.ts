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
 * also reads as the word ending in the second, when at least `MIN_ROOT`
 * letters are left before the ending and that form is an English word
 * (verb to noun only: back, `damage` would read as `dame`). These are the regular English verb → noun derivations whose
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

/** Inflected endings and what replaces them on the base form (`storing` → `store`, `inserts` → `insert`). */
const INFLECTIONS: readonly (readonly [string, string])[] = [
  ['ing', ''],
  ['ing', 'e'],
  ['ed', ''],
  ['ed', 'e'],
  ['es', ''],
  ['s', ''],
];

/**
 * The English surface variants of a lower-case word (not including the
 * word), from the word and from its base form when it is inflected: an
 * English word that `stem` takes to the same stem (`storing` → `store` →
 * `storage`; `using` → `us` is another stem, `use` the base).
 */
export function derivedForms(word: string, stem: (w: string) => string): string[] {
  if (!WORD.test(word) || word.length < 3) return [];
  const own = stem(word);
  const bases = [word];
  // The first base that fits: `passed` is `pass`, not the rarer `passe`.
  for (const [ending, base] of INFLECTIONS) {
    const b = word.slice(0, word.length - ending.length) + base;
    if (word.endsWith(ending) && b.length >= 3 && isEnglishWord(b) && stem(b) === own) {
      bases.push(b);
      break;
    }
  }
  const out = new Set<string>();
  const keep = (root: string, ending: string) => {
    if (root.length >= MIN_ROOT && isEnglishWord(root + ending) && stem(root + ending) !== own) out.add(root + ending);
  };
  for (const w of bases) for (const [base, derived] of PAIRS) if (w.endsWith(base)) keep(w.slice(0, w.length - base.length), derived);
  return [...out];
}
