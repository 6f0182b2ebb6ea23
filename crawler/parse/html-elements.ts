/**
 * @module crawler/parse/html-elements
 * What the HTML parser makes of each element: skipped, navigation, chrome or
 * content, a block that breaks text, a heading or definition that starts a
 * section, a link relation it keeps, and the class and id words that mark a
 * menu or banner in the documentation generators it meets.
 */

export const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math']);
export const NAV = new Set(['nav', 'header', 'footer']);
/** Page chrome, when outside the main content. */
export const CHROME = new Set(['header', 'footer']);
export const CONTENT = new Set(['main', 'article']);
export const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'dd', 'details', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header',
  'hr', 'html', 'iframe', 'img', 'input', 'label', 'legend', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre',
  'section', 'select', 'summary', 'table', 'td', 'textarea', 'th', 'tr', 'ul', 'button', 'frame', 'title',
]);
export const LINK_RELS = new Set(['canonical', 'alternate', 'next', 'prev']);
const NO_RELS: readonly string[] = [];
/** An element's `rel` words, lower-cased. */
export const relsOf = (a: Record<string, string>): readonly string[] => (a.rel === undefined ? NO_RELS : a.rel.toLowerCase().split(/\s+/));
export const HEADING = /^h([1-6])$/;
/**
 * A definition entry (`<dt>` with an id on it or inside it: Sphinx's API
 * entries, DocBook's variable lists) is a section below h6: a hit in a long
 * reference page links to the entry (`#flask.Flask.before_request`), and the
 * entry is scored on its own. Without an id it is no section (a man page's
 * option list, a glossary), as there is nothing to link to.
 */
export const DEFINITION_LEVEL = 7;
export const CONTROLS = new Set(['head', 'button', 'select']);
/** Blocks that cannot be inside a heading: their start ends one left open. */
export const ENDS_HEADING = new Set(['address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul']);
/** Class or id words of menus, link bars and banners in common documentation generators. */
const FURNITURE_WORD = /^(?:nav(?:[-_].*)?|docnav|navbar|navheader|navfooter|navigation|menu|mainmenu|submenu|searchmenu|breadcrumbs?|banner|nosearch|toc|masthead|skip-?link|footer|sphinxsidebar(?:wrapper)?|searchbox)$/;
/** The text of a permalink beside a heading or definition (Sphinx's `¶`, `#`, `§`, 🔗): a mark, not a word of the page. */
export const PERMALINK_MARK = /^\s*(?:[¶#§]|\u{1F517})\s*$/u;
export const isFurniture = (a: Record<string, string>) =>
  (a.class !== undefined || a.id !== undefined) &&
  `${a.class ?? ''} ${a.id ?? ''}`.toLowerCase().split(/\s+/).some((w) => w !== '' && FURNITURE_WORD.test(w));
