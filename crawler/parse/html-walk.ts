/**
 * @module crawler/parse/html-walk
 * One streaming pass of htmlparser2 over a page (no DOM, so a megabyte
 * attribute costs no recursion and no tree; nesting is capped at 512 open
 * elements, as in a browser, see `html-nesting`), in named steps: where in
 * the page the walk is (regions below), the text of each element into two
 * sinks (all of it, and all but navigation), and the element handlers —
 * the head (`html-meta`), headings and sections (`html-headings`), links
 * (`html-outlinks`). Script, style, noscript, template, svg and math are not
 * text; block elements separate words. The text of navigation (`<nav>`,
 * `role="navigation"`, and `<header>`/`<footer>` outside `<main>`/`<article>`)
 * is kept out of the second sink: with `parser.html.skip.navigation.text`
 * the page text is that one, as the same menu on every page only dilutes
 * ranking and fills summaries; a page that is all navigation keeps it. Text
 * inside page furniture (menus and sidebars by class name, controls, stray
 * text in `<head>`) is marked as such for the summarizer to pass over.
 * Code (`<pre>`) keeps its line breaks in the text, each one character as
 * a space would be (html-text's LINE_BREAK), so a snippet can show its lines,
 * and its ranges are marked, so a source listing is told by its shape.
 */
import type { Handler } from 'htmlparser2';
import type { PageSection } from '../../segments/segment.js';
import { BLOCK, CHROME, CONTENT, CONTROLS, isFurniture, NAV, relsOf, SKIP } from './html-elements.js';
import { Headings } from './html-headings.js';
import { emptyHead, readMeta, type HtmlHead } from './html-meta.js';
import { Outlinks, type HtmlLink } from './html-outlinks.js';
import { squash, TextPiece, TextSink } from './html-text.js';
import type { CodeShape } from './page-shape.js';

/** What one pass over an HTML document finds; URLs still as written in the page. */
export interface HtmlExtract extends HtmlHead {
  title: string;
  text: string;
  links: HtmlLink[];
  sections: PageSection[];
  /** Ranges of `text` that are page furniture. */
  furniture: [number, number][];
  /** Ranges of `text` that are code (`<pre>`). */
  code: [number, number][];
  /** The code's line breaks, and its links to other pages (not to a place in the page itself). */
  codeShape: CodeShape;
}

/** Line breaks in a piece of text. */
function lineCount(t: string): number {
  let n = 0;
  for (let i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) n++;
  return n;
}

/** The handler htmlparser2 calls as it reads a page; `finish` once the parser has ended. */
export class HtmlWalk implements Partial<Handler> {
  private depth = 0;
  // Regions: the depth of the outermost open element of each kind, -1 outside one.
  /** Its content is not text. */
  private skipAt = -1;
  /** Its links are navigation. */
  private navAt = -1;
  /** Navigation whose text is not content. */
  private chromeAt = -1;
  /** main or article. */
  private contentAt = -1;
  private titleAt = -1;
  /** Its class or id names a menu, or it is a control or the head. */
  private furnitureAt = -1;
  /** The outermost <pre>: code, whose line breaks the text keeps. */
  private preAt = -1;
  /** Where the open <pre> starts in each text. */
  private preFrom: [number, number] = [0, 0];
  /** Code's lines and its links to other pages (html-text's code ranges hold the rest of its shape). */
  private readonly codeShape = { lines: 0, links: 0 };

  private readonly title: string[] = [];
  private readonly head = emptyHead();
  private readonly text = new TextSink();
  /** The text without navigation. */
  private readonly content = new TextSink();
  private readonly piece = new TextPiece();
  private readonly headings = new Headings(this.text, this.content);
  private readonly outlinks = new Outlinks();

  constructor(private readonly skipNavigationText: boolean) {}

  onopentag(name: string, a: Record<string, string>): void {
    this.depth++;
    if (BLOCK.has(name)) this.boundary(name === 'pre');
    if (this.preAt < 0 && name === 'pre') {
      this.preAt = this.depth;
      this.preFrom = [this.text.mark(), this.content.mark()];
    }
    if (this.skipAt >= 0) return;
    if (SKIP.has(name)) {
      this.skipAt = this.depth;
      return;
    }
    // Stray text in <head> is a template artefact, and a control's label ("hide", "Go") is no content.
    if (this.furnitureAt < 0 && (CONTROLS.has(name) || isFurniture(a))) this.furnitureAt = this.depth;
    this.headings.open(name, a, this.depth, this.navAt >= 0 || this.furnitureAt >= 0);
    this.enterRegions(name, a);
    this.element(name, a);
  }

