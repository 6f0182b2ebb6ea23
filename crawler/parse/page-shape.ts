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
 * The weight scales a page's text score at query time; the words stay in
 * the index as they are, so the collection's statistics (document
 * frequencies, the average length) are those every other page is scored
 * against, and a navigation page still answers a query for its own title.
 */

/** More of the text than this in furniture makes a navigation page. */
export const NAVIGATION_SHARE = 0.5;
/** The least weight a navigation page's text keeps: a page that is all links still answers for its title. */
export const LEAST_PROSE = 0.1;

/** Characters of `textLength` inside the furniture ranges (merged, ascending, as the parse gives them). */
export function furnitureChars(textLength: number, furniture: readonly (readonly [number, number])[] | undefined): number {
  let n = 0;
  for (const [from, to] of furniture ?? []) n += Math.max(0, Math.min(to, textLength) - Math.max(from, 0));
  return n;
}

/**
 * The weight of a page's text: 1 for an ordinary page; for a navigation page
 * (furniture more than NAVIGATION_SHARE of its text) the share of its text
 * that is prose, at least LEAST_PROSE, rounded to hundredths (the index
 * keeps it so). A page without text is no navigation page.
 */
export function proseWeight(textLength: number, furniture: readonly (readonly [number, number])[] | undefined): number {
  if (textLength <= 0) return 1;
  const share = furnitureChars(textLength, furniture) / textLength;
  if (share <= NAVIGATION_SHARE) return 1;
  return Math.max(LEAST_PROSE, Math.round((1 - share) * 100) / 100);
}
