import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { changefreqInterval, parseLastmod, parseSitemap, priorityScore } from '../../../crawler/sitemap/sitemap-file.js';

test('a urlset: loc, lastmod, changefreq and priority; bad values dropped, not the entry', () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://a.test/one?x=1&amp;y=2</loc><lastmod>2024-05-06</lastmod><changefreq>Daily</changefreq><priority>0.8</priority></url>
  <url><loc> http://a.test/two </loc><lastmod>yesterday</lastmod><changefreq>often</changefreq><priority>3</priority></url>
  <url><loc>ftp://a.test/three</loc></url>
  <url><lastmod>2024-01-01</lastmod></url>
</urlset>`;
  const s = parseSitemap(xml, 100);
  assert.is(s.kind, 'urlset');
  assert.equal(s.urls, [
    { loc: 'http://a.test/one?x=1&y=2', lastmod: Date.UTC(2024, 4, 6), changefreq: 'daily', priority: 0.8 },
    { loc: 'http://a.test/two' },
  ]);
  assert.is(s.invalid, 2);
});

test('a sitemap index, a prefixed namespace, the text form, and the entry limit', () => {
  const idx = parseSitemap('<sitemapindex><sitemap><loc>http://a.test/s1.xml.gz</loc></sitemap><sitemap><loc>http://a.test/s2.xml</loc></sitemap></sitemapindex>', 100);
  assert.is(idx.kind, 'sitemapindex');
  assert.equal(idx.sitemaps.map((x) => x.loc), ['http://a.test/s1.xml.gz', 'http://a.test/s2.xml']);
  const ns = parseSitemap('<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>http://a.test/p</sm:loc></sm:url></sm:urlset>', 100);
  assert.equal(ns.urls, [{ loc: 'http://a.test/p' }]);
  const text = parseSitemap('http://a.test/a\n\nnot a url\nhttp://a.test/b\nhttp://a.test/c\n', 2);
  assert.is(text.kind, 'text');
  assert.equal(text.urls.map((x) => x.loc), ['http://a.test/a', 'http://a.test/b']);
  assert.is(text.invalid, 1);
  assert.is(text.overLimit, 1);
  const many = parseSitemap(`<urlset>${Array.from({ length: 10 }, (_, i) => `<url><loc>http://a.test/${i}</loc></url>`).join('')}</urlset>`, 3);
  assert.is(many.urls.length, 3);
  assert.is(many.overLimit, 7);
  assert.is(parseSitemap('<html><body>no</body></html>', 10).kind, 'unknown');
  assert.is(parseSitemap('<urlset><url><loc>http://a.test/x', 10).urls.length, 0, 'an unclosed entry is not taken');
});

test('lastmod: the W3C datetime forms', () => {
  const cases: [string, number | undefined][] = [
    ['2024', Date.UTC(2024, 0, 1)],
    ['2024-03', Date.UTC(2024, 2, 1)],
    ['2024-03-04', Date.UTC(2024, 2, 4)],
    ['2024-03-04T05:06Z', Date.UTC(2024, 2, 4, 5, 6)],
    ['2024-03-04T05:06:07+02:00', Date.UTC(2024, 2, 4, 3, 6, 7)],
    ['2024-03-04T05:06:07.5Z', Date.UTC(2024, 2, 4, 5, 6, 7, 500)],
    ['04/03/2024', undefined],
    ['2024-13-01', undefined],
    ['', undefined],
  ];
  for (const [input, want] of cases) assert.is(parseLastmod(input), want, input);
});

test('changefreq to fetch interval, priority to score', () => {
  const day = 86400;
  const cases: [Parameters<typeof changefreqInterval>[0], number][] = [
    [undefined, 30 * day],
    ['always', 3600],
    ['hourly', 3600],
    ['daily', day],
    ['weekly', 7 * day],
    ['monthly', 30 * day],
    ['yearly', 90 * day],
    ['never', 90 * day],
  ];
  for (const [cf, want] of cases) assert.is(changefreqInterval(cf, 30 * day, 90 * day), want, String(cf));
  assert.is(priorityScore(undefined, 1), 1);
  assert.is(priorityScore(0.5, 1), 1);
  assert.is(priorityScore(1, 1), 2);
  assert.is(priorityScore(0, 1), 0);
  assert.is(priorityScore(0.1, 2), 0.4);
});

test.run();
