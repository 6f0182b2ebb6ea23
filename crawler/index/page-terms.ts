/**
 * @module crawler/index/page-terms
 * What the indexer asks of the analyzer for one page: the terms of each field
 * as the analyzer's term numbers and, for summaries, where their analysis of
 * its parse text can resume (segments/checkpoints.ts). The same function runs on the main thread and in the
 * analysis threads (analysis-pool.ts), so both build the same index;
 * `WriterTerms` turns the numbers into a writer's term ids.
 */
import type { Analyzer } from '../../shared/analysis/analyzer.js';
import type { Conf } from '../../shared/conf.js';
import { NumberedTokens, NumberList } from '../../shared/analysis/term-numbers.js';
import { analyzeSections, restOf, sectionCuts, sectionsOfStarts, urlText, type TextFields } from '../../shared/index/document.js';
import type { TermStreams } from '../../shared/index/entries.js';
import { NO_TERM, type IndexWriter } from '../../shared/index/writer.js';
import { SUMMARY_TEXT_CHARS, summaryTokens } from '../../segments/offsets.js';
import { encodeCheckpoints, textCheckpoints } from '../../segments/checkpoints.js';

export interface PageTerms {
  /** Term numbers (`Analyzer.numbered`) of the title, the anchors, the content, the URL and the headings, one field after the other. */
  ids: Uint32Array;
  /** How many of `ids` each field has, in that order, then the content past the cap (AnalyzedDoc.rest, NO_TERM for a blank). */
  lengths: [number, number, number, number, number, number];
  /** Section lengths (AnalyzedDoc.sections). */
  sections?: number[];
  /** The parse text's checkpoints (segments/checkpoints.ts), when asked for. */
  checkpoints?: Uint8Array;
}

/** Whether content indexed from `text` holds the text's words first, as the text has them. */
export function indexesText(content: string, text: string): boolean {
  // The content is most often the text itself (index-basic), which no comparison of their characters need tell.
  return content === text || (content.startsWith(text) && (content.length === text.length || /\s/.test(content[text.length]!)));
}

/**
 * indexer.max.tokens: how many content terms of a page are indexed; 0 or
 * less (the default, -1) indexes every one, so any word of any page can be
 * found (the searcher keeps long pages honest: searcher/rank/windows).
 */
export function tokenCap(conf: Conf): number {
  const n = conf.getInt('indexer.max.tokens');
  return n > 0 ? n : Infinity;
}

/** A page's numbers, the content's tokens and, for a page in sections, its whole content's numbers, reused from one page to the next. */
const ids = new NumberList();
const tokens = new NumberedTokens();
const whole = new NumberList();

/** A page's terms; `text`: the parse text whose checkpoints summaries need (none when undefined). Content beyond `maxTokens` terms (tokenCap) is dropped. */
export function pageTerms(analyzer: Analyzer, page: TextFields, text: string | undefined, maxTokens: number): PageTerms {
  ids.length = 0;
  analyzer.termNumbers(page.title, ids);
  const title = ids.length;
  for (const a of page.anchors) analyzer.termNumbers(a, ids);
  const anchor = ids.length;
  // A page of two sections or more is analyzed whole: its sections are counted past the cap.
  const cuts = sectionCuts(page.content, page.sections);
  // One scan of a page's text gives its terms and, for summaries, its checkpoints: when the text is short
  // (summaries cover it whole), and when it is analyzed whole anyway (summaries cover its start).
  const once = text !== undefined && page.content === text && (text.length <= SUMMARY_TEXT_CHARS || cuts.length > 1);
  let sections: number[] = [];
  let all = whole.array;
  let count = 0;
  if (once) {
    analyzer.numberedTokens(text, undefined, tokens);
    if (cuts.length > 1) sections = sectionsOfStarts(tokens.starts, tokens.count, cuts);
    all = tokens.terms;
    count = tokens.count;
  } else if (cuts.length > 1) {
    whole.length = 0;
    sections = analyzeSections(page.content, cuts, (part) => {
      const before = whole.length;
      analyzer.termNumbers(part, whole);
      return whole.length - before;
    });
    all = whole.array;
    count = whole.length;
  } else analyzer.termNumbers(page.content, ids, maxTokens);
  ids.pushFirst(all, Math.min(count, maxTokens));
  const content = ids.length;
  analyzer.termNumbers(urlText(page.url), ids);
  const url = ids.length;
  for (const h of page.headings ?? []) analyzer.termNumbers(h, ids);
  const heading = ids.length;
  if (sections.length > 1 && count > maxTokens) for (const n of restOf(all, maxTokens, NO_TERM, count)) ids.push(n);
  const terms: PageTerms = {
    ids: ids.array.slice(0, ids.length),
    lengths: [title, anchor - title, content - anchor, url - content, heading - url, ids.length - heading],
    ...(sections.length > 1 ? { sections } : {}),
  };
  if (text !== undefined) terms.checkpoints = once ? encodeCheckpoints(text, tokens, summaryTokens(tokens, text.length)) : textCheckpoints(analyzer, text);
  return terms;
}

/**
 * An analyzer's term numbers (or those an analysis thread sent of its
 * analyzer's) as ids in one writer's dictionary: each number is looked up
 * there once, the first time a page has it, so the writer numbers terms in
 * the order the pages give them.
 */
export class WriterTerms {
  /** The writer's id of each number (-1: not met yet). */
  private toWriter = new Int32Array(0);
  private writer: IndexWriter | undefined;

  /** `words`: the terms by number, as far as the pages to come use them. */
  constructor(private readonly words: readonly string[]) {}

  /** The page's terms as `writer`'s ids, in place of its numbers. */
  streams(page: Pick<PageTerms, 'ids' | 'lengths' | 'sections'>, writer: IndexWriter): TermStreams {
    if (this.writer !== writer) {
      this.writer = writer;
      this.toWriter.fill(-1);
    }
    if (this.toWriter.length < this.words.length) {
      const grown = new Int32Array(Math.max(this.words.length, 2 * this.toWriter.length)).fill(-1);
      grown.set(this.toWriter);
      this.toWriter = grown;
    }
    const { ids, lengths } = page;
    const toWriter = this.toWriter;
    for (let i = 0; i < ids.length; i++) {
      const n = ids[i]!;
      // A blank past the cap stays one: it names no term (AnalyzedDoc.rest).
      if (n === NO_TERM) continue;
      const id = toWriter[n]!;
      ids[i] = id >= 0 ? id : (toWriter[n] = writer.termId(this.words[n]!));
    }
    let at = 0;
    const [title, anchor, content, url, heading, rest] = lengths.map((n) => ids.subarray(at, (at += n)));
    return { title: title!, anchor: anchor!, content: content!, url: url!, heading: heading!, ...(page.sections ? { rest: rest!, sections: page.sections } : {}) };
  }
}
