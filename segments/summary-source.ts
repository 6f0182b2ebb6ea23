/**
 * @module segments/summary-source
 * Where a segment's summaries read a page from: the segment index's
 * summaries file, else the summary tables older hazelnut wrote into the
 * segment file, else the parse text itself.
 */
import { HzError } from '../shared/errors.js';
import { segmentIndexDir } from '../shared/crawl-dir.js';
import { metaForSummary, readSummaryMeta, summaryPart } from './offsets.js';
import type { SummarySource } from './records.js';
import { unpackText } from './packing.js';
import { PARSE_WITH_BODY, parseMetaOf, TEXT_WITH_BODY, type ParseRowWithBody } from './rows.js';
import type { SegmentFiles } from './segment-files.js';
import { SummariesFile } from './summaries.js';
import { StoredText, WholeText, type TextForm } from './summary-text.js';

export class SummarySources {
  /** The tables summaries are read from, newest first (the summary table, then the summary_text of older hazelnut), as the segment holds them. */
  private summaryTables: string[] | undefined;
  /** The segment index's summaries file, opened when first read (null: none, or one that cannot be read). */
  private summaries: SummariesFile | null | undefined;
  /** Why the segment index's summaries file cannot be read, if it cannot: summaries come from the parse text meanwhile. */
  problem: string | undefined;

  constructor(
    private readonly dir: string,
    private readonly files: SegmentFiles,
  ) {}

  /**
   * Empties the summary tables older hazelnut wrote into the segment file,
   * once the segment index's summaries file holds what they held.
   */
  clearTables(): void {
    for (const table of this.tablesHeld()) this.files.db.exec(`DELETE FROM ${table}`);
  }

  /** The tables summaries are read from, as this segment holds them (looked up once). */
  private tablesHeld(): string[] {
    return (this.summaryTables ??= this.files.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('summary', 'summary_text') ORDER BY name")
      .pluck()
      .all() as string[]);
  }

  /**
   * Calls `use` with what a summary reads and returns what it returns
   * (undefined when the segment has no parse of `url`): the parse text with
   * its word offsets and meta from the segment index's summaries file, else
   * the summary text, offsets and meta stored by older hazelnut (in that
   * file, or in the segment file's summary tables), else (a segment indexed
   * before they were stored, or a page indexed from other text) the parse
   * text and meta alone. The source lives as long as the call: a summaries
   * file reuses its bytes for the next record.
   */
  with<T>(url: string, use: (src: SummarySource) => T): T | undefined {
    if (this.summaries === undefined) this.summaries = this.openSummaries();
    const stored = this.summaries?.withRecord(url, () => this.parseText(url), use);
    if (stored) return stored.value;
    for (const table of this.tablesHeld()) {
      const s = this.files.q(this.files.db, `SELECT text, ${table === 'summary' ? 'form' : 'wide'} AS form, length, offsets, meta FROM ${table} WHERE url = ?`).get(url) as
        | { text: Buffer; form: TextForm; length: number; offsets: Buffer; meta: string }
        | undefined;
      if (s) return use({ text: new StoredText(s.text, s.form), length: s.length, meta: readSummaryMeta(s.meta), offsets: s.offsets });
    }
    const r = this.files.lookup<Pick<ParseRowWithBody, 'text' | 'meta' | 'body' | 'dict'>>(`${PARSE_WITH_BODY} WHERE p.url = @url`, url);
    if (!r) return undefined;
    const text = unpackText(r.text, r, url);
    return use({ text: new WholeText(summaryPart(text)), length: text.length, meta: metaForSummary(parseMetaOf(r.meta)) });
  }

  /** The parse text of `url`, undefined without a parse. */
  private parseText(url: string): string | undefined {
    const r = this.files.lookup<Pick<ParseRowWithBody, 'text' | 'body' | 'dict'>>(
      (db) => (this.files.keyedRows(db).parse ? TEXT_WITH_BODY.byFetch : TEXT_WITH_BODY.view),
      url,
    );
    return r && unpackText(r.text, r, url);
  }

  /** The summaries file, or null; a file that cannot be read is a problem to report, not a failed summary. */
  private openSummaries(): SummariesFile | null {
    try {
      return SummariesFile.open(segmentIndexDir(this.dir)) ?? null;
    } catch (e) {
      if (!(e instanceof HzError)) throw e;
      this.problem = e.message;
      return null;
    }
  }

  /** Reads the summaries file anew at the next summary (the segment has been indexed again since it was opened). */
  reopen(): void {
    this.summaries?.close();
    this.summaries = undefined;
    this.problem = undefined;
  }
}
