/**
 * @module searcher/http/opensearch
 * OpenSearch output (Nutch's OpenSearchServlet): an RSS 2.0 channel with
 * OpenSearch 1.1 elements and Nutch's per-item fields, and the OpenSearch
 * description document that lets a browser add the searcher as a search
 * engine. Nutch put summary markup raw into the description; hazelnut sends
 * plain text, so a feed reader never renders page markup.
 */
import type { SearchResult } from '../search.js';
import { summaryToText, type Summary } from '../summary.js';
import { escapeXml } from '../../shared/escape.js';
import { searchHref } from './results.js';

const OS_NS = 'http://a9.com/-/spec/opensearch/1.1/';
const NUTCH_NS = 'http://www.nutch.org/opensearchrss/1.0/';

const el = (name: string, value: string | number) => `<${name}>${escapeXml(String(value))}</${name}>`;

/** Nutch writes every stored field as `<nutch:field>`; 1.2 prefixes names that start with a digit (NUTCH-906). */
function fieldName(k: string): string {
  const n = k.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[0-9.-]/.test(n) ? `nutch_${n}` : n;
}

export function openSearchRss(r: SearchResult, summaries: Summary[], base: string, defaults: { hitsPerPage: number; hitsPerSite: number }): string {
  const params = { query: r.raw, hitsPerPage: r.hitsPerPage, hitsPerSite: r.hitsPerSite };
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rss version="2.0" xmlns:opensearch="${OS_NS}" xmlns:nutch="${NUTCH_NS}" xmlns:atom="http://www.w3.org/2005/Atom">`,
    ' <channel>',
    `  ${el('title', `hazelnut: ${r.raw}`)}`,
    `  ${el('description', `hazelnut search results for query: ${r.raw}`)}`,
    `  ${el('link', base + searchHref('/search', { ...params, start: r.start }, defaults))}`,
    `  <atom:link rel="search" type="application/opensearchdescription+xml" href="${escapeXml(base + '/opensearch.xml')}"/>`,
    `  <opensearch:Query role="request" searchTerms="${escapeXml(r.raw)}" startIndex="${r.start}"/>`,
    `  ${el('opensearch:totalResults', r.total)}`,
    `  ${el('opensearch:startIndex', r.start)}`,
    `  ${el('opensearch:itemsPerPage', r.hitsPerPage)}`,
    `  ${el('nutch:query', r.raw)}`,
    `  ${el('nutch:totalIsExact', String(r.exact))}`,
  ];
  if (r.hasNext) out.push(`  ${el('nutch:nextPage', base + searchHref('/opensearch', { ...params, start: r.start + r.hitsPerPage }, defaults))}`);
  if (r.hidden > 0) out.push(`  ${el('nutch:showAllHits', base + searchHref('/opensearch', { ...params, hitsPerSite: 0 }, defaults))}`);
  r.hits.forEach((h, i) => {
    const d = h.doc;
    const enc = encodeURIComponent(d.url);
    out.push('  <item>');
    out.push(`   ${el('title', d.title.trim() || d.url)}`);
    out.push(`   ${el('description', summaryToText(summaries[i] ?? []))}`);
    out.push(`   ${el('link', d.url)}`);
    out.push(`   <guid isPermaLink="true">${escapeXml(d.url)}</guid>`);
    out.push(`   ${el('nutch:site', h.site)}`);
    if (!d.noarchive) out.push(`   ${el('nutch:cache', `${base}/cached?url=${enc}`)}`);
    out.push(`   ${el('nutch:explain', `${base}/explain?url=${enc}&query=${encodeURIComponent(r.raw)}`)}`);
    if (r.hitsPerSite > 0)
      out.push(`   ${el('nutch:moreFromSite', base + searchHref('/opensearch', { ...params, query: `site:${h.site} ${r.raw}`, hitsPerSite: 0 }, defaults))}`);
    out.push(`   ${el('nutch:score', h.score.toFixed(4))}`);
    for (const [k, v] of Object.entries(d)) {
      if (k === 'url' || k === 'title' || v === undefined) continue;
      const vals = Array.isArray(v) ? v : [v];
      for (const x of vals) out.push(`   ${el(`nutch:${fieldName(k)}`, String(x))}`);
    }
    out.push('  </item>');
  });
  out.push(' </channel>', '</rss>', '');
  return out.join('\n');
}

/** The OpenSearch 1.1 description document. */
export function openSearchDescription(base: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<OpenSearchDescription xmlns="${OS_NS}">
 <ShortName>hazelnut</ShortName>
 <Description>Search the pages hazelnut crawled.</Description>
 <InputEncoding>UTF-8</InputEncoding>
 <OutputEncoding>UTF-8</OutputEncoding>
 <Url type="text/html" method="get" template="${escapeXml(base)}/search?query={searchTerms}&amp;start={startIndex?}&amp;hitsPerPage={count?}"/>
 <Url type="application/rss+xml" template="${escapeXml(base)}/opensearch?query={searchTerms}&amp;start={startIndex?}&amp;hitsPerPage={count?}"/>
 <Url type="application/json" template="${escapeXml(base)}/api/search?query={searchTerms}&amp;start={startIndex?}&amp;hitsPerPage={count?}"/>
 <Query role="example" searchTerms="crawler"/>
</OpenSearchDescription>
`;
}
