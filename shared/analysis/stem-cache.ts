/**
 * @module shared/analysis/stem-cache
 * Folded words' stems, remembered apart from the words: the same folded
 * word comes of several (`Crawl`, `crawl`, `CRAWL`, the parts of
 * compounds), and stemming costs more than the rest of deriving a word.
 * Two generations of at most `max` each, as the word cache keeps its words
 * (word-cache.ts): a web's vocabulary outgrows one, and a cache that
 * started afresh when full made 178,000 stems of 123,000 words indexing
 * 10,000 pages of the growth crawl.
 */
export class StemCache {
  private young = new Map<string, string>();
  private old = new Map<string, string>();

  constructor(
    private readonly stem: (word: string) => string,
    private readonly max: number,
  ) {}

  get(w: string): string {
    let s = this.young.get(w);
    if (s === undefined) {
      if (this.young.size >= this.max) (this.old = this.young), (this.young = new Map());
      this.young.set(w, (s = this.old.get(w) ?? this.stem(w)));
    }
    return s;
  }
}
