/**
 * @module crawler/index/page-terms
 * What the indexer asks of the analyzer for one page: the terms of each field
 * and, for summaries, where the words of its parse text stand. The same
 * function runs on the main thread and in the analysis threads
 * (analysis-pool.ts), so both build the same index.
 */
import type { Analyzer } from '../../shared/analysis/analyzer.js';
import { analyzeFields, type AnalyzedFields, type TextFields } from '../../shared/index/document.js';
import { encodeOffsets, SUMMARY_TEXT_CHARS, textOffsets, wordClass } from '../../segments/offsets.js';

export interface PageTerms {
  fields: AnalyzedFields;
  /** The parse text's word offsets (segments/offsets.ts), when asked for. */
  offsets?: Uint8Array;
}

/** Whether content indexed from `text` holds the text's words first, as the text has them. */
export function indexesText(content: string, text: string): boolean {
  return content.startsWith(text) && (content.length === text.length || /\s/.test(content[text.length]!));
}

/** A page's terms; `text`: the parse text whose offsets summaries need (none when undefined). */
export function pageTerms(analyzer: Analyzer, page: TextFields, text: string | undefined, maxTokens: number): PageTerms {
  // One scan of a page's text gives its terms and, for summaries, where they stand (the whole text is covered when it is short).
  const tokens = text !== undefined && page.content === text && text.length <= SUMMARY_TEXT_CHARS ? analyzer.valuedTokens(text, wordClass) : undefined;
  const fields = analyzeFields(analyzer, page, maxTokens, tokens?.map((t) => t.term));
  if (text === undefined) return { fields };
  return { fields, offsets: tokens ? encodeOffsets(tokens) : textOffsets(analyzer, text) };
}
