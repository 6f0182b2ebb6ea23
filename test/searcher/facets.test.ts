/** Facet counts: a table over lists of matches (site, type, lang of each, in rank order). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { countFacets, MAX_FACET_VALUES, type Facets } from '../../searcher/facets.js';

const hits = (rows: string) =>
  rows
    .split(' ')
    .filter(Boolean)
    .map((r, i) => {
      const [site, type, lang] = r.split('/') as [string, string, string];
      return { url: `http://${site}/${i}`, site, type, lang };
    });
const pageOf = (h: { url: string; site: string }) => ({ url: h.url, site: h.site });
/** Each facet as `value=count`, most frequent first, a site's with `@` its sample's index. */
const shown = (f: Facets) =>
  [
    `site: ${f.site.map((v) => `${v.value}=${v.count}@${v.sample.url.split('/').pop()}`).join(' ')}`,
    `type: ${f.type.map((v) => `${v.value}=${v.count}`).join(' ')}`,
    `lang: ${f.lang.map((v) => `${v.value}=${v.count}`).join(' ')}`,
  ].join('; ');

const CASES: [name: string, rows: string, expected: string][] = [
  ['no matches', '', 'site: ; type: ; lang: '],
  ["counted per value; a site's sample is its first match", 'a/html/en b/pdf/de a/html/en', 'site: a=2@0 b=1@1; type: html=2 pdf=1; lang: en=2 de=1'],
  ['the most frequent first, equal counts by value', 'b/x/en a/y/en c/y/de c/x/de', 'site: c=2@2 a=1@1 b=1@0; type: x=2 y=2; lang: de=2 en=2'],
  ['an empty value is not a facet value', 'a//en a/html/', 'site: a=2@0; type: html=1; lang: en=1'],
];

for (const [name, rows, expected] of CASES) test(name, () => assert.is(shown(countFacets(hits(rows), pageOf)), expected));

test(`at most ${MAX_FACET_VALUES} values a facet, and only the sites shown are sampled`, () => {
  const sampled: string[] = [];
  const f = countFacets(hits(Array.from({ length: 12 }, (_, i) => `s${String(i).padStart(2, '0')}/html/en`).join(' ')), (h) => (sampled.push(h.site), pageOf(h)));
  assert.is(f.site.length, MAX_FACET_VALUES);
  assert.is(f.site[0]!.value, 's00');
  assert.is(f.type[0]!.count, 12);
  assert.equal(sampled, f.site.map((v) => v.value));
});

test.run();
