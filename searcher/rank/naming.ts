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
