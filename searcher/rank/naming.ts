/**
 * @module searcher/rank/naming
 * The naming bonus. A query that names a code identifier (`pg_dump`,
 * `pg_hba.conf`, `--force-with-lease`: shared/analysis/identifiers) asks for
 * the thing it names, and a page whose title holds that identifier is that
 * thing's own page (its manual page, its API entry). BM25F cannot tell it:
 * every page about the tool repeats the identifier until its count
 * saturates, so the title's one occurrence adds next to nothing and a page
 * using the tool at length outranks its manual page. Plain words earn no
 * such bonus: a title holding "copy" or "replication" names a topic many
 * pages share, and a title bonus for every word ranked questions worse.
 *
 * Other pages name a page too, by the words of their links to it: the
 * anchor votes. In BM25F the anchor texts share the saturation of the page's
 * own words, so once a reference page's body repeats the query's words, the
 * seventeen links calling it "event loop" add nothing over the one link to
 * a page beside it. Counted apart, like the link prior, each query word adds
 * its idf × a/(a + k1) for the a links naming the page with it, at a small
 * weight: at most the weight × the query's idf, it breaks near ties between
 * pages whose text answers the query alike and cannot lift one whose text
 * does not.
 */
import { isIdentifier } from '../../shared/analysis/identifiers.js';

/** The indexes in `terms` of the identifiers typed whole (weight 1: not a synonym's or a related term's). */
export function identifierTerms(terms: readonly string[], weightOf: (term: string) => number = () => 1): number[] {
  const out: number[] = [];
  terms.forEach((t, i) => {
    if (weightOf(t) === 1 && isIdentifier(t)) out.push(i);
  });
  return out;
}

/** `weight` × the share of the query's identifiers (indexes into its terms) that the title holds; 0 when it names none. */
export function namingBonus(identifiers: readonly number[], titleFreq: (term: number) => number, weight: number): number {
  if (identifiers.length === 0 || weight === 0) return 0;
  let named = 0;
  for (const t of identifiers) if (titleFreq(t) > 0) named++;
  return (weight * named) / identifiers.length;
}

/**
 * The anchor votes: `weight` × the query's combination (`combine`: the best
 * alternative of a word with synonyms) of each term's idf × a/(a + k1), `a`
 * the count of the term in the anchor texts of links to the page; `votes`,
 * one slot a term, is the working array (the top candidates of every
 * search pass through here).
 */
export function anchorVotes(idfs: readonly number[], anchorFreq: (term: number) => number, k1: number, weight: number, combine: (scores: Float64Array) => number, votes: Float64Array): number {
  if (weight === 0) return 0;
  let any = false;
  for (let t = 0; t < idfs.length; t++) {
    const a = anchorFreq(t);
    if (a > 0) any = true;
    votes[t] = (idfs[t]! * a) / (a + k1);
  }
  return any ? weight * combine(votes) : 0;
}
