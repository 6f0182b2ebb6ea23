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
}

/** The text of a URL the index analyzes: host and path, without the scheme. */
export const urlText = (url: string): string => url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');

/** The text fields analysis reads. */
export type TextFields = Pick<IndexInputDoc, 'title' | 'content' | 'anchors' | 'url' | 'headings'>;

/** Analyzes a document; content beyond `maxTokens` terms is dropped (Nutch's indexer.max.tokens). */
export function analyzeDoc(analyzer: Analyzer, doc: IndexInputDoc, maxTokens: number): AnalyzedDoc {
  const title = analyzer.terms(doc.title);
  return {
    stored: storedOf(doc),
    stream: title.concat(analyzer.terms(doc.content, maxTokens)),
    titleLength: title.length,
    anchor: doc.anchors.flatMap((a) => analyzer.terms(a)),
    url: analyzer.terms(urlText(doc.url)),
    heading: (doc.headings ?? []).flatMap((h) => analyzer.terms(h)),
  };
}

/** The fields of a document the index stores. */
export function storedOf(doc: IndexInputDoc): StoredDoc {
  const { content, headings, ...stored } = doc;
  return stored;
}
