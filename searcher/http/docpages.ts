/**
 * @module searcher/http/docpages
 * Pages about one document (Nutch's cached.jsp, text.jsp, anchors.jsp,
 * explain.jsp) and the front and statistics pages. The cached copy is the
 * page as fetched, served under `Content-Security-Policy: sandbox` by the
 * route, with a banner saying it is a cached copy and when it was fetched.
 */
import type { StoredDoc } from '../../shared/index/types.js';
import type { TermScore } from '../rank/bm25f.js';
import type { Explanation } from '../rank/score.js';
import type { MatchKind } from '../query/match.js';
import { PROXIMITY_DEPTH, SECTION_DEPTH } from '../search.js';
import { escapeHtml, safeHref } from '../../shared/escape.js';
import { page } from './layout.js';
import { formatDay } from './results.js';

const when = (ms: number | undefined) => (ms ? new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : 'an unknown time');

function banner(doc: StoredDoc, fetchTime: number | undefined): string {
  return (
    `<div role="note" style="all:initial;display:block;font:14px/1.4 system-ui,sans-serif;background:#fff8c5;color:#1b1b1b;border-bottom:1px solid #d4a72c;padding:8px 12px">` +
    `This is hazelnut's cached copy of <a style="color:#0b57d0" href="${escapeHtml(safeHref(doc.url))}">${escapeHtml(doc.url)}</a>, ` +
    `fetched ${escapeHtml(when(fetchTime))}. The page may have changed since; its scripts do not run here.</div>`
  );
}

/**
 * The stored HTML with the banner after `<body>` (or first, when there is
 * none) and a `<base>` so relative links and images resolve to the site.
 */
export function cachedHtml(html: string, doc: StoredDoc, fetchTime: number | undefined): string {
  const base = `<base href="${escapeHtml(safeHref(doc.url))}">`;
  let out = /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => m + base) : base + html;
  const b = banner(doc, fetchTime);
  out = /<body[^>]*>/i.test(out) ? out.replace(/<body[^>]*>/i, (m) => m + b) : b + out;
  return out;
}

/** A non-HTML cached document: its text if it is text, else a link to the raw bytes. */
export function cachedOther(doc: StoredDoc, contentType: string, fetchTime: number | undefined, text: string | undefined): string {
  const enc = encodeURIComponent(doc.url);
  const body =
    text !== undefined
      ? `<pre>${escapeHtml(text)}</pre>`
      : `<p>The cached content has type <code>${escapeHtml(contentType)}</code>. <a href="/cached/raw?url=${enc}">Download the stored bytes</a> or <a href="/text?url=${enc}">view the extracted text</a>.</p>`;
  return page(`Cached: ${doc.title || doc.url}`, `${banner(doc, fetchTime)}<h1>Cached copy</h1>${body}`);
}

export function noArchivePage(doc: StoredDoc): string {
  return page(
    'Cached copy not available',
    `<h1>Cached copy not available</h1><p>Display of this content was administratively prohibited by the webmaster (the page asks not to be archived).</p><p>You may visit the original page instead: <a href="${escapeHtml(safeHref(doc.url))}">${escapeHtml(doc.url)}</a></p>`,
  );
}

export function textPage(doc: StoredDoc, text: string | undefined): string {
  const body = text ? `<pre>${escapeHtml(text)}</pre>` : '<p>No text was extracted from this page.</p>';
  return page(`Text: ${doc.title || doc.url}`, `<h1>Text of <a href="${escapeHtml(safeHref(doc.url))}">${escapeHtml(doc.title || doc.url)}</a></h1>${body}`);
}

export function anchorsPage(doc: StoredDoc): string {
  const list = doc.anchors.length
    ? `<ul>${doc.anchors.map((a) => `<li>${escapeHtml(a)}</li>`).join('')}</ul>`
    : '<p>No anchor text from other pages points here.</p>';
  return page(`Anchors: ${doc.title || doc.url}`, `<h1>Anchors of <a href="${escapeHtml(safeHref(doc.url))}">${escapeHtml(doc.url)}</a></h1><p>Link texts of pages pointing here (a text repeated by many links is listed 1 + log2 n times):</p>${list}`);
}

