/**
 * @module searcher/spell-pages
 * The pages a query's respelt words are looked up in (searcher/suggest),
 * each read and tokenized once for all of its words: the words of a query
 * mostly look in the same pages, those holding every corrected word, and
 * reading a page's text and finding its tokens is most of what a "did you
 * mean" costs.
 */
import type { Analyzer, Token } from '../shared/analysis/analyzer.js';

export class SpellingPages {
  private readonly texts = new Map<number, string>();
  /** A text's first tokens, as many as were last asked for (fewer when the text has no more). */
  private readonly tokenized = new Map<string, { asked: number; tokens: Token[] }>();

  constructor(
    private readonly analyzer: Pick<Analyzer, 'tokens'>,
    private readonly textOf: (id: number) => string,
  ) {}

  /** The text of page `id`, read the first time only. */
  text(id: number): string {
    let t = this.texts.get(id);
    if (t === undefined) this.texts.set(id, (t = this.textOf(id)));
    return t;
  }

  /** The first `max` tokens of a text (as Analyzer.tokens), found again only when more are asked for than were found before. */
  tokens(text: string, max: number): Token[] {
    const known = this.tokenized.get(text);
    if (known && (known.asked >= max || known.tokens.length < known.asked)) return known.tokens.length > max ? known.tokens.slice(0, max) : known.tokens;
    const tokens = this.analyzer.tokens(text, max);
    this.tokenized.set(text, { asked: max, tokens });
    return tokens;
  }
}
