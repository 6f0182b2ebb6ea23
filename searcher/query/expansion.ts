/**
 * @module searcher/query/expansion
 * Related words learned from the crawl (shared/index/related-terms) added
 * to a question: a page may answer "my database file is damaged" while
 * saying "corrupt". A word typed plainly gains the terms the index relates
 * to it, as optional terms: never required, so the pages found are those the
 * words typed find, and scored at `searcher.related.weight` of a typed word
 * as one reading of the word (only the best of a word and its related terms
 * counts, as for synonyms, and for the proximity bonus the word stands
 * wherever any of them does). A related term is taken only
 * when another word of the question supports it (the index relates it to
 * that word too): a word has several senses and topics, and the rest of the
 * question says which one is meant. Queries of one word are left alone.
 */
import type { RelatedTerms } from '../../shared/index/related-terms.js';

/** Related terms added a word: a few, so the typed word keeps its meaning. */
export const RELATED_A_WORD = 2;

export interface Expanded {
  /** Each related term added, the typed term it reads for. */
  added: Map<string, string>;
  /** For each word expanded: the typed term first, then its related terms. */
  groups: string[][];
}

/**
 * The related terms of `words` (the query's plainly typed single-term words,
 * distinct) that another of `words` supports, at most RELATED_A_WORD a word;
 * `taken` are terms already in the query, never added again.
 */
export function relatedOf(words: readonly string[], related: RelatedTerms, taken: ReadonlySet<string>): Expanded {
  const out: Expanded = { added: new Map(), groups: [] };
  if (words.length < 2 || related.size === 0) return out;
  const near = (a: string, b: string) => related.of(a).some((r) => r.term === b);
  for (const w of words) {
    const group = [w];
    for (const r of related.of(w)) {
      if (group.length > RELATED_A_WORD) break;
      if (taken.has(r.term) || out.added.has(r.term)) continue;
      if (!words.some((o) => o !== w && near(o, r.term))) continue;
      group.push(r.term);
      out.added.set(r.term, w);
    }
    if (group.length > 1) out.groups.push(group);
  }
  return out;
}
