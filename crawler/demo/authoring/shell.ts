/**
 * @module crawler/demo/authoring/shell
 * The page shell every demo page shares: the intranet bar linking all four
 * hosts, the host's own section navigation, the content and a footer. Pages
 * are plain HTML with a small inline style sheet, so a crawl fetches nothing
 * but pages.
 */
import { authoredOrigin, DEMO_HOSTS, type DemoHost } from '../intranet.js';
import { escapeHtml } from '../../../shared/escape.js';
import { markup } from './markup.js';

/** One page as its author wrote it. */
export interface DemoPage {
  path: string;
  title: string;
  /** Key of the host section the page belongs to (its index page lists it). */
  section: string;
  /** Body in the demo markup (see markup.ts). */
  body: string;
  /** One-sentence summary for index pages; defaults to the body's first sentence. */
  summary?: string;
  lang?: string;
  /** Shown in the footer, e.g. "2024-03-18". */
  reviewed?: string;
  /** Further paths that serve the very same bytes (an old address kept alive). */
  alsoAt?: string[];
}

export interface DemoSection {
  key: string;
  title: string;
  /** Paragraph at the top of the section's index page. */
  intro: string;
}

/** What one content module contributes for its host. */
export interface HostContent {
  host: string;
  /** Markup for the home page, above the section list. */
  home: string;
  sections: DemoSection[];
  pages: DemoPage[];
  owner: string;
  /** Files served as they are (plain text), by path. */
  files?: Record<string, string>;
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#222}' +
  'header{background:#1d3557;padding:.4em 1em}header a{color:#f1faee;margin-right:1.2em;text-decoration:none}' +
  'nav{background:#e9eef4;padding:.4em 1em}nav a{margin-right:1em}' +
  'main{max-width:46em;margin:1em auto;padding:0 1em}table{border-collapse:collapse}' +
  'td,th{border:1px solid #ccd;padding:.2em .5em}pre{background:#f4f4f4;padding:.5em;overflow:auto}' +
  'footer{border-top:1px solid #ccd;margin-top:2em;padding:.6em 1em;font-size:.85em;color:#555}';

export function hostByKey(key: string): DemoHost {
  const h = DEMO_HOSTS.find((x) => x.key === key);
  if (!h) throw new Error(`unknown demo host ${key}`);
  return h;
}

/** First sentence of a body, without markup, for listings. */
export function firstSentence(body: string): string {
  const para = body.split(/\n\s*\n/).find((b) => !/^\s*(#|-|\||\d+\.|```)/.test(b)) ?? '';
  const plain = para.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1').replace(/[`*]/g, '').replace(/\s+/g, ' ').trim();
  const m = /^.*?[.!?。다](?=\s|$)/.exec(plain);
  return m ? m[0] : plain;
}

export function renderPage(content: HostContent, page: DemoPage): string {
  const host = hostByKey(content.host);
  const bar = DEMO_HOSTS.map((h) => `<a href="${authoredOrigin(h)}/">${escapeHtml(h.title)}</a>`).join('\n');
  const nav = [
    `<a href="/">Home</a>`,
    ...content.sections.map((s) => `<a href="/${s.key}/index.html">${escapeHtml(s.title)}</a>`),
    `<a href="/sitemap.html">Site map</a>`,
  ].join('\n');
  const reviewed = page.reviewed ? ` · Last reviewed ${page.reviewed}` : '';
  return `<!DOCTYPE html>
<html lang="${page.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)} — ${escapeHtml(host.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
${bar}
</header>
<nav>
${nav}
</nav>
<main>
<h1>${escapeHtml(page.title)}</h1>
${markup(page.body)}
</main>
<footer>
${escapeHtml(host.title)} · Maintained by ${escapeHtml(content.owner)}${reviewed} ·
<a href="${authoredOrigin(hostByKey('handbook'))}/welcome/getting-help.html">Getting help</a> ·
<a href="/sitemap.html">Site map</a>
</footer>
</body>
</html>
`;
}
