/**
 * @module crawler/parse/page-shape
 * Navigation pages told by their shape, not their address. A table of
 * contents, a general index, a module list or a site map is made of links:
 * its words are the names of other pages (which their anchors already give
 * those pages) and say little about itself, yet a long list of names matches
 * every query that names one of them, and the hub that every page links to
 * has a high link score besides. The parse marks such text as furniture
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
