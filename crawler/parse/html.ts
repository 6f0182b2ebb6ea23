/**
 * @module crawler/parse/html
 * The parse-html plugin: one streaming pass of htmlparser2 (no DOM, so a
 * megabyte attribute costs no recursion and no tree; nesting is capped at 512
 * open elements, as in a browser, see `html-nesting`)
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
 * Headings are kept as sections (text offset and the id a link can point
 * at), and text that is page furniture (menus and sidebars by class name,
 * runs of links, a heading repeating the title) as ranges the summarizer
 * passes over; a heading inside furniture ("Navigation", "Quick search" in
 * a sidebar) is no section. A permalink mark (`¶` in a link to `#id`) is not
 * text: it leaked into snippets and ran into the words around it. Code
 * (`<pre>`) keeps its line breaks in the text, each one character as a space
 * would be (html-text's LINE_BREAK), so a snippet can show its lines.
 * htmlparser2 is used only here and in `html-nesting`.
 */
import type { Conf } from '../../shared/conf.js';
import type { ParseInput, ParseOutput, Parser, PluginDescriptor } from '../../shared/plugin/extension-points.js';
import type { PageSection } from '../../segments/segment.js';
import { linkResolver, resolveHttp } from './link-resolver.js';
import { decodePage } from '../encoding.js';
import { TextPiece, TextSink } from './html-text.js';
import { NestingCappedParser } from './html-nesting.js';
import { breathe, LINKS_PER_BREATH, SLICE_CHARS } from './breathe.js';
import { BLOCK, CHROME, CONTENT, CONTROLS, DEFINITION_LEVEL, ENDS_HEADING, HEADING, isFurniture, LINK_RELS, NAV, NO_RELS, PERMALINK_MARK, SKIP } from './html-elements.js';

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
  sections: PageSection[];
  /** Ranges of `text` that are page furniture. */
  furniture: [number, number][];
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
  const x = extractor(skipNavigationText);
  x.parser.end(html);
  return x.finish();
}

/**
 * `extractHtml` a slice at a time, letting the event loop run in between: a
 * page parsed inline must not hold the fetcher's other hosts for as long as
 * its parse takes. htmlparser2 streams, so the result is the same.
 */
export async function extractHtmlYielding(html: string, skipNavigationText = false): Promise<HtmlExtract> {
  const x = extractor(skipNavigationText);
  for (let at = 0; at < html.length; at += SLICE_CHARS) {
    x.parser.write(html.slice(at, at + SLICE_CHARS));
    await breathe();
  }
  x.parser.end();
  return x.finish();
}