/** Times as dates, days as yyyy-MM-dd: `tstamp 1796056018485` says nothing to a reader. */
function fieldValue(name: string, v: unknown): string {
  if (name === 'tstamp' && typeof v === 'number') return `${when(v)} (${v})`;
  if (name === 'date' && typeof v === 'string') return formatDay(v);
  return String(v);
}

function fieldsTable(doc: StoredDoc): string {
  const rows = Object.entries(doc)
    .filter(([k]) => k !== 'anchors')
    .map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(fieldValue(k, v))}</td></tr>`);
  rows.push(`<tr><th scope="row">anchors</th><td>${doc.anchors.length}</td></tr>`);
  return `<table><caption>Stored fields</caption>${rows.join('')}</table>`;
}

const n4 = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : String(x));

/** Why a page that does not hold every query word is or is not a hit, for /explain. */
function matchNotice(match: MatchKind, partialBelow: number): string | undefined {
  if (match === 'all') return undefined;
  if (match === 'some' && partialBelow > 0)
    return `This page holds only some of the query words: it is ranked among the pages holding all of them when fewer than ${partialBelow} of those do (searcher.partial.below), with the score below.`;
  return 'This page does not match the whole query (it would not be shown as a hit); the factors below are what it would score.';
}

/** A table of BM25F per query term, each with every factor: idf, each field's tf and length, the weighted tf. */
function termsTable(caption: string, terms: readonly TermScore[]): string {
  const rows = terms.map((t) => {
    const fields = Object.entries(t.fields)
      .map(([f, v]) => `${f}: tf ${v!.tf}, length ${v!.length} (avg ${v!.avgLength.toFixed(1)}) → ${n4(v!.normalised)}`)
      .join('<br>');
    return `<tr><th scope="row">${escapeHtml(t.term)}</th><td>${n4(t.idf)}</td><td>${fields || '—'}</td><td>${n4(t.tf)}</td><td>${n4(t.score)}</td></tr>`;
  });
  return `<table><caption>${caption}</caption><tr><th scope="col">term</th><th scope="col">idf</th><th scope="col">fields</th><th scope="col">weighted tf</th><th scope="col">score</th></tr>${rows.join('')}</table>`;
}

/** The best section's factors, when it scores above the page (searcher/rank/sections), and a long page's windows (searcher/rank/windows). */
function sectionHtml(e: Explanation): string {
  const s = e.section;
  const w = e.windows;
  const parts = [`<p>Section lift: ${n4(e.sectionLift)}, the best of the page's parts above the page as a whole.</p>`];
  if (!s && !w) parts.push('<p>The page has fewer than two sections, or none scores above the page as a whole, and it fits the body window.</p>');
  if (s)
    parts.push(`<p>Section ${s.index + 1} of the page (${s.length} terms${s.scoredLength > s.length ? `, scored as ${s.scoredLength.toFixed(1)}, half the average section` : ''}; the average section ${s.avgLength.toFixed(1)}) scores BM25F ${n4(s.bm25f)} with the page's title, anchors and URL and its own body.</p>
${termsTable("BM25F of the section per query term: the page's fields with the section as the content (its length against the average section), no headings", s.terms)}`);
  if (w) {
    const tf = Object.entries(w.best.tf).map(([t, n]) => `${escapeHtml(t)} ${n}`).join(', ');
    parts.push(
      `<p>The page is longer than the body window (${w.best.length} terms): its words count at the window's share in the BM25F above. ` +
        `Its opening window scores BM25F ${n4(w.opening)}; its best window (from body term ${w.best.start}: ${tf}) ${n4(w.best.bm25f)}, of which half the gain over the page counts.</p>`,
    );
  }
  return parts.join('\n');
}

