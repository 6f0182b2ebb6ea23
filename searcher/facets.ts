/**
 * @module searcher/facets
 * Counts of the matching pages by site, type and language, each value a
 * query filter (`site:`, `type:`, `lang:`) that narrows the results. Counted
 * over every match before grouping, so the numbers are what the narrowed
 * query will find. Pure over plain data.
 */
import { typeName } from '../shared/doc-type.js';
import type { StoredDoc } from '../shared/index/types.js';

export const FACET_FIELDS = ['site', 'type', 'lang'] as const;
export type FacetField = (typeof FACET_FIELDS)[number];

export interface FacetValue {
  value: string;
  count: number;
  /** A page with this value (the site facet is labelled by its site's name). */
  sample: StoredDoc;
}

export type Facets = Record<FacetField, FacetValue[]>;

/** Values shown per facet, the most frequent first. */
export const MAX_FACET_VALUES = 8;

function count(counts: Map<string, FacetValue>, value: string | undefined, doc: StoredDoc): void {
  if (!value) return;
  const v = counts.get(value);
  if (v) v.count++;
  else counts.set(value, { value, count: 1, sample: doc });
}

/** One pass over the hits, each field read by name: a search counts every match. */
export function countFacets(hits: readonly { doc: StoredDoc }[]): Facets {
  const site = new Map<string, FacetValue>();
  const type = new Map<string, FacetValue>();
  const lang = new Map<string, FacetValue>();
  for (const { doc } of hits) {
    count(site, doc.site, doc);
    count(type, doc.type, doc);
    count(lang, doc.lang, doc);
  }
  const top = (counts: Map<string, FacetValue>) => [...counts.values()].sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, MAX_FACET_VALUES);
  return { site: top(site), type: top(type), lang: top(lang) };
}

const languages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** A facet value as people say it: `text/html` → HTML, a .docx → Word, `de` → German. */
export function facetLabel(field: Exclude<FacetField, 'site'>, value: string): string {
  if (field === 'type') return typeName(value);
  try {
    return languages.of(value) ?? value;
  } catch {
    return value;
  }
}