/** The parser with the extraction's handler, and `finish` to call once it has ended. */
function extractor(skipNavigationText: boolean): { parser: NestingCappedParser; finish(): HtmlExtract } {
  const out: HtmlExtract = {
    title: '', text: '', lang: null, contentLanguage: null, base: null, noindex: false, nofollow: false,
    noarchive: false, refresh: null, canonical: null, description: null, keywords: null, links: [], sections: [], furniture: [],
  };
  const text = new TextSink();
  /** The text without navigation. */
  const content = new TextSink();
  const piece = new TextPiece();
  let depth = 0;
  let skipAt = -1; // depth of the outermost element whose content is not text
  let navAt = -1;
  let chromeAt = -1; // outermost navigation whose text is not content
  let contentAt = -1; // outermost main/article
  let titleAt = -1;
  let furnitureAt = -1; // outermost element whose class or id names a menu
  let preAt = -1; // outermost <pre>: code, whose line breaks the text keeps
  const title: string[] = [];
  /** Headings with their start in both texts; `end` once closed. */
  const headings: { level: number; id?: string; parts: string[]; at: number; text: [number, number]; content: [number, number] }[] = [];
  let heading: (typeof headings)[number] | null = null;
  /** Enclosing sections with an id, not yet given to a heading. */
  const sectionIds: { at: number; id: string }[] = [];
  /** An empty `<a id>` or `<a name>` just before a heading names it. */
  let pendingAnchor: string | null = null;
  let anchor: { href: string; parts: string[]; nav: boolean; at: number } | null = null;

  const endHeading = () => {
    if (!heading) return;
    heading.text[1] = text.mark();
    heading.content[1] = content.mark();
    headings.push(heading);
    heading = null;
  };
  const endAnchor = () => {
    if (!anchor) return;
    out.links.push({ href: anchor.href, anchor: squash(anchor.parts.join('')), nav: anchor.nav });
    anchor = null;
  };
  const link = (href: string | undefined, text: string) => {
    if (href !== undefined && href.trim() !== '') out.links.push({ href: href.trim(), anchor: squash(text), nav: navAt >= 0 });
  };

  const parser = new NestingCappedParser(
    {
      onopentag(name, a) {
        depth++;
        if (BLOCK.has(name)) {
          text.boundary(name === 'pre');
          content.boundary(name === 'pre');
        }
        if (preAt < 0 && name === 'pre') preAt = depth;
        if (skipAt >= 0) return;
        if (SKIP.has(name)) {
          skipAt = depth;
          return;
        }
        // Stray text in <head> is a template artefact, and a control's label ("hide", "Go") is no content.
        if (furnitureAt < 0 && (CONTROLS.has(name) || isFurniture(a))) furnitureAt = depth;
        const id = a.id?.trim() || (name === 'a' ? a.name?.trim() : undefined) || undefined;
        const level = HEADING.exec(name);
        // A heading left open (`<h2>Documentation</h1>`) ends where a block or the next heading starts, as in a browser.
        if (heading && (level || ENDS_HEADING.has(name))) endHeading();
        if ((level || name === 'dt') && !heading && navAt < 0 && furnitureAt < 0) {
          const section = level ? sectionIds.pop() : undefined;
          const at = level ? Number(level[1]) : DEFINITION_LEVEL;
          heading = { level: at, id: id ?? pendingAnchor ?? section?.id, parts: [], at: depth, text: [text.mark(), 0], content: [content.mark(), 0] };
        } else if (heading && id) heading.id ??= id;
        else if (id && (name === 'section' || /\bsect(?:ion|\d)\b/.test(a.class ?? ''))) sectionIds.push({ at: depth, id });
        pendingAnchor = name === 'a' && id && a.href === undefined ? id : level ? null : pendingAnchor;
        const navigation = name === 'nav' || a.role?.toLowerCase() === 'navigation';
        if (navAt < 0 && (NAV.has(name) || navigation)) navAt = depth;
        if (contentAt < 0 && CONTENT.has(name)) contentAt = depth;
        if (chromeAt < 0 && (navigation || (CHROME.has(name) && contentAt < 0))) chromeAt = depth;
        const rel = a.rel === undefined ? NO_RELS : a.rel.toLowerCase().split(/\s+/);
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
        if (anchor?.href.startsWith('#') && PERMALINK_MARK.test(t)) return;
        const furniture = furnitureAt >= 0;
        piece.set(t, preAt >= 0);
        text.push(piece, anchor !== null, furniture);
        if (chromeAt < 0) content.push(piece, anchor !== null, furniture);
        anchor?.parts.push(t);
        heading?.parts.push(t);
        if (piece.visible) pendingAnchor = null;
      },
      onclosetag(name) {
        if (heading && depth === heading.at) endHeading();
        if (BLOCK.has(name)) {
          text.boundary(name === 'pre');
          content.boundary(name === 'pre');
        }
        if (depth === furnitureAt) furnitureAt = -1;
        if (depth === preAt) preAt = -1;
        while (sectionIds.length && sectionIds[sectionIds.length - 1]!.at >= depth) sectionIds.pop();
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
  const finish = () => {
    endAnchor();
    endHeading();
    out.title = squash(title.join(''));
    finishText(out, headings, skipNavigationText ? content : null, text);
    return out;
  };
  return { parser, finish };
}

/** Trailing permalink marks ("File system#", "Syntax¶") are not part of a heading. */
const headingText = (parts: string[]) => squash(parts.join('')).replace(/\s*[#¶§]+$/, '');

/** A heading that says what the title says is furniture: the summary shows the title already. */
function repeatsTitle(heading: string, title: string): boolean {
  const h = heading.toLowerCase();
  const t = title.toLowerCase();
  return h !== '' && t !== '' && (h === t || t.startsWith(h) || h.startsWith(t));
}

/** The page text (without navigation when wanted and there is content left), its sections and furniture. */
function finishText(
  out: HtmlExtract,
  headings: { level: number; id?: string; parts: string[]; text: [number, number]; content: [number, number] }[],
  content: TextSink | null,
  text: TextSink,
): void {
  const build = (sink: TextSink, span: (h: (typeof headings)[number]) => [number, number]) => {
    for (const h of headings) if (repeatsTitle(headingText(h.parts), out.title)) sink.addFurniture(...span(h));
    return sink.build(headings.map((h) => span(h)[0]));
  };
  let built = content && build(content, (h) => h.content);
  if (!built?.text) built = build(text, (h) => h.text);
  out.text = built.text;
  out.furniture = built.furniture;
  out.sections = headings.flatMap((h, i) => {
    const heading = headingText(h.parts);
    if (!heading || (h.level === DEFINITION_LEVEL && !h.id)) return [];
    const s: PageSection = { heading, level: h.level, offset: built.offsets[i]! };
    if (h.id) s.id = h.id;
    return [s];
  });
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

export class HtmlPageParser implements Parser {
  readonly contentTypes = ['text/html', 'application/xhtml+xml'];
  constructor(
    private readonly defaultCharset: string,
    private readonly skipNavigationText: boolean,
  ) {}

  async parse(input: ParseInput): Promise<ParseOutput> {
    const x = await extractHtmlYielding(decodePage(input, this.defaultCharset), this.skipNavigationText);
    const base = (x.base && resolveHttp(x.base, input.url)) || input.url;
    const outlinks: ParseOutput['outlinks'] = [];
    const resolve = linkResolver(base);
    if (!x.nofollow)
      for (let i = 0; i < x.links.length; i++) {
        const l = x.links[i]!;
        const url = resolve(l.href);
        if (url) outlinks.push(l.nav ? { url, anchor: l.anchor, nav: true } : { url, anchor: l.anchor });
        if (i % LINKS_PER_BREATH === LINKS_PER_BREATH - 1) await breathe();
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
    if (x.sections.length) meta.sections = x.sections;
    if (x.furniture.length) meta.furniture = x.furniture;
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