export function explainPage(doc: StoredDoc, query: string, e: Explanation | undefined, match: MatchKind, partialBelow = 0): string {
  const p = e?.params;
  const parts = [`<h1>Explanation for <a href="${escapeHtml(safeHref(doc.url))}">${escapeHtml(doc.title || doc.url)}</a></h1>`, fieldsTable(doc)];
  if (!e || !p) {
    parts.push('<p>Enter a query to see how this page scores for it.</p>');
  } else {
    parts.push(`<h2>Score ${n4(e.score)} for <q>${escapeHtml(query)}</q></h2>`);
    const notice = matchNotice(match, partialBelow);
    if (notice) parts.push(`<p class="notice">${notice}</p>`);
    const text = `BM25F ${n4(e.bm25f)} + section lift ${n4(e.sectionLift)} + proximity ${n4(e.proximity)}${e.naming ? ` + naming ${n4(e.naming)}` : ''}`;
    parts.push(
      `<p>score = ${e.prose < 1 ? `${e.prose} × (${text})` : text} + link prior ${n4(e.linkPrior)}; ` +
        `a search adds the section lift to its first ${SECTION_DEPTH} pages by BM25F and link prior, and the proximity${e.naming ? ' and naming bonuses' : ' bonus'} to its first ${PROXIMITY_DEPTH}.</p>`,
    );
    const fw = Object.entries(p.bm25f.fields).map(([f, v]) => `${f} weight ${v.weight}, b ${v.b}`).join('; ');
    parts.push(`<p>BM25F: k1 = ${p.bm25f.k1}; ${escapeHtml(fw)}; ${e.docCount} documents.</p>`);
    for (const g of e.alternatives)
      parts.push(`<p>One word read in several ways (with its synonyms or related terms); BM25F counts only the best of them: ${g.map((a) => escapeHtml(a.join(' '))).join(' · ')}</p>`);
    if (e.related?.length)
      parts.push(`<p>Related terms the index learned from the crawl, added as optional terms: ${e.related.map((r) => `${escapeHtml(r.term)} for ${escapeHtml(r.of)} (weight ${r.weight})`).join(', ')}.</p>`);
    parts.push(termsTable('BM25F per query term: idf × tf·(k1+1)/(tf+k1), tf = Σ weight·tf/(1−b+b·length/avg)', e.terms));
    parts.push(sectionHtml(e));
    const pairs = e.pairs.map((x) => `<tr><td>${escapeHtml(x.a)} · ${escapeHtml(x.b)}</td><td>${Number.isFinite(x.distance) ? x.distance : 'none'}</td><td>${n4(x.score)}</td></tr>`);
    parts.push(
      `<table><caption>Proximity: weight ${p.proximity.weight} × min idf × (window ${p.proximity.window} − distance + 1)/window</caption><tr><th scope="col">pair</th><th scope="col">distance</th><th scope="col">bonus</th></tr>${pairs.join('') || '<tr><td colspan="3">one query word: no pairs</td></tr>'}</table>`,
    );
    if (e.prose < 1)
      parts.push(`<p>A navigation page: most of its text is links and menus, whose words name other pages; its text counts at ${e.prose}, the share of it that is prose.</p>`);
    parts.push(`<p>Link prior: weight ${p.linkWeight} × boost/(boost+1), boost ${n4(e.linkBoost)} → ${n4(e.linkPrior)}</p>`);
  }
  return page(`Explain: ${doc.title || doc.url}`, parts.join('\n'), { query });
}

export function homePage(stats: { documents: number }): string {
  return page(
    'hazelnut search',
    `<h1>Search ${stats.documents} pages</h1>
<p>Pages holding every word are found; when only a few do, pages holding some of the words are shown among them, and the results say so. <code>"a phrase"</code> matches words together; <code>-word</code> leaves pages out; <code>a OR b</code> takes either.
Restrict with <code>site:host</code>, <code>title:</code>, <code>url:</code>, <code>anchor:</code>, <code>type:pdf</code>, <code>lang:en</code>, <code>date:20240101-20241231</code>.</p>`,
  );
}

export interface IndexStats {
  documents: number;
  segments: number;
  indexSegments: string[];
  indexCreatedAt: number;
  indexAgeSeconds: number;
  loadedAt: number;
  terms: number;
  version: string;
}

export function statsPage(s: IndexStats): string {
  const rows: [string, string][] = [
    ['documents', String(s.documents)],
    ['segments on disk', String(s.segments)],
    ['segments in the index', String(s.indexSegments.length)],
    ['distinct terms', String(s.terms)],
    ['index built', when(s.indexCreatedAt)],
    ['index age', `${Math.round(s.indexAgeSeconds)} s`],
    ['index generation', s.version],
    ['serving since', when(s.loadedAt)],
  ];
  return page('Index statistics', `<h1>Index statistics</h1><table>${rows.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`);
}
