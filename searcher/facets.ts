/**
 * @module searcher/facets
 * Counts of the matching pages by site, type and language, each value a
 * query filter (`site:`, `type:`, `lang:`) that narrows the results. Counted
 * over every match before grouping, so the numbers are what the narrowed
 * query will find. Pure over plain data: a match's tags are the docinfo's,
 * so counting reads no stored fields; only the shown sites' sample pages are
 * asked for.
 */
import { typeName } from '../shared/doc-type.js';
import type { StoredDoc } from '../shared/index/types.js';

export const FACET_FIELDS = ['site', 'type', 'lang'] as const;
export type FacetField = (typeof FACET_FIELDS)[number];

/** What a facet counts of a match. */
export type FacetTags = Record<FacetField, string>;

/** A page of a site: enough to name the site (searcher/sites). */
export type SitePage = Pick<StoredDoc, 'url' | 'site'>;

export interface FacetValue {
  value: string;
  count: number;
}

export interface SiteFacetValue extends FacetValue {
  /** A page of the site, to label the value by its site's name. */
  sample: SitePage;
}

export interface Facets {
  site: SiteFacetValue[];
  type: FacetValue[];
  lang: FacetValue[];
}

/** Values shown per facet, the most frequent first. */
export const MAX_FACET_VALUES = 8;

export const noFacets = (): Facets => ({ site: [], type: [], lang: [] });

/** The most frequent values of a facet's counts (by value; the empty value is none), most first, then by value. */
export function topValues(counts: ReadonlyMap<string, number>): FacetValue[] {
  const out: FacetValue[] = [];
  for (const [value, count] of counts) if (value && count > 0) out.push({ value, count });
  return out.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, MAX_FACET_VALUES);
}

/** The facets of counts made already; each site shown is sampled by `sampleOf`, called only for them. */
export function facetsOf(counts: Record<FacetField, ReadonlyMap<string, number>>, sampleOf: (site: string) => SitePage): Facets {
  return {
    site: topValues(counts.site).map((v) => ({ ...v, sample: sampleOf(v.value) })),
    type: topValues(counts.type),
    lang: topValues(counts.lang),
  };
}

/**
 * One pass over the matches, in rank order; each site shown is sampled by
 * its first match (`pageOf`, called only for them).
 */
export function countFacets<H extends FacetTags>(hits: readonly H[], pageOf: (hit: H) => SitePage): Facets {
  const counts = { site: new Map<string, number>(), type: new Map<string, number>(), lang: new Map<string, number>() };
  const first = new Map<string, H>();
  for (const h of hits) {
    for (const f of FACET_FIELDS) counts[f].set(h[f], (counts[f].get(h[f]) ?? 0) + 1);
    if (!first.has(h.site)) first.set(h.site, h);
  }
  return facetsOf(counts, (site) => pageOf(first.get(site)!));
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
