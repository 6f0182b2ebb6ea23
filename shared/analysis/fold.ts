/**
 * @module shared/analysis/fold
 * What becomes of one word before it is a term: case and diacritic folding
 * (Latin and Greek marks stripped, a few letters without a decomposition
 * folded all the same), possessives and apostrophes, and the one Korean
 * particle a Hangul word loses.
 */

const NON_ASCII = /[^\x00-\x7f]/;
const APOSTROPHE = /['’]/g;
const POSSESSIVE = /['’]s$/;
export const ASCII_LETTERS = /^[a-z]+$/;
/** Combining marks on a Latin or Greek base letter (after NFD). */
const LATIN_GREEK_MARKS = /([\p{sc=Latin}\p{sc=Greek}])[\u0300-\u036f]+/gu;
/** Letters that have no decomposition but fold all the same. */
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ς: 'σ', ё: 'е' };
const FOLD_CHARS = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'g');
export const HANGUL = /^\p{sc=Hangul}+$/u;
/** Korean particles, longest first; removed only when two syllables remain. */
const JOSA = ['에서는', '으로는', '에게서', '에서', '에게', '으로', '부터', '까지', '보다', '처럼', '께서', '은', '는', '이', '가', '을', '를', '에', '의', '와', '과', '도', '로', '만'];

/** Case and diacritic folding of one word (already NFKC). */
function fold(word: string): string {
  const lower = word.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  return lower
    .normalize('NFD')
    .replace(LATIN_GREEK_MARKS, '$1')
    .normalize('NFC')
    .replace(FOLD_CHARS, (c) => FOLD[c]!);
}

/** One word (a token's text) folded: NFKC, case and diacritics, without a possessive or apostrophes, a one-letter prefix joined (`e-mail` → `email`). */
export function foldWord(raw: string): string {
  let w = foldCase(raw);
  if (w.includes("'") || w.includes('’')) w = w.replace(POSSESSIVE, '').replace(APOSTROPHE, '');
  else if (w[1] === '-') w = w[0]! + w.slice(2);
  return w;
}

/** Case folded, and for non-ASCII text compatibility forms and diacritics too; nothing removed. */
export function foldCase(raw: string): string {
  return NON_ASCII.test(raw) ? fold(raw.normalize('NFKC')) : raw.toLowerCase();
}

/** A Hangul word without its trailing particle (josa), when two syllables remain. */
export function stripJosa(word: string): string {
  for (const j of JOSA) if (word.length - j.length >= 2 && word.endsWith(j)) return word.slice(0, -j.length);
  return word;
}
