/**
 * @module searcher/spell
 * "Did you mean": a query word the index has never seen is replaced by the
 * index's own term nearest to it (optimal string alignment distance: edits
 * and swapped neighbours), the distance weighed against how many documents
 * hold the term, so a common word one edit away beats a rare one. Terms are
 * analyzed (stemmed) forms, so the word shown is the way the best page of
 * the corrected query writes it. Works from the index alone.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { FIELDS, type IndexReader } from '../shared/index/types.js';
import { isEnglishWord } from '../shared/analysis/words.js';
import type { PageForms } from './spell-pages.js';
import { spellVocabulary, termsNear, type SpellVocabulary } from './spell-vocabulary.js';

/** Each edit costs this factor of document frequency: two edits must be 400× as common to win over one. */
const EDIT_PENALTY = 0.05;
/** Shorter words allow one edit, longer ones two. */
const ONE_EDIT_BELOW = 5;
/** A neighbour's term keeps at least this share of the typed word's letters. */
const STEM_SHARE = 0.6;
/**
 * A correction shorter than the typed word drops a letter the user typed:
 * weighed down against one that keeps every typed letter (`asynco` → asyncio,
 * a letter left out, rather than async, a letter typed for nothing).
 */
const DROPPED_LETTER = 0.2;
/** Words shorter than this are left alone (too many neighbours to guess from). */
const MIN_LENGTH = 3;

/** Optimal string alignment distance, or `max + 1` as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Documents holding the term in any field (the largest per-field count). */
export function documentFrequency(reader: IndexReader, term: string): number {
  let df = 0;
  for (const f of FIELDS) df = Math.max(df, reader.docFreq(f, term));
  return df;
}

/** The vocabulary as spelling searches it (front-coded, searcher/spell-vocabulary), built once per index when first asked. */
const vocabularies = new WeakMap<IndexReader, SpellVocabulary>();

function vocabulary(reader: IndexReader): SpellVocabulary {
  let v = vocabularies.get(reader);
  if (!v) vocabularies.set(reader, (v = spellVocabulary(reader.meta.termCount, (id) => reader.term(id))));
  return v;
}

/** One edit away from `word`, at or after character `from`: deletions, swaps of neighbours, replacements and insertions of a-z. */
function oneEdit(word: string, from = 0): Set<string> {
  const out = new Set<string>();
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = from; i <= word.length; i++) {
    const a = word.slice(0, i);
    const b = word.slice(i);
    if (b) out.add(a + b.slice(1));
    if (b.length > 1) out.add(a + b[1] + b[0] + b.slice(2));
    for (const c of letters) {
      if (b) out.add(a + c + b.slice(1));
      out.add(a + c + b);
    }
  }
  out.delete(word);
  return out;
}

/**
 * Index terms near a typed word, with their distance: terms near its
 * analyzed form, and the analyzed forms of words one edit from it (with
 * stemming on, `encodnig` is far from the term `encod` but one swap from
 * `encoding`).
 */
function nearTerms(reader: IndexReader, analyzer: Analyzer, word: string, term: string): Map<string, number> {
  const near = termsNear(vocabulary(reader), term, term.length < ONE_EDIT_BELOW ? 1 : 2);
  if (/^[a-z]+$/.test(word))
    for (const v of oneEdit(word)) {
      // Only a real word one edit away: a stemmer also cuts non-words down to a term (`replcation` → `replacation` → replac).
      if (!isEnglishWord(v)) continue;
      const t = analyzer.terms(v)[0];
      // A stemmer can cut an odd neighbour down to another word entirely (`ament` → `am`).
      if (t !== undefined && t !== term && t.length >= STEM_SHARE * word.length && documentFrequency(reader, t) > 0) near.set(t, 1);
    }
  return near;
}

/**
 * A typed word the index knows only by its stem, that is no English word but
 * one edit from an English word of the same stem (`inheritence`,
 * inheritance): the stemmer forgave the misspelling, and the pages write
 * the word the other way.
 */
export function forgivenMisspelling(analyzer: Analyzer, word: string, term: string): boolean {
  if (word.length < MIN_LENGTH || word === term || !/^[a-z]+$/.test(word) || isEnglishWord(word)) return false;
  // A stemmer changes a word's end only, its last kept letter at most (y → i): a word of the same stem keeps the rest.
  for (const v of oneEdit(word, Math.max(0, term.length - 1))) if (analyzer.terms(v)[0] === term && isEnglishWord(v)) return true;
  return false;
}

/** Documents the query's known words point at: a correction that appears among them fits the query. */
const CONTEXT_DOCS = 200;
/** A context document holding the term counts this many times its plain document frequency. */
const CONTEXT_WEIGHT = 20;

