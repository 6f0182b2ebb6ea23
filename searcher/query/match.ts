/**
 * @module searcher/query/match
 * Whether a document satisfies an analyzed query: every required group (a
 * group by any of its alternatives), no exclusion, every stored-field
 * filter. Phrases are verified on the title + body positions. The query is
 * compiled once (term slots, field indexes); a document is then checked on
 * its forward-index entries, read once per document through DocTerms.
 */
import { FIELDS, type IndexReader, type StoredDoc } from '../../shared/index/types.js';
import { DocTerms } from '../rank/docterms.js';
import type { AnalyzedQuery, Match } from './analyze.js';

/**
 * Whether `positions` (each ascending) hold the terms one after another,
 * starting at or after `from` and ending before `limit`, without straddling
 * `boundary` (the end of the title in the title + body stream).
 */
export function hasPhrase(positions: readonly (readonly number[])[], opts: { from?: number; limit?: number; boundary?: number } = {}): boolean {
  const { from = 0, limit = Infinity, boundary = -1 } = opts;
  const n = positions.length;
  // One cursor per later word: the wanted positions only grow, so each list is walked once.
  const cursor = new Array<number>(n).fill(0);
  for (const p0 of positions[0] ?? []) {
    if (p0 < from) continue;
    if (p0 + n - 1 >= limit) break;
    if (p0 < boundary && p0 + n - 1 >= boundary) continue;
    let k = 1;
    for (; k < n; k++) {
      const list = positions[k]!;
      let i = cursor[k]!;
      while (i < list.length && list[i]! < p0 + k) i++;
      cursor[k] = i;
      if (i === list.length) return false;
      if (list[i] !== p0 + k) break;
    }
    if (k === n) return true;
  }
  return false;
}

/**
 * hasPhrase told from each word's first position and count of positions
 * (`counts[k]`, the length of the list `firsts[k]` begins) alone, or
 * undefined when a word's later positions must tell: a word of one position
 * pins where the phrase can start, and no word can stand before its first.
 */
export function phraseOfFirsts(firsts: readonly number[], counts: readonly number[], opts: Parameters<typeof hasPhrase>[1] = {}): boolean | undefined {
  if (counts.includes(0)) return false;
  const pin = counts.indexOf(1);
  if (pin < 0) return undefined;
  const start = firsts[pin]! - pin;
  let open = false;
  for (let k = 0; k < firsts.length; k++) {
    const want = start + k;
    if (want < firsts[k]! || (want > firsts[k]! && counts[k] === 1)) return false;
    if (want > firsts[k]!) open = true;
  }
  return open ? undefined : hasPhrase(firsts.map((p) => [p]), opts);
}

/** What the filters read of a document. */
export type FilteredFields = Pick<StoredDoc, 'site' | 'host' | 'type' | 'lang' | 'date'>;

/** Stored-field filters: `site:` (the site exactly, as in Nutch), `host:`, `type:` (full type or either half), `lang:`, `date:`. */
export function passesFilters(doc: FilteredFields, q: AnalyzedQuery): boolean {
  for (const f of q.filters) {
    let hit: boolean;
    switch (f.field) {
      case 'site':
        hit = doc.site.toLowerCase() === f.value;
        break;
      case 'host':
        hit = doc.host.toLowerCase() === f.value;
        break;
      case 'type': {
        const t = doc.type.toLowerCase();
        hit = t === f.value || (!f.value.includes('/') && t.split('/').includes(f.value));
        break;
      }
      case 'lang':
        hit = doc.lang.toLowerCase() === f.value;
        break;
    }
    if (hit === f.exclude) return false;
  }
  for (const d of q.dates) if ((doc.date >= d.from && doc.date <= d.to) === d.exclude) return false;
  return true;
}

/**
 * A query of filters only (`site:docs.example.com`, `lang:de`) lists the
 * matching pages by link score, when a positive filter narrows the index.
 */
export function browsable(q: AnalyzedQuery): boolean {
  return q.required.length === 0 && q.filters.some((f) => !f.exclude && (f.field !== 'type' || f.value.includes('/')));
}

/** Every term of a query that a match can look at, scored terms first. */
export function matchTerms(q: AnalyzedQuery): string[] {
  return [...q.terms, ...q.excluded.flatMap((m) => m.terms)];
}

const TITLE = FIELDS.indexOf('title');
const URL = FIELDS.indexOf('url');
const ANCHOR = FIELDS.indexOf('anchor');
const CONTENT = FIELDS.indexOf('content');

/** A Match with its terms as DocTerms slots. */
interface Rule {
  match: Match;
  slots: number[];
}

export type MatchKind = 'all' | 'some' | 'none';

export class Matcher {
  private readonly required: Rule[][];
  private readonly excluded: Rule[];
  private readonly filtered: boolean;
  private readonly never: boolean;
  /** Per required group, whether the document at hand's answer waits on positions. */
  private readonly open: Uint8Array;

  constructor(
    private readonly reader: IndexReader,
    private readonly q: AnalyzedQuery,
    private readonly docTerms = new DocTerms(reader, matchTerms(q)),
  ) {
    const rule = (m: Match): Rule => ({ match: m, slots: m.terms.map((t) => docTerms.slot(t)) });
    this.required = q.required.map((g) => g.map(rule));
    this.excluded = q.excluded.map(rule);
    this.filtered = q.filters.length > 0 || q.dates.length > 0;
    this.never = q.required.length === 0 && !browsable(q);
    this.open = new Uint8Array(q.required.length);
  }

