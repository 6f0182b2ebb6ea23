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

/** The terms of a URL: host and path words, without the scheme. */
export function urlTerms(analyzer: Analyzer, url: string): string[] {
  return analyzer.terms(url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''));
}

/** The analyzed fields of a document, without its stored fields (what analysis threads send back). */
export type AnalyzedFields = Omit<AnalyzedDoc, 'stored'>;

/** The text fields analysis reads. */
export type TextFields = Pick<IndexInputDoc, 'title' | 'content' | 'anchors' | 'url' | 'headings'>;

/** Analyzes a document; content beyond `maxTokens` terms is dropped (Nutch's indexer.max.tokens). */
export function analyzeDoc(analyzer: Analyzer, doc: IndexInputDoc, maxTokens: number): AnalyzedDoc {
  return { stored: storedOf(doc), ...analyzeFields(analyzer, doc, maxTokens) };
}

/** The fields of a document the index stores. */
export function storedOf(doc: IndexInputDoc): StoredDoc {
  const { content, headings, ...stored } = doc;
  return stored;
}

/**
 * `analyzeDoc` without the stored fields. `contentTerms`, when given, are the
 * content's terms (`analyzer.terms(content)`, from a scan the caller made
 * anyway); the array is kept.
 */
export function analyzeFields(analyzer: Analyzer, doc: TextFields, maxTokens: number, contentTerms?: string[]): AnalyzedFields {
  const title = analyzer.terms(doc.title);
  const body = contentTerms ?? analyzer.terms(doc.content, maxTokens);
  if (body.length > maxTokens) body.length = maxTokens;
  return {
    stream: title.concat(body),
    titleLength: title.length,
    anchor: doc.anchors.flatMap((a) => analyzer.terms(a)),
    url: urlTerms(analyzer, doc.url),
    heading: (doc.headings ?? []).flatMap((h) => analyzer.terms(h)),
  };
}
