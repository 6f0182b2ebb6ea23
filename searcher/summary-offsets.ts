/**
 * @module searcher/summary-offsets
 * The words a summary needs, from what the index already holds: the query
 * terms' positions in the page and the word offsets stored beside its parse
 * text at index time (segments/offsets.ts). No text is analyzed and no word
 * copied: the head of the page (the summary when nothing matches) and
 * `context` words on both sides of every hit are ranges of the stored offsets
 * for summarizeRanges(), with a cut wherever words were skipped, exactly as
 * searcher/summary-tokens finds them by scanning. Which hits are marked is
 * told by the stored inflection classes: one word of each term's class is read.
 */
import type { Analyzer } from '../shared/analysis/analyzer.js';
import type { IndexReader } from '../shared/index/types.js';
import { UNCLASSED, type TokenOffsets } from '../segments/offsets.js';
import type { PageText } from '../segments/summary-text.js';
import type { TypedWords } from './highlight.js';
import { Furniture, MAX_SUMMARY_TOKENS, type SummaryOptions, type WordRanges } from './summary.js';
import { lowerBound } from '../shared/bisect.js';

/** The query terms at token indexes of the page's text: indexes in increasing order, each with its term. */
export interface TextHits {
  at: number[];
  terms: string[];
}

/** A query's distinct terms and their numbers in an index: looked up once for all of a search's hits. */
export type IndexedTerms = readonly { readonly term: string; readonly id: number }[];

export function indexedTerms(reader: IndexReader, terms: Iterable<string>): IndexedTerms {
  return [...new Set(terms)].map((term) => ({ term, id: reader.termId(term) }));
}

/**
 * Where `terms` stand in document `id`'s text, from the index's positions
 * (title first, then the content, which starts with the text): only the
 * first `limit` words of the text. Each term's positions are in order; they
 * are merged, not sorted.
 */
export function indexedHits(reader: IndexReader, id: number, terms: IndexedTerms, limit: number): TextHits {
  const title = reader.fieldLength(id, 'title');
  const end = title + limit;
  // Per term found in the page: its name, positions and the next position to merge.
  const names: string[] = [];
  const lists: (readonly number[])[] = [];
  const next: number[] = [];
  for (const { term, id: termId } of terms) {
    const e = reader.entry(id, termId);
    if (e < 0) continue;
    const positions = reader.entryPositions(e);
    let n = 0;
    while (n < positions.length && positions[n]! < title) n++;
    names.push(term);
    lists.push(positions);
    next.push(n);
  }
  const hits: TextHits = { at: [], terms: [] };
  for (;;) {
    let first = -1;
    let p = end;
    for (let k = 0; k < lists.length; k++) {
      const at = lists[k]![next[k]!];
      if (at !== undefined && at < p) (first = k), (p = at);
    }
    if (first < 0) return hits;
    next[first]!++;
    hits.at.push(p - title);
    hits.terms.push(names[first]!);
  }
}

/**
 * The hits a summary marks (searcher/highlight), judging one word of each
 * inflection class stored at index time: a hit of a typed term is marked when
 * its class is that of a typed base and the class's first word, judged, is
 * marked (a class names one base of its term in the page). A hit whose class
 * does not tell, as in records without classes, is judged by its own word.
 * `judge(h)`: whether hit h's word is marked, undefined when it is not a word
 * of its term (the offsets no longer describe the text): then so is the answer.
 */
export function classedHits(offsets: TokenOffsets, hits: TextHits, typed: TypedWords, judge: (h: number) => boolean | undefined): TextHits | undefined {
  const { classes } = offsets;
  const out: TextHits = { at: [], terms: [] };
  for (const i of written) verdicts[i] = 0;
  written.length = 0;
  // Per term, met in runs of hits: its typed classes and where its verdicts lie; a page's hits are of a few terms.
  const met: TermVerdicts[] = [];
  let state: TermVerdicts | undefined;
  for (let h = 0; h < hits.at.length; h++) {
    const term = hits.terms[h]!;
    if (state?.term !== term) {
      state = met.find((m) => m.term === term);
      if (!state) {
        met.push((state = { term, typedClasses: typed.classes(term), at: met.length * UNCLASSED }));
        if (verdicts.length < state.at + UNCLASSED) verdicts = new Int8Array(2 * (state.at + UNCLASSED));
      }
    }
    const { typedClasses } = state;
    if (typedClasses) {
      const c = classes ? classes[hits.at[h]!]! : UNCLASSED;
      if (c !== UNCLASSED && !typedClasses.has(c)) continue;
      const v = state.at + c;
      if (c === UNCLASSED || verdicts[v] === 0) {
        const ok = judge(h);
        if (ok === undefined) return undefined;
        if (c !== UNCLASSED) (verdicts[v] = ok ? 1 : -1), written.push(v);
        if (!ok) continue;
      } else if (verdicts[v] === -1) continue;
    }
    out.at.push(hits.at[h]!);
    out.terms.push(term);
  }
  return out;
}