  ontext(t: string): void {
    if (this.skipAt >= 0) return;
    if (this.titleAt >= 0) {
      this.title.push(t);
      return;
    }
    if (this.outlinks.isPermalinkMark(t)) return;
    const { piece } = this;
    const link = this.outlinks.inAnchor;
    const furniture = this.furnitureAt >= 0;
    piece.set(t, this.preAt >= 0);
    if (this.preAt >= 0) this.codeShape.lines += lineCount(t);
    this.text.push(piece, link, furniture);
    if (this.chromeAt < 0) this.content.push(piece, link, furniture);
    this.outlinks.addText(t);
    this.headings.addText(t, piece.visible);
  }

  onclosetag(name: string): void {
    const { depth } = this;
    this.headings.close(depth);
    if (BLOCK.has(name)) this.boundary(name === 'pre');
    this.leaveRegions(depth);
    this.outlinks.close(depth);
    this.depth--;
  }

  finish(): HtmlExtract {
    this.outlinks.finish();
    const title = squash(this.title.join(''));
    const { text, furniture, code, sections } = this.headings.finishText(title, this.skipNavigationText);
    return { title, text, ...this.head, links: this.outlinks.list, sections, furniture, code, codeShape: this.codeShape };
  }

  /** The handlers of the elements that carry more than text. */
  private element(name: string, a: Record<string, string>): void {
    const nav = this.navAt >= 0;
    switch (name) {
      case 'html':
        this.head.lang ??= a.lang ?? a['xml:lang'] ?? null;
        break;
      case 'title':
        if (this.titleAt < 0 && this.title.length === 0) this.titleAt = this.depth;
        break;
      case 'base':
        if (this.head.base === null && a.href) this.head.base = a.href.trim();
        break;
      case 'meta':
        readMeta(this.head, a);
        break;
      case 'a':
        if (this.preAt >= 0 && a.href && !a.href.trim().startsWith('#')) this.codeShape.links++;
        this.outlinks.openAnchor(a, this.depth, nav);
        break;
      case 'img':
        this.outlinks.image(a);
        break;
      case 'area':
        this.outlinks.area(a, nav);
        break;
      case 'frame':
      case 'iframe':
        this.outlinks.frame(a, nav);
        break;
      case 'link': {
        const rel = relsOf(a);
        if (rel.includes('canonical') && this.head.canonical === null && a.href) this.head.canonical = a.href.trim();
        this.outlinks.related(a, rel, nav);
        break;
      }
    }
  }

  /** A block element opens or closes: words on either side stay apart in both texts (on lines of their own around code, `lineBreak`). */
  private boundary(lineBreak: boolean): void {
    this.text.boundary(lineBreak);
    this.content.boundary(lineBreak);
  }

  private enterRegions(name: string, a: Record<string, string>): void {
    const navigation = name === 'nav' || a.role?.toLowerCase() === 'navigation';
    if (this.navAt < 0 && (NAV.has(name) || navigation)) this.navAt = this.depth;
    if (this.contentAt < 0 && CONTENT.has(name)) this.contentAt = this.depth;
    if (this.chromeAt < 0 && (navigation || (CHROME.has(name) && this.contentAt < 0))) this.chromeAt = this.depth;
  }

  private leaveRegions(depth: number): void {
    if (depth === this.furnitureAt) this.furnitureAt = -1;
    if (depth === this.preAt) {
      this.preAt = -1;
      this.text.addCode(this.preFrom[0], this.text.mark());
      this.content.addCode(this.preFrom[1], this.content.mark());
    }
    if (depth === this.skipAt) this.skipAt = -1;
    if (depth === this.navAt) this.navAt = -1;
    if (depth === this.chromeAt) this.chromeAt = -1;
    if (depth === this.contentAt) this.contentAt = -1;
    if (depth === this.titleAt) this.titleAt = -1;
  }
}
