/**
 * @module searcher/http/results
 * The search results page (Nutch's search.jsp): per hit the title (or URL)
 * linked to the section where it matched, that section's heading, the site's
 * name and the URL, summary, type, size, date, and the cached / anchors /
 * explain links; a site's further hits in a list under its first, with "more
 * from" when some were hidden; "did you mean"; facets that narrow the query;
 * paging; "show all hits" when grouping hid some; an honest total. Every
 * value from a crawled page is escaped here.
 */
import type { StoredDoc } from '../../shared/index/types.js';
import { FACET_FIELDS, facetLabel, type FacetField, type FacetValue, type SitePage } from '../facets.js';
import type { SearchResult, Hit } from '../search.js';
import type { Respelled } from '../spell.js';
import { summaryToHtml, type Summary } from '../summary.js';
import { localPath, mappedFileUrl, type FileUrlPrefix } from '../file-links.js';
import { typeName } from '../../shared/doc-type.js';
import { escapeHtml, safeHref } from '../../shared/escape.js';
import { page } from './layout.js';

export interface PageParams {
  query: string;
  start: number;
  hitsPerPage: number;
  hitsPerSite: number;
}

/** A link to `path` with the search parameters, defaults left out. */
export function searchHref(path: string, p: Partial<PageParams> & { query: string }, defaults: { hitsPerPage: number; hitsPerSite: number }): string {
  const q = new URLSearchParams({ query: p.query });
  if (p.start) q.set('start', String(p.start));
  if (p.hitsPerPage !== undefined && p.hitsPerPage !== defaults.hitsPerPage) q.set('hitsPerPage', String(p.hitsPerPage));
  if (p.hitsPerSite !== undefined && p.hitsPerSite !== defaults.hitsPerSite) q.set('hitsPerSite', String(p.hitsPerSite));
  return `${path}?${q}`;
}

/** `text/html; …` size and `yyyyMMdd` in the forms a reader expects. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10240 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatDay(yyyymmdd: string): string {
  return /^\d{8}$/.test(yyyymmdd) ? `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}` : yyyymmdd;
}

export function totalText(r: Pick<SearchResult, 'total' | 'exact'>): string {
  return r.exact ? `${r.total}` : `about ${r.total}+`;
}

/** What the page shows of one hit beside the indexed document. */
export interface HitView {
  hit: Hit;
  summary: Summary;
  /** The section the summary comes from: its heading, and its id for the link. */
  section?: { heading: string; id?: string };
  /** The site's name for people (its home page's title). */
  siteName: string;
}

/** The hit's link: to the section where it matched when that section has an id. */
export function hitHref(v: Pick<HitView, 'hit' | 'section'>): string {
  const url = v.hit.doc.url;
  return v.section?.id ? `${url.replace(/#.*$/, '')}#${encodeURIComponent(v.section.id)}` : url;
}

/**
 * Where a hit opens: a page at the section where it matched; a file of a
 * share at the address file.url.map gives it, else its own file: URL
 * (which a person can copy; a browser will not open it from a web page).
 */
export function openLink(v: Pick<HitView, 'hit' | 'section'>, fileUrlMap: readonly FileUrlPrefix[]): string {
  const url = v.hit.doc.url;
  return localPath(url) ? (mappedFileUrl(url, fileUrlMap) ?? url) : hitHref(v);
}

/** The title's href: the mapping is the administrator's and may name any scheme; a crawled page's link only http(s). */
function titleHref(v: HitView, fileUrlMap: readonly FileUrlPrefix[]): string {
  return localPath(v.hit.doc.url) ? openLink(v, fileUrlMap) : safeHref(openLink(v, fileUrlMap));
}

function hitHtml(v: HitView, r: SearchResult, fileUrlMap: readonly FileUrlPrefix[]): string {
  const { hit: h, summary } = v;
  const d = h.doc;
  const enc = encodeURIComponent(d.url);
  const meta = [d.type ? typeName(d.type) : '', formatSize(d.contentLength), formatDay(d.date)].filter(Boolean).map(escapeHtml).join(' · ');
  const links = [
    d.noarchive ? '' : `<a href="/cached?url=${enc}">cached</a>`,
    `<a href="/text?url=${enc}">view as text</a>`,
    `<a href="/anchors?url=${enc}">anchors</a>`,
    `<a href="/explain?url=${enc}&amp;query=${encodeURIComponent(r.raw)}">explain</a>`,
  ].filter(Boolean);
  const title = escapeHtml(d.title.trim() || d.url);
  const named = v.siteName !== d.site && v.siteName !== d.host;
  const section = v.section && v.section.heading !== d.title.trim() ? `<div class="section">§ ${escapeHtml(v.section.heading)}</div>\n` : '';
  const path = localPath(d.url);
  // A share's path, selected whole by one click, for pasting into a file manager or a terminal.
  const where = path ? `<code class="path" title="path on the file share" style="user-select:all">${escapeHtml(path)}</code>` : escapeHtml(d.url);
  return `<h2><a href="${escapeHtml(titleHref(v, fileUrlMap))}">${title}</a></h2>
${section}<div class="url">${named ? `<span class="site">${escapeHtml(v.siteName)}</span> › ` : ''}${where}</div>
${summary.length ? `<p class="summary">${summaryToHtml(summary)}</p>` : ''}
<div class="meta">${meta}</div>
<div class="links">${links.join(' ')}</div>`;
}

