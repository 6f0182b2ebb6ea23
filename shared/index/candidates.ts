/**
 * @module shared/index/candidates
 * flexsearch, behind one file: the candidate layer of an index. One combined
 * field (title, anchors, body — flexsearch cannot AND across fields) indexed
 * `strict`, with tags for host/site/type/lang filters. Its encoder is the
 * shared Analyzer; text already analyzed travels as a pre-analyzed string (the
 * terms joined by a control character no analyzed term can contain), so
 * nothing is tokenized twice and query terms are never re-stemmed.
 * flexsearch ranks by first-occurrence position only: its order is a
 * candidate order, never a relevance score.
 */
import { Document, Encoder } from 'flexsearch';
import type { Analyzer } from '../analysis/analyzer.js';

const PRE = '\u0001';
/** Terms that are already analyzed, in the form the encoder passes through. */
const preAnalyzed = (terms: readonly string[]) => PRE + terms.join(PRE);

class AnalyzerEncoder extends Encoder {
  constructor(private readonly analyzer: Analyzer) {
    super();
  }
  override encode(content: string): string[] {
    return content.startsWith(PRE) ? content.slice(1).split(PRE) : this.analyzer.terms(content);
  }
}

export const TAG_FIELDS = ['host', 'site', 'type', 'lang'] as const;
export type TagField = (typeof TAG_FIELDS)[number];
export type Tags = Record<TagField, string>;

type CandidateDoc = { id: number; text: string } & Tags;

/** flexsearch slots; 9 is its default and keeps early (title) hits first. */
const RESOLUTION = 9;

export class CandidateIndex {
  private readonly doc: Document<CandidateDoc>;

  constructor(analyzer: Analyzer) {
    this.doc = new Document<CandidateDoc>({
      encoder: new AnalyzerEncoder(analyzer),
      document: {
        id: 'id',
        index: [{ field: 'text', tokenize: 'strict', resolution: RESOLUTION }],
        tag: TAG_FIELDS.map((field) => ({ field })),
      },
    } as never);
  }

  add(id: number, terms: readonly string[], tags: Tags): void {
    this.doc.add({ id, text: preAnalyzed(terms), ...tags });
  }

  /**
   * Documents holding every term first, then the best partial matches, up to
   * `limit`; only tags given are filtered on. No terms: every document with the tags.
   */
  search(terms: readonly string[], limit: number, tags: Partial<Tags> = {}): number[] {
    const tag = Object.fromEntries(Object.entries(tags).filter(([, v]) => v !== undefined && v !== ''));
    const hasTags = Object.keys(tag).length > 0;
    if (terms.length === 0) {
      if (!hasTags) return [];
      return this.ids(this.doc.search({ tag, limit } as never));
    }
    // With `suggest` flexsearch lists documents by how many of the terms they hold, most
    // first: those holding every term, then the partial matches, from one pass over the lists.
    const opts = { index: 'text', limit, ...(hasTags ? { tag } : {}), ...(terms.length > 1 ? { suggest: true } : {}) };
    return this.ids(this.doc.search(preAnalyzed(terms), opts as never));
  }

  private ids(results: unknown): number[] {
    const out: number[] = [];
    const lists = results as { result: (number | { id: number })[] }[];
    if (lists.length === 1) for (const r of lists[0]!.result) out.push(typeof r === 'number' ? r : r.id);
    else {
      // Several tag lists (no text query): flexsearch returns one per tag; keep ids in all of them.
      const sets = lists.map((l) => new Set(l.result.map((r) => (typeof r === 'number' ? r : r.id))));
      for (const id of sets[0] ?? []) if (sets.every((s) => s.has(id))) out.push(id);
    }
    return out;
  }

  /** The index as one JSON payload. */
  async export(): Promise<Buffer> {
    const parts: [string, string][] = [];
    await this.doc.export((key: string, data: string) => {
      parts.push([key, data]);
    });
    return Buffer.from(JSON.stringify(parts));
  }

  static import(analyzer: Analyzer, payload: Buffer): CandidateIndex {
    const c = new CandidateIndex(analyzer);
    for (const [key, data] of JSON.parse(payload.toString('utf8')) as [string, string][]) c.doc.import(key, data);
    return c;
  }
}
