/**
 * @module searcher/spell-pages
 * The pages "did you mean" looks up written forms in (searcher/suggest),
 * each tokenized once and kept, within a bound, as the forms of its words:
 * finding a page's tokens was most of what a correction cost, and the pages
 * looked in are few (those the corrected words score best in), so the same
 * pages come back query after query. A page keeps no text, only its words'
 * forms, term by term, and where each stands among its tokens, so a lookup
 * that may look at fewer tokens of it still counts exactly the forms within.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { wordOf } from '../shared/analysis/word-cache.js';
import { Lru } from '../shared/index/lru.js';

/** The forms a page writes its words in, as far as its first `max` tokens. */
export class PageForms {
  /** The page's tokens found (at most the `max` it was read with). */
  readonly count: number;
  /** The page's distinct terms of whole words (not an identifier's parts): each word token's term is a number into them. */
  private readonly terms: string[] = [];
  private readonly forms: string[] = [];
  /** Per whole-word token: where it stands among the page's tokens, its term's number and its form's. */
  private readonly at: Uint16Array | Uint32Array;
  private readonly termOf: Uint16Array | Uint32Array;
  private readonly formOf: Uint16Array | Uint32Array;

  constructor(analyzer: Pick<Analyzer, 'tokens'>, text: string, max: number) {
    const tokens = analyzer.tokens(text, max);
    this.count = tokens.length;
    const whole = tokens.filter((t) => !t.part);
    // Numbers below the tokens read: two bytes each for a page read to fewer than 65,536 (as searcher/suggest reads).
    const numbers = (n: number) => (max <= 0xffff ? new Uint16Array(n) : new Uint32Array(n));
    this.at = numbers(whole.length);
    this.termOf = numbers(whole.length);
    this.formOf = numbers(whole.length);
    const termNo = new Map<string, number>();
    const formNo = new Map<string, number>();
    whole.forEach((t, i) => {
      let n = termNo.get(t.term);
      if (n === undefined) termNo.set(t.term, (n = this.terms.push(t.term) - 1));
      const w = text.slice(t.start, t.end);
      let f = formNo.get(w);
      // A form cut out of the page with slice would keep the page's text alive.
      if (f === undefined) formNo.set(w, (f = this.forms.push(wordOf(text, t.start, t.end)) - 1));
      this.at[i] = t.pos;
      this.termOf[i] = n;
      this.formOf[i] = f;
    });
  }

  /** Counts into `seen` the forms of `term` among the page's first `within` tokens. */
  addForms(term: string, within: number, seen: Map<string, number>): void {
    const n = this.terms.indexOf(term);
    if (n < 0) return;
    for (let i = 0; i < this.at.length && this.at[i]! < within; i++) {
      if (this.termOf[i] !== n) continue;
      const w = this.forms[this.formOf[i]!]!;
      seen.set(w, (seen.get(w) ?? 0) + 1);
    }
  }

  /** Roughly what the page holds, in tokens' worth, for the bound of the pages kept. */
  get weight(): number {
    return this.at.length + this.forms.length;
  }
}

/** Pages kept per snapshot, by how much they hold: some 30 typical documentation pages, about 1 MB (a unit of weight is ~17 bytes). */
const KEPT_WEIGHT = 60_000;

/** The pages of one index, each read and tokenized when first looked in and kept while looked in lately (least recently used dropped). */
export class SpellingPages {
  private readonly kept: Lru<number, PageForms>;

  constructor(
    private readonly analyzer: Pick<Analyzer, 'tokens'>,
    private readonly textOf: (id: number) => string,
    /** Tokens a page is read to: as many as any lookup looks at. */
    private readonly max: number,
    keptWeight = KEPT_WEIGHT,
  ) {
    this.kept = new Lru(keptWeight, (p) => p.weight);
  }

  /** Page `id`'s forms. */
  page(id: number): PageForms {
    return this.kept.get(id) ?? this.kept.set(id, new PageForms(this.analyzer, this.textOf(id), this.max));
  }
}