/** "More from this site" under a site's hits, when grouping hid some. */
function moreFromSiteHtml(v: HitView, r: SearchResult, defaults: { hitsPerPage: number; hitsPerSite: number }): string {
  const h = v.hit;
  if (!h.moreFromSite) return '';
  const href = searchHref('/search', { query: `site:${h.site} ${r.raw}`, hitsPerSite: 0, hitsPerPage: r.hitsPerPage }, defaults);
  return `<div class="more"><a href="${escapeHtml(href)}">more from ${escapeHtml(v.siteName)}</a></div>`;
}

/** The hits as a list; a site's further hits as a list inside its first hit's item. */
function hitsHtml(views: HitView[], r: SearchResult, defaults: { hitsPerPage: number; hitsPerSite: number }, fileUrlMap: readonly FileUrlPrefix[]): string {
  const out: string[] = [`<ol class="hits" start="${r.start + 1}" aria-labelledby="results-heading">`];
  for (let i = 0; i < views.length; ) {
    const head = views[i]!;
    let j = i + 1;
    while (j < views.length && views[j]!.hit.grouped) j++;
    const grouped = views.slice(i + 1, j);
    out.push(`<li class="hit">${hitHtml(head, r, fileUrlMap)}`);
    if (grouped.length)
      out.push(`<ul class="grouped" aria-label="More from ${escapeHtml(head.siteName)}">${grouped.map((v) => `<li class="hit">${hitHtml(v, r, fileUrlMap)}</li>`).join('\n')}</ul>`);
    out.push(`${moreFromSiteHtml(head, r, defaults)}</li>`);
    i = j;
  }
  out.push('</ol>');
  return out.join('\n');
}

/** What the page shows beside the hits. */
export interface PageExtras {
  /** "Did you mean": the query with unknown words corrected. */
  suggestion?: Respelled;
  /** The query as typed, when it found nothing and the hits are the suggestion's ("Showing results for …"). */
  insteadOf?: string;
  /** A site's name for people, for the site facet. */
  siteName?: (doc: SitePage) => string;
  /** Said above the hits, e.g. that some shards did not answer. */
  notices?: string[];
  /** file.url.map: where a file share's hits are opened. */
  fileUrlMap?: readonly FileUrlPrefix[];
}

const FACET_TITLES: Record<FacetField, string> = { site: 'Site', type: 'Type', lang: 'Language' };

/** Each facet value, labelled for people, with the query that narrows to it. */
export function facetEntries(r: SearchResult, siteName: (doc: SitePage) => string) {
  const entry = (field: FacetField, v: FacetValue, label: string) => ({ value: v.value, label, count: v.count, query: `${r.raw.trim()} ${field}:${v.value}` });
  return FACET_FIELDS.map((field) => ({
    field,
    values: field === 'site' ? r.facets.site.map((v) => entry(field, v, siteName(v.sample))) : r.facets[field].map((v) => entry(field, v, facetLabel(field, v.value))),
  }));
}

/** Facets with at least two values: a link per value that narrows the query. */
function facetsHtml(r: SearchResult, siteName: (doc: SitePage) => string, defaults: { hitsPerPage: number; hitsPerSite: number }): string {
  const groups = facetEntries(r, siteName)
    .filter((f) => f.values.length > 1)
    .map((f) => {
      const items = f.values.map((v) => {
        const href = searchHref('/search', { query: v.query, hitsPerPage: r.hitsPerPage, hitsPerSite: r.hitsPerSite }, defaults);
        return `<li><a href="${escapeHtml(href)}">${escapeHtml(v.label)} <span class="count">(${v.count})</span></a></li>`;
      });
      return `<div class="facet"><h2 id="facet-${f.field}">${FACET_TITLES[f.field]}</h2><ul aria-labelledby="facet-${f.field}">${items.join('')}</ul></div>`;
    });
  return groups.length ? `<nav class="facets" aria-label="Narrow the results">${groups.join('\n')}</nav>` : '';
}