interface TermVerdicts {
  term: string;
  typedClasses: ReadonlySet<number> | undefined;
  /** Where its classes' verdicts start in `verdicts`. */
  at: number;
}

/**
 * The verdicts of a page's terms by class (1 marked, -1 not, 0 not judged
 * yet), UNCLASSED a term: one table for every page, cleared where it was
 * written (a table of its own a page and term cost more than the judging).
 */
let verdicts = new Int8Array(4 * UNCLASSED);
const written: number[] = [];

/**
 * The hits a summary marks, judged by classedHits from the words of `text`;
 * undefined when the first word judged of a term is not a word it comes from: the
 * offsets no longer describe the text (a page parsed or analyzed otherwise
 * since it was indexed), and it is scanned instead.
 */
export function markedHits(analyzer: Pick<Analyzer, 'terms'>, text: Pick<PageText, 'slice' | 'length'>, offsets: TokenOffsets, hits: TextHits, accept: TypedWords): TextHits | undefined {
  // Each term's first word judged is checked.
  const checked = new Set<string>();
  return classedHits(offsets, hits, accept, (h) => {
    const i = hits.at[h]!;
    const term = hits.terms[h]!;
    if (i >= offsets.count || offsets.ends[i]! > text.length) return undefined;
    const word = text.slice(offsets.starts[i]!, offsets.ends[i]!);
    if (!checked.has(term)) {
      if (!analyzer.terms(word).includes(term)) return undefined;
      checked.add(term);
    }
    return accept(word, term);
  });
}

/** The tokens [from, to) of the part around the hit at token `i`, `context` words on each side, of a text's first `n` tokens. */
export function hitPart(i: number, context: number, n: number): [number, number] {
  return [Math.max(0, i - context), Math.min(n, i + context + 2)];
}

/** The words a summary reads from stored offsets, the offsets where a part starts after skipped words, and whether content words follow. */
export interface StoredWords {
  words: WordRanges;
  cuts: number[];
  more: boolean;
}

/**
 * The head of the text and the parts around each hit, as ranges of the
 * stored offsets (the first `limit` words): no word is copied or decoded.
 * `marked`: the hits that count (markedHits); every hit makes its part.
 * Offsets read lazily (`fill`) are asked for the head and the words after
 * the last part here; the hits' parts must be read already.
 */
export function offsetWords(
  offsets: TokenOffsets,
  hits: TextHits,
  opts: SummaryOptions,
  furniture: readonly (readonly [number, number])[],
  limit = offsets.count,
  marked: TextHits = hits,
): StoredWords {
  const { starts, ends } = offsets;
  const n = Math.min(limit, offsets.count);
  const context = Math.max(0, opts.context);
  const length = Math.max(1, opts.length);
  const head = new Furniture(furniture);
  // Lazy offsets are read `length` words and one more at a time, what the head needs when no furniture is in it.
  let filled = 0;
  const fill = (i: number) => i === filled && offsets.fill?.(i, (filled = i + length + 1));
  // The head: `length` content words and one more, for a page where nothing matches.
  let headEnd = 0;
  for (let words = 0; headEnd < n && words <= length; headEnd++) {
    fill(headEnd);
    if (!head.covers(starts[headEnd]!, ends[headEnd]!)) words++;
  }
  // Hits and their parts come in text order: parts that overlap or touch merge as they come.
  const hitCount = lowerBound(hits.at, n);
  const cuts: number[] = [];
  const ranges: [number, number][] = [];
  // summarize() reads no further than MAX_SUMMARY_TOKENS tokens; a part begun before them still makes its cut.
  let size = 0;
  const part = (from: number, to: number) => {
    if (size > MAX_SUMMARY_TOKENS) return;
    if (from > 0 && from < to) cuts.push(starts[from]!);
    if (size < MAX_SUMMARY_TOKENS) ranges.push([from, Math.min(to, from + MAX_SUMMARY_TOKENS - size)]);
    size += to - from;
  };
  let from = 0;
  let end = headEnd;
  for (let h = 0; h < hitCount; h++) {
    const [a, b] = hitPart(hits.at[h]!, context, n);
    if (a <= end) end = Math.max(end, b);
    else {
      part(from, end);
      from = a;
      end = b;
    }
  }
  part(from, end);
  const tail = new Furniture(furniture);
  let more = n < offsets.count || size > MAX_SUMMARY_TOKENS;
  filled = end;
  for (let i = end; i < n && !more; i++) {
    fill(i);
    more = !tail.covers(starts[i]!, ends[i]!);
  }
  // The hits past the words the index knows are left out, as their parts are.
  const markedCount = lowerBound(marked.at, n);
  return { words: { starts, ends, ranges, hits: marked.at.slice(0, markedCount), terms: marked.terms.slice(0, markedCount) }, cuts, more };
}
