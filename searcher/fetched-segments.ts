/**
 * @module searcher/fetched-segments
 * Read-only access to a crawl's segments by name (Nutch's FetchedSegments):
 * summaries, cached pages and parse text are looked up by the hit's stored
 * `segment` and `url`. Segments open lazily and stay open; one that has gone
 * (pruned, not copied to this machine) is simply absent.
 */
import { Segment, segmentDate, listSegments, type ContentRecord, type FetchRecord, type ParseText, type SummarySource } from '../segments/segment.js';
import { segmentDir } from '../shared/crawl-dir.js';
import type { ParseMeta } from '../shared/plugin/extension-points.js';

export class FetchedSegments {
  private readonly open = new Map<string, Segment | null>();
  /** The segments whose summaries problem has been told (once each, until they are read anew). */
  private readonly told = new Set<Segment>();
  /** Told, once a segment, when its summaries file cannot be read and its summaries come from the parse text. */
  onProblem?: (message: string) => void;

  constructor(readonly segmentsDir: string) {}

  /** Segment names on disk, oldest first. */
  names(): string[] {
    return listSegments(this.segmentsDir);
  }

  private get(name: string): Segment | undefined {
    let s = this.open.get(name);
    if (s === undefined) {
      if (!segmentDate(name)) return undefined;
      try {
        s = Segment.open(segmentDir(this.segmentsDir, name), { readonly: true, lookups: true });
      } catch {
        s = null;
      }
      // A missing segment is looked for again next time: it may be copied in later.
      if (s) this.open.set(name, s);
    }
    return s ?? undefined;
  }

  /** A parse without its outlinks, which are not inflated. */
  getParseText(segment: string, url: string): ParseText | undefined {
    return this.get(segment)?.getParseText(url);
  }

  /** A parse's meta (its sections), without inflating its text. */
  getParseMeta(segment: string, url: string): ParseMeta | undefined {
    return this.get(segment)?.getParseLinks(url)?.meta;
  }

  /** Segment.withSummarySource of the named segment (undefined when it is absent). */
  withSummarySource<T>(segment: string, url: string, use: (src: SummarySource) => T): T | undefined {
    const seg = this.get(segment);
    const r = seg?.withSummarySource(url, use);
    // Told once there is someone to tell: a summary made before (the searcher's warm-up) leaves it untold.
    if (seg?.summariesProblem && this.onProblem && !this.told.has(seg)) {
      this.told.add(seg);
      this.onProblem?.(`segment ${segment}: summaries from the parse text, slower: ${seg.summariesProblem}; 'hazelnut index' of the segment writes it again`);
    }
    return r;
  }

  getContent(segment: string, url: string): ContentRecord | undefined {
    return this.get(segment)?.getContent(url);
  }

  getFetch(segment: string, url: string): FetchRecord | undefined {
    return this.get(segment)?.getFetch(url);
  }

  /** Reads each open segment's summaries file anew at its next summary. */
  reopenSummaries(): void {
    for (const s of this.open.values()) s?.reopenSummaries();
    this.told.clear();
  }

  close(): void {
    for (const s of this.open.values()) s?.close();
    this.open.clear();
  }
}