function suggestionHtml(s: Respelled, r: SearchResult, defaults: { hitsPerPage: number; hitsPerSite: number }, insteadOf?: string): string {
  const href = searchHref('/search', { query: s.query, hitsPerPage: r.hitsPerPage, hitsPerSite: r.hitsPerSite }, defaults);
  const words = s.parts.map((p) => (p.corrected ? `<strong>${escapeHtml(p.text)}</strong>` : escapeHtml(p.text))).join('');
  if (insteadOf === undefined) return `<p class="suggest">Did you mean <a href="${escapeHtml(href)}">${words}</a>?</p>`;
  const typed = `${searchHref('/search', { query: insteadOf, hitsPerPage: r.hitsPerPage, hitsPerSite: r.hitsPerSite }, defaults)}&asTyped=1`;
  return `<p class="suggest">Showing results for <a href="${escapeHtml(href)}">${words}</a>. Search instead for <a href="${escapeHtml(typed)}">${escapeHtml(insteadOf)}</a>.</p>`;
}

export function resultsPage(r: SearchResult, views: HitView[], defaults: { hitsPerPage: number; hitsPerSite: number }, extras: PageExtras = {}): string {
  const q = r.raw;
  const parts: string[] = [`<h1 class="stats" id="results-heading">`];
  if (r.hits.length === 0) {
    parts[0] += `No pages found for <strong>${escapeHtml(q)}</strong>.</h1>`;
    if (r.query.required.length === 0 && q.trim())
      parts.push(`<p class="notice">Type at least one word that is not excluded: a query of only <code>-word</code> exclusions matches nothing.</p>`);
  } else {
    const end = r.start + r.hits.length;
    parts[0] += `Hits ${r.start + 1}–${end} (of ${totalText(r)} matching pages) for <strong>${escapeHtml(q)}</strong></h1>`;
  }
  for (const n of extras.notices ?? []) parts.push(`<p class="notice" role="status">${escapeHtml(n)}</p>`);
  if (extras.suggestion) parts.push(suggestionHtml(extras.suggestion, r, defaults, extras.insteadOf));
  if (r.query.stopped.length)
    parts.push(`<p class="notice">Common words left out: ${r.query.stopped.map((w) => `<q>${escapeHtml(w)}</q>`).join(', ')}. Put a + before a word to keep it.</p>`);
  if (r.partial > 0)
    parts.push(`<p class="notice">${r.total - r.partial === 0 ? 'No page holds every word' : `Only ${r.total - r.partial} ${r.total - r.partial === 1 ? 'page holds' : 'pages hold'} every word`}; pages holding some of them are included.</p>`);
  if (r.query.truncated) parts.push(`<p class="notice">The query was too long; only its beginning was used.</p>`);
  if (views.length && extras.siteName) parts.push(facetsHtml(r, extras.siteName, defaults));
  if (views.length) parts.push(hitsHtml(views, r, defaults, extras.fileUrlMap ?? []));
  const nav: string[] = [];
  const base = { query: q, hitsPerPage: r.hitsPerPage, hitsPerSite: r.hitsPerSite };
  if (r.start > 0)
    nav.push(`<a rel="prev" href="${escapeHtml(searchHref('/search', { ...base, start: Math.max(0, r.start - r.hitsPerPage) }, defaults))}">← Previous</a>`);
  if (r.hasNext) nav.push(`<a rel="next" href="${escapeHtml(searchHref('/search', { ...base, start: r.start + r.hitsPerPage }, defaults))}">Next →</a>`);
  if (r.hidden > 0)
    nav.push(`<a href="${escapeHtml(searchHref('/search', { ...base, hitsPerSite: 0 }, defaults))}">Show all hits (${r.hidden} more from sites already shown)</a>`);
  nav.push(`<a href="${escapeHtml(searchHref('/opensearch', { ...base, start: r.start }, defaults))}">RSS</a>`);
  parts.push(`<nav class="pages" aria-label="Result pages">${nav.join('')}</nav>`);
  return page(q ? `${q} – hazelnut search` : 'hazelnut search', parts.join('\n'), {
    query: q,
    skip: views.length ? 'results' : undefined,
    head: `<link rel="alternate" type="application/rss+xml" title="RSS" href="${escapeHtml(searchHref('/opensearch', base, defaults))}">\n`,
  });
}
