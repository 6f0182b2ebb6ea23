/**
 * @module shared/index/cache-budget
 * One budget for all an index reader keeps read or decoded
 * (`searcher.cache.mb`), split between its caches: pages of the index
 * files, the compressed postings and skip data of the terms queried, the
 * commonest terms' postings decoded whole, their unit scores (searcher/prune),
 * parsed stored documents and the commonest one-word searches' counts
 * (searcher/term-counts). The shares follow what a miss costs: a page
 * or a term's compressed postings is a `pread` from the operating system's
 * cache, a decoded list or its scores the CPU of decoding them again.
 * Apart from those bytes, the budget sets how many words the reader's
 * analyzer remembers.
 */

export interface CacheBudget {
  /** Bytes of 4 KiB pages of the index files (shared/index/paged). */
  pages: number;
  /** Bytes of terms' compressed postings and skip data (shared/index/postings-file). */
  postings: number;
  /** Bytes of terms' postings decoded whole (documents and frequencies). */
  decoded: number;
  /** Bytes of unit scores (searcher/prune). */
  units: number;
  /** Bytes of stored documents parsed, reckoned from their JSON's length. */
  stored: number;
  /** Bytes of one-word searches' counts and best matches (searcher/term-counts). */
  counts: number;
  /**
   * Words the reader's analyzer remembers (in each generation of its word
   * cache, shared/analysis/word-cache; about 160 bytes a word). A searcher
   * analyses its queries and the text around hits, not whole crawls: with an
   * indexer's 200,000, a realweb worker's cache held 17 MB of the words of
   * long pages after 1,000 queries, with no answer faster for it.
   */
  words: number;
}

/**
 * Unit scores weigh most: at a million pages a common word's take 1–4 MB and,
 * once dropped, are worked out again from its postings, a fifth of a query's
 * CPU there (a budget half as large again for them took the growth mix at a
 * million to 0.945× the CPU, and left 100k and realweb as they were). Pages
 * next: long documents' positions and sections are read a page at a time
 * (realweb's queries waited on them at a fifth), but a miss is a `pread`
 * from the operating system's cache.
 */
const SHARES: Omit<CacheBudget, 'words'> = { pages: 0.23, postings: 0.2, decoded: 0.15, units: 0.3, stored: 0.1, counts: 0.02 };

/** What a reader keeps when not told (the tools that open an index: merge, dedup, readindex, prune). */
export const DEFAULT_CACHE_MB = 32;

/** Words remembered a MB of budget: 16,384 in the default 32 MB. */
const WORDS_PER_MB = 512;

/** `mb` megabytes (MiB) split between a reader's caches. */
export function cacheBudget(mb: number = DEFAULT_CACHE_MB): CacheBudget {
  if (!(mb > 0)) throw new RangeError(`a cache budget must be more than 0 MB, not ${mb}`);
  const bytes = mb * 2 ** 20;
  const shares = Object.fromEntries(Object.entries(SHARES).map(([k, share]) => [k, Math.floor(bytes * share)])) as Omit<CacheBudget, 'words'>;
  return { ...shares, words: Math.max(1024, Math.floor(mb * WORDS_PER_MB)) };
}
