/**
 * @module searcher/typeahead
 * Type-ahead over the titles and headings of the best pages: flexsearch's
 * forward (prefix) index of a bounded list of entries, so what a worker holds
 * is set by `searcher.typeahead.entries`, not by the size of the crawl. The
 * entries are the titles of the pages of best link score, then their
 * headings (read from the parse data, without the text), until the list is
 * full: a suggestion leads to a page people link to. The list is made the
 * first time a snapshot is asked, in slices between which requests run.
 */
import { Index } from 'flexsearch';
import type { PageSection } from '../shared/plugin/extension-points.js';
import type { IndexReader } from '../shared/index/types.js';
import type { Snapshot } from './snapshot.js';

export interface TypeAheadEntry {
  text: string;
  /** The page, or its section (`#id`) for a heading. */
  url: string;
  kind: 'title' | 'heading';
}

/** Entries added between two turns of the event loop while the list is built. */
const SLICE = 500;
/** A heading longer than this is a sentence or a signature, not something typed. */
const MAX_TEXT = 120;
/** Matches flexsearch is asked for (its best by where the words stand), before they are ordered here. */
const CANDIDATES = 50;

/** The typed text as matched: each word a word of the entry or the start of one. */
const cleaned = (q: string) => q.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);

export class TypeAhead {
  private readonly index = new Index({ tokenize: 'forward' });
  private readonly entries: TypeAheadEntry[] = [];
  private readonly seen = new Set<string>();
  /** True once every entry is in. */
  complete = false;

  constructor(readonly capacity: number) {}

  /** Adds an entry unless it is full or the same text leads there already; false once full. */
  add(e: TypeAheadEntry): boolean {
    if (this.entries.length >= this.capacity) return false;
    const text = e.text.replace(/\s+/g, ' ').trim();
    const key = `${text.toLowerCase()}\n${e.url.replace(/#.*$/, '')}`;
    if (!text || text.length > MAX_TEXT || this.seen.has(key)) return true;
    this.seen.add(key);
    this.index.add(this.entries.length, text);
    this.entries.push({ ...e, text });
    return this.entries.length < this.capacity;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Up to `limit` entries matching the typed text: those starting with it first, then titles before headings, each by link score of its page. */
  suggest(q: string, limit: number): TypeAheadEntry[] {
    const text = cleaned(q);
    if (!text) return [];
    const ids = this.index.search(text, { limit: CANDIDATES }) as number[];
    const lower = text.toLowerCase();
    const starts = (id: number) => (this.entries[id]!.text.toLowerCase().startsWith(lower) ? 0 : 1);
    const out: TypeAheadEntry[] = [];
    const shown = new Set<string>();
    // Entries were added in that order: titles, then headings, best pages first.
    for (const id of [...ids].sort((a, b) => starts(a) - starts(b) || a - b)) {
      const e = this.entries[id]!;
      // The same heading on many pages (Syntax, Examples) is one suggestion, of the best page.
      if (shown.has(e.text.toLowerCase())) continue;
      shown.add(e.text.toLowerCase());
      out.push(e);
      if (out.length === limit) break;
    }
    return out;
  }
}

/** Live documents, best link score first. */
function byLinkScore(reader: IndexReader): number[] {
  const ids: number[] = [];
  for (let id = 0; id < reader.meta.docCount; id++) if (!reader.isDeleted(id)) ids.push(id);
  const boost = new Float64Array(reader.meta.docCount);
  for (const id of ids) boost[id] = reader.boost(id);
  return ids.sort((a, b) => boost[b]! - boost[a]! || a - b);
}

/**
 * The entries in the order they are taken: the pages' titles, best link
 * score first, up to half the list (a title names a whole page); then the
 * headings of the same pages in the same order (not one repeating its
 * page's title), until the list is full.
 */
function* entriesOf(snap: Snapshot, pages: readonly number[], titles: number): Generator<TypeAheadEntry> {
  for (const id of pages.slice(0, titles)) {
    const doc = snap.reader.doc(id);
    yield { text: doc.title, url: doc.url, kind: 'title' };
  }
  for (const id of pages) {
    const doc = snap.reader.doc(id);
    const sections: PageSection[] = snap.segments.getParseMeta(doc.segment, doc.url)?.sections ?? [];
    for (const s of sections)
      if (s.heading.trim().toLowerCase() !== doc.title.trim().toLowerCase()) yield { text: s.heading, url: s.id ? `${doc.url}#${s.id}` : doc.url, kind: 'heading' };
  }
}

const built = new WeakMap<Snapshot, TypeAhead>();

/**
 * The snapshot's type-ahead, started on first use and filled a slice at a
 * time; what is in already answers meanwhile (the best pages come first).
 */
export function typeAheadOf(snap: Snapshot, capacity: number): TypeAhead {
  let t = built.get(snap);
  if (!t) {
    const fresh = new TypeAhead(capacity);
    built.set(snap, (t = fresh));
    const entries = entriesOf(snap, capacity > 0 ? byLinkScore(snap.reader) : [], Math.ceil(capacity / 2));
    const slice = () => {
      const end = fresh.size + SLICE;
      let more = true;
      try {
        while (more && fresh.size < end) {
          const e = entries.next();
          more = !e.done && fresh.add(e.value);
        }
      } catch {
        // A snapshot replaced by a new index is closed under its list: the list stays as far as it got.
        more = false;
      }
      if (more) setImmediate(slice);
      else fresh.complete = true;
    };
    slice();
  }
  return t;
}
