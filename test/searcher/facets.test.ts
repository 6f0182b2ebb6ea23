/** Facet counts: a table over lists of matches (site, type, lang of each, in rank order). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { countFacets, MAX_FACET_VALUES, type Facets } from '../../searcher/facets.js';
import type { StoredDoc } from '../../shared/index/types.js';

const doc = (i: number, site: string, type: string, lang: string) => ({ url: `http://${site}/${i}`, site, type, lang }) as StoredDoc;
const hits = (rows: string) => rows.split(' ').filter(Boolean).map((r, i) => ({ doc: doc(i, ...(r.split('/') as [string, string, string])) }));
/** Each facet as `value=count@sample's index`, most frequent first. */
const shown = (f: Facets) =>
  (['site', 'type', 'lang'] as const).map((field) => `${field}: ${f[field].map((v) => `${v.value}=${v.count}@${v.sample.url.split('/').pop()}`).join(' ')}`).join('; ');

const CASES: [name: string, rows: string, expected: string][] = [
  ['no matches', '', 'site: ; type: ; lang: '],
  ['counted per value; the sample is the first match of a value', 'a/html/en b/pdf/de a/html/en', 'site: a=2@0 b=1@1; type: html=2@0 pdf=1@1; lang: en=2@0 de=1@1'],
  ['the most frequent first, equal counts by value', 'b/x/en a/y/en c/y/de c/x/de', 'site: c=2@2 a=1@1 b=1@0; type: x=2@0 y=2@1; lang: de=2@2 en=2@0'],
  ['an empty value is not a facet value', 'a//en a/html/', 'site: a=2@0; type: html=1@1; lang: en=1@0'],
];

for (const [name, rows, expected] of CASES) test(name, () => assert.is(shown(countFacets(hits(rows))), expected));

test(`at most ${MAX_FACET_VALUES} values a facet`, () => {
  const f = countFacets(hits(Array.from({ length: 12 }, (_, i) => `s${String(i).padStart(2, '0')}/html/en`).join(' ')));
  assert.is(f.site.length, MAX_FACET_VALUES);
  assert.is(f.site[0]!.value, 's00');
  assert.is(f.type[0]!.count, 12);
});

test.run();
