/**
 * @module crawler/index/filters/anchor
 * index-anchor (Nutch's AnchorIndexingFilter): the anchor texts of a page's
 * inlinks, one per source host, so one site linking a page a thousand times
 * counts once (anchor spam, NUTCH-574).
 */
import type { IndexingFilter, PluginDescriptor } from '../../../shared/plugin/types.js';
import { host } from '../../../shared/url/keys.js';

/** The first non-empty anchor of each source host, in inlink order. */
export function anchorsPerHost(inlinks: readonly { source: string; anchor: string }[]): string[] {
  const byHost = new Map<string, string>();
  for (const l of inlinks) {
    const a = l.anchor.replace(/\s+/g, ' ').trim();
    const h = host(l.source);
    if (a && !byHost.has(h)) byHost.set(h, a);
  }
  return [...byHost.values()];
}

export const anchorFilter: IndexingFilter = {
  filter(doc, input) {
    doc.anchor = anchorsPerHost(input.inlinks);
    return doc;
  },
};

export const indexAnchor: PluginDescriptor<'indexing-filter'> = {
  id: 'index-anchor',
  point: 'indexing-filter',
  description: 'anchor texts of inlinks, one per source host',
  create: () => anchorFilter,
};
