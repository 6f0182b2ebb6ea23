/**
 * @module searcher/http/results
 * The search results page (Nutch's search.jsp): per hit the title (or URL),
 * URL, summary, type, size, date, and the cached / anchors / explain /
 * more-from-site links; paging; "show all hits" when grouping hid some; an
 * honest total. Every value from a crawled page is escaped here.
 */
import type { SearchResult, Hit } from '../search.js';
import { summaryToHtml, type Summary } from '../summary.js';
import { escapeHtml, safeHref } from './escape.js';
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

function hitHtml(h: Hit, summary: Summary, r: SearchResult, defaults: { hitsPerPage: number; hitsPerSite: number }): string {
  const d = h.doc;
  const enc = encodeURIComponent(d.url);
  const isText = /^text\//.test(d.type) || d.type.includes('html') || d.type.includes('xml');
  const meta = [d.type, formatSize(d.contentLength), formatDay(d.date)].filter(Boolean).map(escapeHtml).join(' · ');
  const links = [
    d.noarchive ? '' : `<a href="/cached?url=${enc}">cached</a>`,
    isText ? '' : `<a href="/text?url=${enc}">view as text</a>`,
    `<a href="/anchors?url=${enc}">anchors</a>`,
    `<a href="/explain?url=${enc}&amp;query=${encodeURIComponent(r.raw)}">explain</a>`,
    r.hitsPerSite > 0
      ? `<a href="${escapeHtml(searchHref('/search', { query: `site:${h.site} ${r.raw}`, hitsPerSite: 0, hitsPerPage: r.hitsPerPage }, defaults))}">more from ${escapeHtml(h.site)}</a>`
      : '',
  ].filter(Boolean);
  return `<li class="hit">
<h2><a href="${escapeHtml(safeHref(d.url))}">${escapeHtml(d.title.trim() || d.url)}</a></h2>
<div class="url">${escapeHtml(d.url)}</div>
${summary.length ? `<p class="summary">${summaryToHtml(summary)}</p>` : ''}
<div class="meta">${meta}</div>
<div class="links">${links.join(' ')}</div>
</li>`;
}

export function resultsPage(r: SearchResult, summaries: Summary[], defaults: { hitsPerPage: number; hitsPerSite: number }): string {
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
  if (r.query.stopped.length)
    parts.push(`<p class="notice">Common words left out: ${r.query.stopped.map((w) => `<q>${escapeHtml(w)}</q>`).join(', ')}. Put a + before a word to keep it.</p>`);
  if (r.partial > 0)
    parts.push(`<p class="notice">${r.total - r.partial === 0 ? 'No page holds every word' : `Only ${r.total - r.partial} ${r.total - r.partial === 1 ? 'page holds' : 'pages hold'} every word`}; pages holding some of them are included.</p>`);
  if (r.query.truncated) parts.push(`<p class="notice">The query was too long; only its beginning was used.</p>`);
  if (r.hits.length) {
    parts.push(`<ol class="hits" start="${r.start + 1}" aria-labelledby="results-heading">`);
    r.hits.forEach((h, i) => parts.push(hitHtml(h, summaries[i] ?? [], r, defaults)));
    parts.push('</ol>');
  }
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
    head: `<link rel="alternate" type="application/rss+xml" title="RSS" href="${escapeHtml(searchHref('/opensearch', base, defaults))}">\n`,
  });
}
