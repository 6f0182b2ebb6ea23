/**
 * @module searcher/http/layout
 * The page shell every HTML page of the searcher shares: landmarks (banner,
 * search, main, contentinfo), a labelled search form that works without
 * JavaScript, visible keyboard focus, and a layout that reads on a phone
 * (a word longer than the screen, an identifier or a URL, wraps rather than
 * pushing the page sideways).
 * The one script is our own type-ahead (searcher/http/typeahead-box), loaded
 * from this server; `PAGE_CSP` forbids any other, inline script included.
 */
import { escapeHtml } from '../../shared/escape.js';
import { brand } from './brand.js';
import { COMBOBOX_ATTRS, TYPEAHEAD_CSS, typeAheadInput } from './typeahead-box.js';

/** Our own pages run no script but the type-ahead's, from this server, and load nothing from elsewhere. */
export const PAGE_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const CSS = `
:root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fff;--muted:#555;--link:#0b57d0;--visited:#6a3ea1;--mark:#fff3a3;--line:#ddd;--focus:#ff8c00}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--bg:#141414;--muted:#aaa;--link:#8ab4f8;--visited:#c58af9;--mark:#5c4d00;--line:#333}}
*{box-sizing:border-box}
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:48rem;margin:0 auto;padding:.75rem 1rem;overflow-wrap:anywhere}
header{border-bottom:1px solid var(--line)}
a{color:var(--link)}a:visited{color:var(--visited)}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.25rem .5rem}
.brand{font-weight:700;text-decoration:none;color:var(--fg);margin-right:1rem;display:inline-flex;align-items:center;gap:.4rem;overflow-wrap:anywhere}
.brand img{height:1.75rem;width:auto}
form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
form label{font-weight:600}
input[type=search]{flex:1 1 14rem;min-width:0;font:inherit;padding:.5rem .6rem;border:1px solid var(--muted);border-radius:.35rem;background:var(--bg);color:var(--fg)}
button{font:inherit;padding:.5rem 1rem;border-radius:.35rem;border:1px solid var(--muted);background:var(--link);color:#fff;cursor:pointer}
.stats,.notice,.meta,.links{color:var(--muted);font-size:.9rem}
.suggest{font-size:1.05rem}
ol.hits{list-style:none;padding:0;margin:0}
.hit{margin:0 0 1.4rem}
.hit h2{font-size:1.1rem;margin:0;overflow-wrap:anywhere}
.url{color:var(--muted);font-size:.85rem;overflow-wrap:anywhere}
.summary{margin:.25rem 0}
mark{background:var(--mark);color:inherit;font-weight:600}
.links a{margin-right:.75rem}
ul.grouped{list-style:none;margin:.6rem 0 0;padding:0 0 0 1.25rem;border-left:2px solid var(--line)}
ul.grouped .hit{margin:0 0 .9rem}
.section{font-size:.9rem;color:var(--fg)}
.site{color:var(--fg)}
.more{font-size:.9rem}
nav.facets{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:0 0 1rem;font-size:.9rem}
.facet h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:0}
.facet ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:0 .75rem}
.count{color:var(--muted)}
nav.pages{display:flex;gap:1rem;flex-wrap:wrap;margin:1rem 0}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{border:1px solid var(--line);padding:.25rem .4rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
`;

export function searchForm(query = ''): string {
  return `<search role="search"><form action="/search" method="get">
<label for="q">Search</label>
${typeAheadInput(`<input type="search" id="q" name="query" value="${escapeHtml(query)}" autocomplete="off" spellcheck="false" ${COMBOBOX_ATTRS}>`)}
<button type="submit">Search</button>
</form></search>`;
}

/** `skip` names what the skip link jumps to: "results" only on a page that has some. */
export function page(title: string, body: string, opts: { query?: string; head?: string; skip?: string } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="search" type="application/opensearchdescription+xml" href="/opensearch.xml" title="hazelnut">
${opts.head ?? ''}<style>${CSS}${TYPEAHEAD_CSS}</style>
<script src="/typeahead.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to ${escapeHtml(opts.skip ?? 'content')}</a>
<header role="banner">${brandLink()}
${searchForm(opts.query)}
</header>
<main id="main" tabindex="-1">
${body}
</main>
<footer role="contentinfo" class="stats"><a href="/stats">index statistics</a> · <a href="/report">crawl report</a> · <a href="/opensearch.xml">OpenSearch</a></footer>
</body>
</html>`;
}

/** The banner's name, after the logo when there is one (the logo's text is the name beside it: alt=""). */
function brandLink(): string {
  const b = brand();
  return `<a class="brand" href="/">${b.logo ? '<img src="/logo" alt="" height="28">' : ''}${escapeHtml(b.name)}</a>`;
}

/** A small error or notice page with a status-appropriate heading. */
export function messagePage(title: string, message: string, query?: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`, { query });
}
