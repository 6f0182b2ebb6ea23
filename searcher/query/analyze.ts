/**
 * @module searcher/query/analyze
 * Turns a parsed query into index terms with the one shared analyzer (with
 * the options the index was built with). A word the analyzer splits
 * (`www.apache.org`, `don't`, `foo:bar`) becomes a phrase, as in Nutch.
 * Stop words and question words are dropped at query time only, and only
 * when other words remain (reference/ranking.md §6); `+the` and quoted
 * words are kept. An identifier (`memoryUsage`, `pg_dump`, `os.path.join`)
 * or a compound matches as its whole term, or as its parts alone (the
 * analyzer indexes the whole then the parts, or a capitalised name whole
 * only, so the whole term alone must match), so a page saying `memory usage` in prose
 * scores for it too; the whole and the parts both score, so the page that
 * names the identifier outranks pages that only scatter its words.
 */
import type { Analyzer } from '../../shared/analysis/analyzer.js';
import type { DateClause, FilterClause, ParsedQuery, TextClause, TextField } from './parse.js';
import { documentType } from '../../shared/mime.js';
import { NO_RELATED, type RelatedTerms } from '../../shared/index/related-terms.js';
import { relatedOf } from './expansion.js';
import { NO_SYNONYMS, type Synonyms } from './synonyms.js';
import { derivedForms } from './variants.js';

/** Terms that must occur in a field; with `phrase`, next to each other in this order. */
export interface Match {
  field: TextField;
  terms: string[];
  phrase: boolean;
}

export interface AnalyzedQuery {
  /** Every group must match; a group matches when any of its alternatives does (OR). */
  required: Match[][];
  /** A document matching any of these is dropped. */
  excluded: Match[];
  filters: FilterClause[];
  dates: DateClause[];
  /** Distinct positive terms in query order: what is scored and highlighted. */
  terms: string[];
  /** Terms that came from synonyms or related words only, with the weight they score at (others score at 1). */
  weights: Map<string, number>;
  /** Related terms the index added as optional terms (searcher/query/expansion), each with the typed term it reads for. */
  related: Map<string, string>;
  /**
   * For each word with synonyms, the terms of each of its alternatives (the
   * word first): one meaning, so only its best alternative scores. Terms
   * typed as other words are left out; they score on their own.
   */
  alternatives: string[][][];
  /** Words left out as stop words. */
  stopped: string[];
  truncated: boolean;
}

function toMatch(analyzer: Analyzer, c: TextClause): Match | undefined {
  const terms = analyzer.terms(c.text);
  if (terms.length === 0) return undefined;
  return { field: c.field, terms, phrase: terms.length > 1 };
}

