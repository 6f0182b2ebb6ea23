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

interface Counted<H> extends FacetValue {
  /** The first match with the value. */
  first: H;
}

function count<H>(counts: Map<string, Counted<H>>, value: string, hit: H): void {
  if (!value) return;
  const v = counts.get(value);
  if (v) v.count++;
  else counts.set(value, { value, count: 1, first: hit });
}

const top = <H>(counts: Map<string, Counted<H>>) => [...counts.values()].sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, MAX_FACET_VALUES);

/**
 * One pass over the matches, in rank order; each site shown is sampled by
 * its first match (`pageOf`, called only for them).
 */
export function countFacets<H extends FacetTags>(hits: readonly H[], pageOf: (hit: H) => SitePage): Facets {
  const site = new Map<string, Counted<H>>();
  const type = new Map<string, Counted<H>>();
  const lang = new Map<string, Counted<H>>();
  for (const h of hits) {
    count(site, h.site, h);
    count(type, h.type, h);
    count(lang, h.lang, h);
  }
  const plain = ({ value, count }: Counted<H>): FacetValue => ({ value, count });
  return {
    site: top(site).map((v) => ({ ...plain(v), sample: pageOf(v.first) })),
    type: top(type).map(plain),
    lang: top(lang).map(plain),
  };
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
