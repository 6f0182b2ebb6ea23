/**
 * @module crawler/parse/html
 * The parse-html plugin: one streaming pass of htmlparser2 (no DOM, so a
 * 10,000-deep nesting or a megabyte attribute costs no recursion and no tree)
 * that collects the title, the visible text, meta robots, meta refresh,
 * `<base href>`, the declared language and the outlinks with their anchor
 * text. Script, style, noscript, template, svg and math are not text; block
 * elements separate words. Links inside `<nav>`, `<header>`, `<footer>` or a
 * `role="navigation"` element are marked `nav`: they are still crawled, but
 * the link score and anchor text leave them out (site-wide menus say nothing
 * about the page they point to). Links with `rel="nofollow"` are dropped,
 * as a page-wide meta `nofollow` drops all of them. The text of navigation
 * (`<nav>`, `role="navigation"`, and `<header>`/`<footer>` outside
 * `<main>`/`<article>`) is left out of the page text with
 * `parser.html.skip.navigation.text`: the same menu on every page only
 * dilutes ranking and fills summaries; a page that is all navigation keeps it.
 * htmlparser2 is used only here.
 */
import { Parser as HtmlParser } from 'htmlparser2';
import type { Conf } from '../../shared/conf.js';
import type { ParseInput, ParseOutput, Parser, PluginDescriptor } from '../../shared/plugin/types.js';
import { decodePage } from '../fetch/charset.js';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math']);
const NAV = new Set(['nav', 'header', 'footer']);
/** Page chrome, when outside the main content. */
const CHROME = new Set(['header', 'footer']);
const CONTENT = new Set(['main', 'article']);
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'dd', 'details', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header',
  'hr', 'html', 'iframe', 'img', 'input', 'label', 'legend', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre',
  'section', 'select', 'summary', 'table', 'td', 'textarea', 'th', 'tr', 'ul', 'button', 'frame', 'title',
]);
const LINK_RELS = new Set(['canonical', 'alternate', 'next', 'prev']);

export interface HtmlLink {
  href: string;
  anchor: string;
  nav: boolean;
}