function isStopWord(c: TextClause, stopWords: ReadonlySet<string>): boolean {
  return c.field === 'default' && !c.quoted && !c.plus && stopWords.has(c.text.toLowerCase().replace(/[^\p{L}\p{N}']/gu, ''));
}

/** Words that, after `how`, make the question word (`how much`, `how many`): they ask for a quantity and name nothing. */
const QUANTITY = new Set(['much', 'many']);

/**
 * Whether `c` is the second word of the question word `how much` or `how
 * many`, `how` before it being dropped as a stop word: the page answering
 * how much disk a table uses says disk usage, not much.
 */
function asksQuantity(before: ParsedQuery['clauses'][number] | undefined, c: TextClause, stopWords: ReadonlySet<string>): boolean {
  return before?.kind === 'text' && isStopWord(before, stopWords) && before.text.toLowerCase() === 'how' && isStopWord(c, QUANTITY);
}

/**
 * The clause and, for a plain word with synonyms, each synonym as an alternative.
 * A phrase synonym shares the weight among its words, so "annual leave" for
 * "vacation" scores like one synonym, not two.
 */
function withSynonyms(analyzer: Analyzer, c: TextClause, m: Match, synonyms: Synonyms, fromSynonyms: Map<string, number>, derive: boolean): Match[] {
  if (c.field !== 'default' || c.quoted) return [m];
  const alts = [m];
  const word = c.text.normalize('NFKC').toLowerCase();
  const add = (s: string, weight: number) => {
    const sm = toMatch(analyzer, { ...c, text: s });
    if (!sm || alts.some((a) => a.terms.join(' ') === sm.terms.join(' '))) return;
    alts.push(sm);
    const w = weight / sm.terms.length;
    for (const t of sm.terms) fromSynonyms.set(t, Math.min(w, fromSynonyms.get(t) ?? w));
  };
  for (const s of synonyms.of.get(word) ?? []) add(s, synonyms.weight);
  if (derive) for (const s of derivedForms(word, (w) => analyzer.terms(w).join(' '))) add(s, synonyms.derivedWeight);
  return alts;
}

/**
 * For a clause holding an identifier or a compound: its terms without the
 * parts (what a page that kept the word whole indexed, as the analyzer keeps
 * a capitalised `Kestrelwing` whole while it splits `kestrelwing`), and its
 * terms with each such word replaced by its parts; undefined when it holds none.
 */
function compoundForms(analyzer: Analyzer, c: TextClause): { whole: string[]; parts: string[] } | undefined {
  if (c.field !== 'default' || c.quoted) return undefined;
  const toks = analyzer.tokens(c.text);
  if (!toks.some((t) => t.part)) return undefined;
  return {
    whole: toks.filter((t) => !t.part).map((t) => t.term),
    parts: [...new Set(toks.filter((t, i) => t.part || !toks[i + 1]?.part).map((t) => t.term))],
  };
}

/** The index's related terms and the weight they score at (0: none added). */
export interface RelatedWords {
  terms: RelatedTerms;
  weight: number;
}

export const NO_RELATED_WORDS: RelatedWords = { terms: NO_RELATED, weight: 0 };

export function analyzeQuery(
  q: ParsedQuery,
  analyzer: Analyzer,
  stopWords: ReadonlySet<string>,
  synonyms: Synonyms = NO_SYNONYMS,
  related: RelatedWords = NO_RELATED_WORDS,
): AnalyzedQuery {
  const out: AnalyzedQuery = { required: [], excluded: [], filters: [], dates: [], terms: [], weights: new Map(), related: new Map(), alternatives: [], stopped: [], truncated: q.truncated };
  /** Words typed plainly as one term, with no synonym: those related terms may be added to. */
  const plain: string[] = [];
  const fromSynonyms = new Map<string, number>();
  const stops: Match[][] = [];
  // A word typed twice (`line by line`) scores on its own, apart from its alternatives: a variant would score as a word of its own.
  const typedTerms = q.clauses.flatMap((c) => (c.kind === 'text' && !c.exclude ? analyzer.terms(c.text) : []));
  const typedOnce = (m: Match) => m.terms.length === 1 && typedTerms.filter((t) => t === m.terms[0]).length === 1;
  const withAlternatives: Match[][] = [];
  let previous: ParsedQuery['clauses'][number] | undefined;
  for (const c of q.clauses) {
    const after = previous;
    previous = c;
    // type:pdf names the format: the full type, so the index's type tag can narrow by it.
    if (c.kind === 'filter') out.filters.push(c.field === 'type' ? { ...c, value: documentType(c.value) } : c);
    else if (c.kind === 'date') out.dates.push(c);
    else if (c.kind === 'or') {
      const alts = c.alternatives.map((a) => toMatch(analyzer, a)).filter((m): m is Match => !!m);
      if (alts.length) out.required.push(alts);
    } else {
      const m = toMatch(analyzer, c);
      if (!m) continue;
      if (c.exclude) out.excluded.push(m);
      else if (isStopWord(c, stopWords) || asksQuantity(after, c, stopWords)) {
        stops.push([m]);
        out.stopped.push(c.text);
      } else {
        const alts = withSynonyms(analyzer, c, m, synonyms, fromSynonyms, synonyms.derivedWeight > 0 && typedOnce(m));
        const forms = alts.length === 1 ? compoundForms(analyzer, c) : undefined;
        if (forms) {
          // The whole term matches (a page that kept the word whole holds no parts), and so do the parts
          // alone: prose that names the identifier's words. Both score, the whole term first.
          const { whole, parts } = forms;
          out.required.push([{ field: c.field, terms: whole, phrase: whole.length > 1 }, { field: c.field, terms: parts, phrase: parts.length > 1 }]);
        } else out.required.push(alts);
        if (!forms && alts.length === 1 && c.field === 'default' && !c.quoted && m.terms.length === 1 && !plain.includes(m.terms[0]!)) plain.push(m.terms[0]!);
        if (alts.length > 1) withAlternatives.push(alts);
      }
    }
  }
  // Only stop words: they are the query after all.
  if (out.required.length === 0) {
    out.required = stops;
    out.stopped = [];
  }
  const seen = new Set<string>();
  for (const g of out.required)
    for (const m of g)
      for (const t of m.terms)
        if (!seen.has(t)) {
          seen.add(t);
          out.terms.push(t);
        }
  // A term the user typed scores in full even if a synonym brought it too.
  const typed = new Set(out.required.flatMap((g) => g[0]!.terms));
  for (const [t, w] of fromSynonyms) if (!typed.has(t)) out.weights.set(t, w);
  const typedCount = new Map<string, number>();
  for (const g of out.required) for (const t of new Set(g[0]!.terms)) typedCount.set(t, (typedCount.get(t) ?? 0) + 1);
  for (const g of withAlternatives) {
    const elsewhere = (t: string) => (typedCount.get(t) ?? 0) > (g[0]!.terms.includes(t) ? 1 : 0);
    const alts = g.map((m) => m.terms.filter((t) => !elsewhere(t))).filter((a) => a.length > 0);
    if (alts.length > 1) out.alternatives.push(alts);
  }
  if (related.weight > 0) {
    const expanded = relatedOf(plain, related.terms, new Set(out.terms));
    for (const [t, w] of expanded.added) {
      out.terms.push(t);
      out.weights.set(t, related.weight);
      out.related.set(t, w);
    }
    for (const g of expanded.groups) out.alternatives.push(g.map((t) => [t]));
  }
  return out;
}
