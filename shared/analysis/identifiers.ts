/**
 * @module shared/analysis/identifiers
 * Identifiers as documentation writes them: `snake_case`, `dotted.names`,
 * `--long-options`, `key=value`, `__dunder__`. The analyzer keeps such a
 * token whole as well as in its words (as it does camelCase), so a page
 * that names `pg_dump` or `with_for_update` holds a term no page that merely
 * uses the words `pg` and `dump` does, and a query naming the identifier
 * ranks the page that names it above pages scattering its parts. Split only,
 * these words were ordinary prose and the defining page lost to pages that
 * used them more often.
 */

/**
 * The token alternatives for identifiers, over a word-character class `w`
 * (a bracketed class source), as the analyzer's tokenizer joins them: a long
 * option, then a word with `_`, `.`, `=` or apostrophes between its runs and
 * underscores at either end. A plain word matches the second alone.
 */
export function identifierPatterns(w: string): string[] {
  return [
    `(?<!${w}|[_\\-])--${w}+(?:-${w}+)*`, // --long-option
    `(?:(?<!${w}|_)_+)?${w}+(?:(?:['’.=]|_+)${w}+)*_*`, // word, snake_case, dotted.name, key=value, __dunder__, don't
  ];
}

const NUMBER = /^\p{N}+(?:[.,]\p{N}+)+$/u;

/** A token that is more than one word joined as code joins them (an apostrophe keeps a word whole, a decimal number is a number). */
export function isIdentifier(token: string): boolean {
  return token.startsWith('--') || (/[_.=]/.test(token) && !NUMBER.test(token));
}

/**
 * The names an identifier joins at its outermost separator, `=` before `.`
 * before `_` and `-`: `NODE_OPTIONS=--max-old-space-size` → NODE_OPTIONS
 * --max-old-space-size, `flask.Flask.before_request` → flask Flask
 * before_request, `TARGET_FILE_DIR` → TARGET FILE DIR. Each may be an
 * identifier again, kept whole and split in turn by the analyzer.
 */
export function identifierWords(token: string): string[] {
  const at = token.includes('=') ? '=' : token.includes('.') ? '.' : /[_-]+/;
  return token.split(at).filter((w) => w !== '' && /[^_-]/.test(w));
}