/** The index term that best replaces an unknown typed word, or undefined when none is near enough. */
export function correction(reader: IndexReader, analyzer: Analyzer, word: string, term: string, context: readonly number[] = []): string | undefined {
  if (term.length < MIN_LENGTH || !/^\p{L}+$/u.test(term)) return undefined;
  let best: string | undefined;
  let bestScore = 0;
  // The most a term could score: in every document and every context document. Nearest first, so a
  // common term one edit away passes over the many two edits away unread.
  const most = reader.meta.docCount + reader.meta.deletedCount + CONTEXT_WEIGHT * context.length;
  for (const [t, d] of [...nearTerms(reader, analyzer, word, term)].sort((a, b) => a[1] - b[1])) {
    const drop = t.length < term.length ? DROPPED_LETTER : 1;
    if (most * EDIT_PENALTY ** d * drop < bestScore) continue;
    const id = reader.termId(t);
    let inContext = 0;
    for (const doc of context) if (reader.entry(doc, id) >= 0) inContext++;
    const score = (documentFrequency(reader, t) + CONTEXT_WEIGHT * inContext) * EDIT_PENALTY ** d * drop;
    if (score > bestScore || (score === bestScore && best !== undefined && t < best)) {
      best = t;
      bestScore = score;
    }
  }
  return best;
}

export interface Respelled {
  /** The query with the corrected words in place. */
  query: string;
  /** The query in pieces, corrected words flagged (to emphasize them). */
  parts: { text: string; corrected: boolean }[];
}

/**
 * Corrections for the typed words whose terms no document holds, as term →
 * replacement term; empty when every word is known or none has a near term.
 * `typed` are the query's terms that the user typed (not synonyms).
 */
export function corrections(reader: IndexReader, analyzer: Analyzer, raw: string, typed: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const unknown = typed.filter((t) => documentFrequency(reader, t) === 0);
  if (unknown.length === 0) return out;
  const known = typed.filter((t) => !unknown.includes(t));
  const context = known.length ? reader.candidates(known, { limit: CONTEXT_DOCS }) : [];
  for (const tok of analyzer.tokens(raw)) {
    // The parts of an identifier or compound span the whole word: the whole is corrected, or nothing.
    if (tok.part || !unknown.includes(tok.term) || out.has(tok.term)) continue;
    const word = raw.slice(tok.start, tok.end).toLowerCase();
    const c = correction(reader, analyzer, word, tok.term, context);
    if (c) out.set(tok.term, c);
  }
  return out;
}

/**
 * The raw query with each corrected word replaced by `spell(term)` (its
 * written form), keeping operators, quotes and every other word as typed.
 */
export function respell(analyzer: Analyzer, raw: string, fixes: ReadonlyMap<string, string>, spell: (term: string, typed: string) => string): Respelled | undefined {
  const parts: Respelled['parts'] = [];
  let pos = 0;
  for (const t of analyzer.tokens(raw)) {
    const fix = fixes.get(t.term);
    if (!fix) continue;
    if (t.part || t.start < pos) continue;
    if (t.start > pos) parts.push({ text: raw.slice(pos, t.start), corrected: false });
    const typed = raw.slice(t.start, t.end);
    const written = spell(fix, typed.toLowerCase());
    // A word typed with a capital (a query's first word) keeps it when the pages write the word in lower case.
    const text = /^\p{Lu}\p{Ll}+$/u.test(typed) && written === written.toLowerCase() ? written.charAt(0).toUpperCase() + written.slice(1) : written;
    parts.push({ text: text.toLowerCase() === typed.toLowerCase() ? typed : text, corrected: text.toLowerCase() !== typed.toLowerCase() });
    pos = t.end;
  }
  if (!parts.some((p) => p.corrected)) return undefined;
  if (pos < raw.length) parts.push({ text: raw.slice(pos), corrected: false });
  return { query: parts.map((p) => p.text).join(''), parts };
}

/**
 * How `pages` (looked at in turn, as one text) write a word whose term is
 * `term`, within their first `maxTokens` tokens, or undefined: of its
 * forms, the nearest to what was typed (`rebsae` → rebase, not rebased),
 * then the commonest. A page is read only while tokens are left to look at.
 */
export function writtenForm(pages: Iterable<Pick<PageForms, 'count' | 'addForms'>>, term: string, typed: string, maxTokens: number): string | undefined {
  const seen = new Map<string, number>();
  let left = maxTokens;
  const each = pages[Symbol.iterator]();
  for (let next = left >= 1 && each.next(); next && !next.done; next = left >= 1 && each.next()) {
    // A part of an identifier spans the identifier (`async` is not written `async_for_stmt`): pages count whole words' forms.
    next.value.addForms(term, left, seen);
    left -= Math.min(next.value.count, left);
  }
  const far = typed.length + 1;
  const rank = ([w, n]: [string, number]) => editDistance(typed, w.toLowerCase(), far) * 1e6 - n;
  const best = [...seen].sort((a, b) => rank(a) - rank(b) || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  // Capitals of a heading or a sentence start are not the word's: `vacum` → vacuum, not VACUUM; readFile keeps its.
  return best && typed === typed.toLowerCase() && /^(?:[A-Z][a-z]*|[A-Z]+)$/.test(best) ? best.toLowerCase() : best;
}
