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

/**
 * flexsearch's encoder set to pass our terms through untouched: no
 * normalising, no letter dedupe (its default turns `hello` into `helo`), no
 * number splitting, terms split on PRE. Raw text (a tag-less query from
 * flexsearch's own search) is analyzed first by `prepare`. flexsearch's
 * Encoder cannot be subclassed (its constructor returns a fresh Encoder), so
 * this is done with its options.
 */
function analyzerEncoder(analyzer: Analyzer): Encoder {
  return new Encoder({
    normalize: false,
    dedupe: false,
    numeric: false,
    cache: false,
    split: PRE,
    maxlength: 1 << 16,
    prepare: (text: string) => (text.startsWith(PRE) ? text : preAnalyzed(analyzer.terms(text))),
  } as never);
}

export const TAG_FIELDS = ['host', 'site', 'type', 'lang'] as const;
export type TagField = (typeof TAG_FIELDS)[number];
export type Tags = Record<TagField, string>;

type CandidateDoc = { id: number; text: string } & Tags;

/** flexsearch slots; 9 is its default and keeps early (title) hits first. */
export const RESOLUTION = 9;

/** flexsearch's index of one field: per term, ids by resolution slot (earliest occurrences first). */
interface FieldIndex {
  map: Map<string, (number[] | undefined)[]>;
  resolution: number;
  encoder: { encode(text: string): string[] };
}

/**
 * flexsearch's `suggest` search over several terms, on the same lists in
 * the same order, so the same ids come back: walking the slots and, in each,
 * the terms, a document is listed at level k when it reaches k + 1 of the
 * terms; a full level `limit` long ends the walk; then levels are read from
 * the fullest down, each document once, up to `limit`. Counting in a typed
 * array instead of flexsearch's object keyed by id makes it several times
 * faster on long lists.
 */
function suggest(field: FieldIndex, terms: readonly string[], limit: number, counts: { a: Uint16Array }): number[] {
  // The keys flexsearch itself would look up.
  const lists = [...new Set(field.encoder.encode(preAnalyzed(terms)))].map((t) => field.map.get(t)).filter((l) => l !== undefined && l.length > 0) as (number[] | undefined)[][];
  if (lists.length === 0) return [];
  const levels: number[][] = [];
  try {
    for (let y = 0; y < field.resolution; y++)
      for (const list of lists) {
        const ids = list[y];
        if (!ids) continue;
        for (const id of ids) {
          if (id >= counts.a.length) counts.a = grow(counts.a, id);
          const c = counts.a[id]!++;
          const level = (levels[c] ??= []);
          level.push(id);
          if (c === lists.length - 1 && level.length === limit) return level;
        }
      }
    const out: number[] = [];
    for (let k = levels.length - 1; k >= 0 && out.length < limit; k--)
      for (const id of levels[k]!) {
        // A document sits at every level up to its count; it is listed at the highest.
        if (counts.a[id] !== k + 1) continue;
        out.push(id);
        if (out.length === limit) break;
      }
    return out;
  } finally {
    for (const id of levels[0] ?? []) counts.a[id] = 0;
  }
}

function grow(a: Uint16Array, id: number): Uint16Array {
  const b = new Uint16Array(Math.max(2 * a.length, id + 1));
  b.set(a);
  return b;
}

export class CandidateIndex {
  private readonly doc: Document<CandidateDoc>;
  /** Per-document match counts for `suggest`, all zero between searches. */
  private readonly counts = { a: new Uint16Array(1024) };

  constructor(analyzer: Analyzer) {
    this.doc = new Document<CandidateDoc>({
      encoder: analyzerEncoder(analyzer),
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
    const field = hasTags || terms.length === 1 ? undefined : this.fieldIndex();
    if (field) return suggest(field, terms, limit, this.counts);
    // With `suggest` flexsearch lists documents by how many of the terms they hold, most
    // first: those holding every term, then the partial matches, from one pass over the lists.
    const opts = { index: 'text', limit, ...(hasTags ? { tag } : {}), ...(terms.length > 1 ? { suggest: true } : {}) };
    return this.ids(this.doc.search(preAnalyzed(terms), opts as never));
  }

  /** The combined field's term lists, when flexsearch keeps them as this file expects (else its own search runs). */
  private fieldIndex(): FieldIndex | undefined {
    const ix = (this.doc as unknown as { index?: Map<string, Partial<FieldIndex> & { compress?: unknown; depth?: unknown }> }).index?.get('text');
    return ix?.map instanceof Map && ix.resolution === RESOLUTION && typeof ix.encoder?.encode === 'function' && !ix.compress && !ix.depth ? (ix as FieldIndex) : undefined;
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