/** What one pass over an HTML document finds; URLs still as written in the page. */
export interface HtmlExtract {
  title: string;
  text: string;
  lang: string | null;
  contentLanguage: string | null;
  base: string | null;
  noindex: boolean;
  nofollow: boolean;
  noarchive: boolean;
  refresh: { href: string; delay: number } | null;
  canonical: string | null;
  description: string | null;
  keywords: string | null;
  links: HtmlLink[];
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** `5; url=/next` → {delay 5, href '/next'}; a refresh without a URL reloads itself and is no redirect. */
export function parseRefresh(content: string): { href: string; delay: number } | null {
  const m = /^\s*(\d+(?:\.\d*)?)?\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/i.exec(content);
  if (!m) return null;
  const href = m[2]!.trim().replace(/^(["'])(.*)\1$/, '$2').replace(/^["']/, '').trim();
  if (!href) return null;
  return { href, delay: m[1] ? Math.floor(Number(m[1])) : 0 };
}

/** Runs the extractor over a decoded document; `skipNavigationText` leaves navigation out of `text`. */
export function extractHtml(html: string, skipNavigationText = false): HtmlExtract {
  const out: HtmlExtract = {
    title: '', text: '', lang: null, contentLanguage: null, base: null, noindex: false, nofollow: false,
    noarchive: false, refresh: null, canonical: null, description: null, keywords: null, links: [],
  };
  const text: string[] = [];
  /** The text without navigation. */
  const content: string[] = [];
  let depth = 0;
  let skipAt = -1; // depth of the outermost element whose content is not text
  let navAt = -1;
  let chromeAt = -1; // outermost navigation whose text is not content
  let contentAt = -1; // outermost main/article
  let titleAt = -1;
  const title: string[] = [];
  let anchor: { href: string; parts: string[]; nav: boolean; at: number } | null = null;

  const endAnchor = () => {
    if (!anchor) return;
    out.links.push({ href: anchor.href, anchor: squash(anchor.parts.join('')), nav: anchor.nav });
    anchor = null;
  };
  const link = (href: string | undefined, text: string) => {
    if (href !== undefined && href.trim() !== '') out.links.push({ href: href.trim(), anchor: squash(text), nav: navAt >= 0 });
  };

  const parser = new HtmlParser(
    {
      onopentag(name, a) {
        depth++;
        if (BLOCK.has(name)) {
          text.push(' ');
          content.push(' ');
        }
        if (skipAt >= 0) return;
        if (SKIP.has(name)) {
          skipAt = depth;
          return;
        }
        const navigation = name === 'nav' || a.role?.toLowerCase() === 'navigation';
        if (navAt < 0 && (NAV.has(name) || navigation)) navAt = depth;
        if (contentAt < 0 && CONTENT.has(name)) contentAt = depth;
        if (chromeAt < 0 && (navigation || (CHROME.has(name) && contentAt < 0))) chromeAt = depth;
        const rel = a.rel?.toLowerCase().split(/\s+/) ?? [];
        switch (name) {
          case 'html':
            out.lang ??= a.lang ?? a['xml:lang'] ?? null;
            break;
          case 'title':
            if (titleAt < 0 && title.length === 0) titleAt = depth;
            break;
          case 'base':
            if (out.base === null && a.href) out.base = a.href.trim();
            break;
          case 'meta':
            meta(out, a);
            break;
          case 'a':
            endAnchor();
            if (a.href !== undefined && !rel.includes('nofollow')) anchor = { href: a.href.trim(), parts: [], nav: navAt >= 0, at: depth };
            break;
          case 'img':
            if (anchor && a.alt) anchor.parts.push(' ', a.alt, ' ');
            break;
          case 'area':
            if (!rel.includes('nofollow')) link(a.href, a.alt ?? '');
            break;
          case 'frame':
          case 'iframe':
            link(a.src, '');
            break;
          case 'link':
            if (rel.includes('canonical') && out.canonical === null && a.href) out.canonical = a.href.trim();
            if (rel.some((r) => LINK_RELS.has(r)) && !rel.includes('stylesheet') && !rel.includes('icon')) link(a.href, '');
            break;
        }
      },
      ontext(t) {
        if (skipAt >= 0) return;
        if (titleAt >= 0) {
          title.push(t);
          return;
        }
        text.push(t);
        if (chromeAt < 0) content.push(t);
        anchor?.parts.push(t);
      },
      onclosetag(name) {
        if (BLOCK.has(name)) {
          text.push(' ');
          content.push(' ');
        }
        if (depth === skipAt) skipAt = -1;
        if (depth === navAt) navAt = -1;
        if (depth === chromeAt) chromeAt = -1;
        if (depth === contentAt) contentAt = -1;
        if (depth === titleAt) titleAt = -1;
        if (anchor && depth === anchor.at) endAnchor();
        depth--;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  endAnchor();
  out.title = squash(title.join(''));
  const main = skipNavigationText ? squash(content.join('')) : '';
  out.text = main || squash(text.join(''));
  return out;
}

function meta(out: HtmlExtract, a: Record<string, string>): void {
  const content = a.content ?? '';
  const name = a.name?.toLowerCase();
  const equiv = a['http-equiv']?.toLowerCase();
  if (name === 'robots') {
    for (const d of content.toLowerCase().split(/[\s,]+/)) {
      if (d === 'noindex' || d === 'none') out.noindex = true;
      if (d === 'nofollow' || d === 'none') out.nofollow = true;
      if (d === 'noarchive' || d === 'nocache' || d === 'no-cache') out.noarchive = true;
    }
  } else if (name === 'description') out.description ??= squash(content);
  else if (name === 'keywords') out.keywords ??= squash(content);
  else if (equiv === 'refresh') out.refresh ??= parseRefresh(content);
  else if (equiv === 'content-language') out.contentLanguage ??= content.trim() || null;
}

/** An absolute http(s) URL, or null for anything a crawler cannot follow. */
export function resolveHttp(href: string, base: string): string | null {
  try {
    const u = new URL(href, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

export class HtmlPageParser implements Parser {
  readonly contentTypes = ['text/html', 'application/xhtml+xml'];
  constructor(
    private readonly defaultCharset: string,
    private readonly skipNavigationText: boolean,
  ) {}

  parse(input: ParseInput): ParseOutput {
    const x = extractHtml(decodePage(input, this.defaultCharset), this.skipNavigationText);
    const base = (x.base && resolveHttp(x.base, input.url)) || input.url;
    const outlinks: ParseOutput['outlinks'] = [];
    if (!x.nofollow)
      for (const l of x.links) {
        const url = resolveHttp(l.href, base);
        if (url) outlinks.push(l.nav ? { url, anchor: l.anchor, nav: true } : { url, anchor: l.anchor });
      }
    const meta: ParseOutput['meta'] = {};
    if (x.noindex) meta.noindex = true;
    if (x.nofollow) meta.nofollow = true;
    if (x.noarchive) meta.noarchive = true;
    const canonical = x.canonical && resolveHttp(x.canonical, base);
    if (canonical) meta.canonical = canonical;
    const refresh = x.refresh && resolveHttp(x.refresh.href, base);
    if (refresh && x.refresh) meta.refresh = { url: refresh, delay: x.refresh.delay };
    if (x.description) meta.description = x.description;
    if (x.keywords) meta.keywords = x.keywords;
    if (x.contentLanguage) meta.contentLanguage = x.contentLanguage;
    return { status: 'success', title: x.title, text: x.text, lang: x.lang, outlinks, meta };
  }
}

export const parseHtml: PluginDescriptor<'parser'> = {
  id: 'parse-html',
  point: 'parser',
  description: 'HTML and XHTML: title, visible text, meta robots and refresh, outlinks with anchors',
  create: (conf: Conf) =>
    new HtmlPageParser(conf.get('parser.character.encoding.default'), conf.getBoolean('parser.html.skip.navigation.text')),
};
