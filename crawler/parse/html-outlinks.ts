/**
 * @module crawler/parse/html-outlinks
 * The links of a page as the HTML walk meets them (Nutch's
 * DOMContentUtils.getOutlinks): `<a href>` with its text and the alt text of
 * its images as the anchor, image-map areas, frames, and `<link>` of the
 * relations a crawl follows. Links with `rel="nofollow"` are dropped. A link
 * inside navigation is marked `nav`: it is still crawled, but the link score
 * and anchor text leave it out (site-wide menus say nothing about the page
 * they point to).
 */
import { LINK_RELS, PERMALINK_MARK, relsOf } from './html-elements.js';
import { squash } from './html-text.js';

export interface HtmlLink {
  href: string;
  anchor: string;
  nav: boolean;
}

/** An `<a href>` not closed yet: its text so far, and the depth it closes at. */
interface OpenAnchor {
  href: string;
  parts: string[];
  nav: boolean;
  at: number;
}

export class Outlinks {
  /** In the order of the page, hrefs as written. */
  readonly list: HtmlLink[] = [];
  private anchor: OpenAnchor | null = null;

  /** `<a>` opens at `depth`: an anchor, which ends one left open. */
  openAnchor(a: Record<string, string>, depth: number, nav: boolean): void {
    this.endAnchor();
    if (a.href !== undefined && !relsOf(a).includes('nofollow')) this.anchor = { href: a.href.trim(), parts: [], nav, at: depth };
  }

  /** `<img>`: inside an anchor, its alt text is anchor text. */
  image(a: Record<string, string>): void {
    if (this.anchor && a.alt) this.anchor.parts.push(' ', a.alt, ' ');
  }

  /** `<area>` of an image map: its alt text is the anchor. */
  area(a: Record<string, string>, nav: boolean): void {
    if (!relsOf(a).includes('nofollow')) this.add(a.href, a.alt ?? '', nav);
  }

  /** `<frame>` and `<iframe>`: the page shows another. */
  frame(a: Record<string, string>, nav: boolean): void {
    this.add(a.src, '', nav);
  }

  /** `<link>` with its `rel` words: followed for the relations in LINK_RELS, never for a stylesheet or icon. */
  related(a: Record<string, string>, rel: readonly string[], nav: boolean): void {
    if (rel.some((r) => LINK_RELS.has(r)) && !rel.includes('stylesheet') && !rel.includes('icon')) this.add(a.href, '', nav);
  }

  get inAnchor(): boolean {
    return this.anchor !== null;
  }

  /** A permalink mark (`¶` in a link to `#id`) is not text: it leaked into snippets and ran into the words around it. */
  isPermalinkMark(t: string): boolean {
    return this.anchor !== null && this.anchor.href.startsWith('#') && PERMALINK_MARK.test(t);
  }

  addText(t: string): void {
    this.anchor?.parts.push(t);
  }

  /** An element closes at `depth`: the anchor, if it opened there. */
  close(depth: number): void {
    if (this.anchor && depth === this.anchor.at) this.endAnchor();
  }

  /** The page has ended: an anchor left open ends with it. */
  finish(): void {
    this.endAnchor();
  }

  private endAnchor(): void {
    if (!this.anchor) return;
    this.list.push({ href: this.anchor.href, anchor: squash(this.anchor.parts.join('')), nav: this.anchor.nav });
    this.anchor = null;
  }

  private add(href: string | undefined, text: string, nav: boolean): void {
    if (href !== undefined && href.trim() !== '') this.list.push({ href: href.trim(), anchor: squash(text), nav });
  }
}