  /**
   * How a document matches: `all` (every group, no exclusion, every filter: a
   * hit), `some` (no exclusion, every filter, at least one group but not all:
   * a partial match), or `none`. Leaves `id` the document at hand in DocTerms.
   */
  matchOf(id: number, doc?: StoredDoc): MatchKind {
    if (this.never) return 'none';
    if (this.filtered && !passesFilters(doc ?? this.filteredFields(id), this.q)) return 'none';
    this.docTerms.select(id);
    for (const r of this.excluded) if (this.matches(id, r)) return 'none';
    // The groups that only positions can tell are asked last, and only while their answer can change the kind.
    const { required, open } = this;
    let n = 0;
    let failed = 0;
    for (let g = 0; g < required.length; g++) {
      const v = this.groupWithout(required[g]!);
      open[g] = v === undefined ? 1 : 0;
      if (v === true) n++;
      else if (v === false) failed++;
    }
    for (let g = 0; g < required.length && !(n > 0 && failed > 0); g++)
      if (open[g]) {
        if (this.groupByPositions(id, required[g]!)) n++;
        else failed++;
      }
    return failed === 0 ? 'all' : n > 0 ? 'some' : 'none';
  }

  /** A candidate's tags from the docinfo; its stored fields are read only for a date filter. */
  private filteredFields(id: number): FilteredFields {
    const r = this.reader;
    if (this.q.dates.length) return r.doc(id);
    return { site: r.tag(id, 'site'), host: r.tag(id, 'host'), type: r.tag(id, 'type'), lang: r.tag(id, 'lang'), date: '' };
  }

  // Plain loops below: these run for every candidate, so they make no closures.
  /** Whether a group matches, told without positions; undefined when only a phrase's positions can tell. */
  private groupWithout(group: readonly Rule[]): boolean | undefined {
    let open = false;
    for (const r of group) {
      const v = this.withoutPositions(r);
      if (v === true) return true;
      if (v === undefined) open = true;
    }
    return open ? undefined : false;
  }

  /** Whether a group that groupWithout could not tell matches, by its phrases' positions. */
  private groupByPositions(id: number, group: readonly Rule[]): boolean {
    for (const r of group) if (this.withoutPositions(r) === undefined && this.byPositions(id, r)) return true;
    return false;
  }

  /**
   * One match. The URL and anchor fields keep no positions, so a phrase
   * there (`url:"a b"`, or `www.apache.org` matching a URL) only needs all
   * its words in that field.
   */
  private matches(id: number, r: Rule): boolean {
    return this.withoutPositions(r) ?? this.byPositions(id, r);
  }

  /**
   * One match told from the document's frequencies alone; undefined when a
   * phrase's positions, read from disk, must tell: a phrase stands in the
   * title or in the body, so all its words must be there first.
   */
  private withoutPositions({ match: m, slots }: Rule): boolean | undefined {
    switch (m.field) {
      case 'default':
        if (!this.holdsAll(slots, -1)) return false;
        if (!m.phrase || this.holdsAll(slots, URL) || this.holdsAll(slots, ANCHOR)) return true;
        return this.holdsAll(slots, TITLE) || this.holdsAll(slots, CONTENT) ? undefined : false;
      case 'title':
        return this.holdsAll(slots, TITLE) && (m.phrase ? undefined : true);
      case 'url':
        return this.holdsAll(slots, URL);
      case 'anchor':
        return this.holdsAll(slots, ANCHOR);
    }
  }

  /** A phrase that withoutPositions could not tell, on the title + body positions (the title's alone for `title:`). */
  private byPositions(id: number, { match: m, slots }: Rule): boolean {
    const title = this.reader.fieldLength(id, 'title');
    return this.phrase(slots, m.field === 'title' ? { limit: title } : { boundary: title });
  }

  /** Whether the document at hand holds every term, in field `field` (an index into FIELDS) or, with -1, in any. */
  private holdsAll(slots: readonly number[], field: number): boolean {
    for (const s of slots) if (field < 0 ? !this.docTerms.has(s) : this.docTerms.freq(s, field) === 0) return false;
    return true;
  }

  /** A located document's words' first positions are read first: most phrases of a word of one position are told by them. */
  private phrase(slots: readonly number[], opts: Parameters<typeof hasPhrase>[1]): boolean {
    const counts = slots.map((s) => this.docTerms.positionCount(s) ?? -1);
    const byFirsts = counts.includes(-1) ? undefined : phraseOfFirsts(slots.map((s) => this.docTerms.positions(s, 1)[0]!), counts, opts);
    return byFirsts ?? hasPhrase(
      slots.map((s) => this.docTerms.positions(s)),
      opts,
    );
  }
}

/** How one document matches a query (the /explain page); a search compiles a Matcher once instead. */
export function matchOf(reader: IndexReader, id: number, doc: StoredDoc, q: AnalyzedQuery): MatchKind {
  return new Matcher(reader, q).matchOf(id, doc);
}
