/**
 * @module shared/index/document
 * A document as the index sees it once analyzed: the stored fields, the token
 * stream of title then content (positions are indexes into it, as phrases and
 * proximity need), and the anchor, URL and heading terms. The writer takes this shape
 * both from the indexer (fresh text) and from merge (read back from segment
 * indexes), so a merge never re-reads or re-analyzes segment text.
 */
import type { Analyzer } from '../analysis/analyzer.js';
import type { IndexInputDoc, StoredDoc } from './types.js';

export interface AnalyzedDoc {
  stored: StoredDoc;
  /** Title terms, then content terms. */
  stream: string[];
  /** How many leading stream terms are the title. */
  titleLength: number;
  anchor: string[];
  url: string[];
  heading: string[];
  /**
   * Content terms past indexer.max.tokens, counted in sections only (a page
   * with two sections or more): those the capped content has, the others ''.
   */
  rest?: string[];
  /** Each section's length in terms over the content and `rest` (they add up to both); absent below two sections. */
  sections?: number[];
}

/** The text of a URL the index analyzes: host and path, without the scheme. */
export const urlText = (url: string): string => url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');

/** The text fields analysis reads. */
export type TextFields = Pick<IndexInputDoc, 'title' | 'content' | 'anchors' | 'url' | 'headings' | 'sections'>;

/** Analyzes a document; content beyond `maxTokens` terms is dropped (Nutch's indexer.max.tokens). */
export function analyzeDoc(analyzer: Analyzer, doc: IndexInputDoc, maxTokens: number): AnalyzedDoc {
  const title = analyzer.terms(doc.title);
  const cuts = sectionCuts(doc.content, doc.sections);
  // A page of two sections or more is analyzed whole: its sections are counted past the cap.
  const all: string[] = [];
  const sections =
    cuts.length < 2
      ? []
      : analyzeSections(doc.content, cuts, (part) => {
          const terms = analyzer.terms(part);
          for (const t of terms) all.push(t);
          return terms.length;
        });
  const content = cuts.length < 2 ? analyzer.terms(doc.content, maxTokens) : all.slice(0, maxTokens);
  return {
    stored: storedOf(doc),
    stream: title.concat(content),
    titleLength: title.length,
    anchor: doc.anchors.flatMap((a) => analyzer.terms(a)),
    url: analyzer.terms(urlText(doc.url)),
    heading: (doc.headings ?? []).flatMap((h) => analyzer.terms(h)),
    ...(sections.length > 1 ? { sections, ...(all.length > maxTokens ? { rest: restOf(all, maxTokens, '') } : {}) } : {}),
  };
}

/** The fields of a document the index stores. */
export function storedOf(doc: IndexInputDoc): StoredDoc {
  const { content, headings, sections, ...stored } = doc;
  return stored;
}

/**
 * Where sections start in `content`: the offsets given that lie inside it
 * and follow white space (no word spans the cut, so the terms of the parts
 * are the terms of the whole), with 0 first, each once.
 */
export function sectionCuts(content: string, offsets: readonly number[] | undefined): number[] {
  const cuts = [0];
  for (const o of offsets ?? []) if (o > cuts[cuts.length - 1]! && o < content.length && /\s/.test(content[o - 1]!)) cuts.push(o);
  return cuts;
}

/** Each part of `content` cut at `cuts` given to `analyze` (which returns how many terms it had); the parts' lengths, those without a term left out. */
export function analyzeSections(content: string, cuts: readonly number[], analyze: (part: string) => number): number[] {
  const sections: number[] = [];
  cuts.forEach((from, i) => {
    const n = analyze(content.slice(from, cuts[i + 1] ?? content.length));
    if (n > 0) sections.push(n);
  });
  return sections;
}

/** Section lengths from where each of `count` tokens starts (ascending), as analyzeSections counts them. */
export function sectionsOfStarts(starts: ArrayLike<number>, count: number, cuts: readonly number[]): number[] {
  const sections: number[] = [];
  let i = 0;
  for (let c = 1; c <= cuts.length; c++) {
    const end = cuts[c] ?? Infinity;
    const from = i;
    while (i < count && starts[i]! < end) i++;
    if (i > from) sections.push(i - from);
  }
  return sections;
}

/** The first `count` terms past the first `cap`, those among the first kept and the others `blank` (AnalyzedDoc.rest). */
export function restOf<T>(terms: ArrayLike<T>, cap: number, blank: T, count = terms.length): T[] {
  const capped = new Set<T>();
  for (let i = 0; i < cap; i++) capped.add(terms[i]!);
  const rest: T[] = [];
  for (let i = cap; i < count; i++) rest.push(capped.has(terms[i]!) ? terms[i]! : blank);
  return rest;
}
