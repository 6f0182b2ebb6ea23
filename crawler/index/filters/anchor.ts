/**
 * @module crawler/index/filters/anchor
 * index-anchor (after Nutch's AnchorIndexingFilter): the anchor texts of a
 * page's inlinks. Nutch kept one per source host against anchor spam
 * (NUTCH-574), which on a one-host intranet or documentation site keeps one
 * anchor of fifty. Here every distinct text counts, and repeats of a text
 * count with diminishing returns: n links saying the same thing give it
 * 1 + ⌊log2 n⌋ copies, so fifty links are worth six, a thousand ten.
 */
import type { IndexingFilter, PluginDescriptor } from '../../../shared/plugin/extension-points.js';

/** Each distinct anchor text (whitespace collapsed, compared without case) 1 + ⌊log2 n⌋ times, in order of first appearance. */
export function anchorTexts(inlinks: readonly { source: string; anchor: string }[]): string[] {
  const byText = new Map<string, { text: string; n: number }>();
  for (const l of inlinks) {
    const text = l.anchor.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const key = text.toLowerCase();
    const e = byText.get(key);
    if (e) e.n++;
    else byText.set(key, { text, n: 1 });
  }
  return [...byText.values()].flatMap(({ text, n }) => Array<string>(1 + Math.floor(Math.log2(n))).fill(text));
}

export const anchorFilter: IndexingFilter = {
  filter(doc, input) {
    doc.anchor = anchorTexts(input.inlinks);
    return doc;
  },
};

export const indexAnchor: PluginDescriptor<'indexing-filter'> = {
  id: 'index-anchor',
  point: 'indexing-filter',
  description: 'anchor texts of inlinks, repeats with diminishing returns',
  create: () => anchorFilter,
};
