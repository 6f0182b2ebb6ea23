/**
 * @module crawler/parse/page-shape
 * Navigation pages, all-in-one pages and source listings told by their
 * shape, not their address. A table of contents, a general index, a module
 * list or a site map is made of links: its words are the names of other
 * pages (which their anchors already give those pages) and say little
 * about itself, yet a long list of names matches every query that names
 * one of them, and the hub that every page links to has a high link score
 * besides. The parse marks such text as furniture
 * (runs that are almost all link text, menus); a page whose text is more than
 * half furniture is a navigation page, and its words weigh as much as its
 * text is prose. An ordinary page, menus and all, keeps its full weight.
 *
 * An all-in-one page (Node's `api/all.html`, a single-page manual) is the
 * concatenation of its site's pages: its sections are headed by their titles.
 * The text under such headings is a copy, which the pages themselves answer
 * for; what is left is the page's own. So a page's own text is what is
 * neither furniture nor a copy, and the same rule weighs it.
 *
 * A generated source listing (Sphinx's `_modules/…` pages, Doxygen's
 * source browser) is one big `<pre>` under a heading, its names linked to
 * the pages documenting them: its words are identifiers that those pages
 * answer for in prose, and the listing of a long module names every one. A
 * page whose text is almost all code (more than LISTING_SHARE of what is
 * not furniture) and whose code links to other pages throughout (at least
 * LISTING_LINKS a line) is such a listing, and its code counts as not its
 * own, as furniture does: its words weigh as much as its text is prose. An
 * example program or a preformatted text (a licence, a grammar, a command
 * sequence) links nowhere from its code: it is what answers for its words,
 * and keeps its full weight, as does a page of prose with examples.
 *
 * The weight scales a page's text score at query time; the words stay in
 * the index as they are, so the collection's statistics (document
 * frequencies, the average length) are those every other page is scored
 * against, and a navigation page still answers a query for its own title.
 */

import type { PageSection } from '../../shared/plugin/extension-points.js';

/** More of the text than this in furniture makes a navigation page. */
export const NAVIGATION_SHARE = 0.5;
/** The least weight a navigation page's text keeps: a page that is all links still answers for its title. */
export const LEAST_PROSE = 0.1;

/** More of the text than this in code makes a source listing… */
export const LISTING_SHARE = 0.8;
/** …when its code has at least this many links to other pages a line. */
export const LISTING_LINKS = 0.01;

/** A page's code as the parse counts it: its line breaks and its links to other pages. */
export interface CodeShape {
  lines: number;
  links: number;
}

/** Sections headed by other pages' titles that make a page a concatenation of them (one copied section is a quotation). */
export const LEAST_COPIES = 2;

type Range = readonly [number, number];

/** Characters of `textLength` inside the ranges, each counted once (they may overlap and come in any order). */
export function furnitureChars(textLength: number, ranges: readonly Range[] | undefined): number {
  const sorted = [...(ranges ?? [])].map(([a, b]) => [Math.max(a, 0), Math.min(b, textLength)] as const).filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let n = 0;
  let end = 0;
  for (const [a, b] of sorted) {
    if (b <= end) continue;
    n += b - Math.max(a, end);
    end = b;
  }
  return n;
}

/** A title or heading as two of them are compared: case, spacing and a trailing permalink mark aside. */
export const titleKey = (s: string) => s.replace(/[\s¶#]+$/u, '').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The text of a page's sections that are copies of other pages: each section
 * whose heading is another page's title (`isOtherTitle`, given titleKey of
 * the heading), up to the next heading of its level or above; none unless
 * LEAST_COPIES sections are.
 */
export function copiedRanges(textLength: number, sections: readonly PageSection[] | undefined, isOtherTitle: (key: string) => boolean): [number, number][] {
  const list = sections ?? [];
  const out: [number, number][] = [];
  list.forEach((s, i) => {
    if (s.level > 6 || !isOtherTitle(titleKey(s.heading))) return;
    let end = textLength;
    for (let j = i + 1; j < list.length; j++)
      if (list[j]!.level <= s.level) {
        end = list[j]!.offset;
        break;
      }
    if (end > s.offset) out.push([s.offset, end]);
  });
  return out.length >= LEAST_COPIES ? out : [];
}

/**
 * The weight of a page's text: 1 for an ordinary page; for a navigation or
 * all-in-one page (furniture and copies, `notOwn`, more than NAVIGATION_SHARE
 * of its text) the share of its text that is its own, at least LEAST_PROSE,
 * rounded to hundredths (the index keeps it so). A page without text is
 * neither.
 */
export function proseWeight(textLength: number, notOwn: readonly Range[] | undefined): number {
  if (textLength <= 0) return 1;
  const share = furnitureChars(textLength, notOwn) / textLength;
  if (share <= NAVIGATION_SHARE) return 1;
  return Math.max(LEAST_PROSE, Math.round((1 - share) * 100) / 100);
}

/**
 * The code ranges of a page's text of `textLength` when it is a generated
 * source listing (its code more than LISTING_SHARE of its text outside
 * `furniture`, with at least LISTING_LINKS links to other pages a line of
 * code), else none.
 */
export function listingRanges(textLength: number, code: readonly Range[] | undefined, furniture: readonly Range[] | undefined, shape: CodeShape): [number, number][] {
  const rest = textLength - furnitureChars(textLength, furniture);
  if (rest <= 0 || furnitureChars(textLength, code) <= LISTING_SHARE * rest) return [];
  if (shape.links < LISTING_LINKS * (shape.lines + 1)) return [];
  return (code ?? []).map(([a, b]) => [a, b]);
}
