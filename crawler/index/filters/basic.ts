/**
 * @module crawler/index/filters/basic
 * index-basic (Nutch's BasicIndexingFilter): url, host, site, domain, title
 * (cut to `indexer.max.title.length`), content (the parse text), the page's
 * headings (parse-html's sections), tstamp and the noarchive flag the
 * searcher's cached-page link honours.
 */
import type { Conf } from '../../../shared/conf.js';
import type { IndexingFilter, PluginDescriptor } from '../../../shared/plugin/extension-points.js';
import { domainOfHost, host } from '../../url/keys.js';

/** Heading texts from the parse meta's sections (absent for pages without headings or from older parses). */
export function headingsOf(meta: Record<string, unknown>): string[] {
  const sections = meta.sections;
  if (!Array.isArray(sections)) return [];
  return sections.flatMap((s: unknown) => (s && typeof (s as { heading?: unknown }).heading === 'string' ? [(s as { heading: string }).heading] : []));
}

export function basicFilter(maxTitle: number): IndexingFilter {
  return {
    filter(doc, input) {
      const h = host(input.url);
      doc.url = input.url;
      doc.host = h;
      doc.site = h;
      doc.domain = domainOfHost(h);
      doc.title = input.parse.title.trim().slice(0, maxTitle);
      doc.content = input.parse.text;
      doc.heading = headingsOf(input.parse.meta);
      doc.tstamp = input.fetchTime;
      if (input.parse.meta.noarchive === true) doc.noarchive = 'true';
      return doc;
    },
  };
}

export const indexBasic: PluginDescriptor<'indexing-filter'> = {
  id: 'index-basic',
  point: 'indexing-filter',
  description: 'url, host, site, domain, title, content, headings and fetch time of a page',
  create: (conf: Conf) => basicFilter(conf.getInt('indexer.max.title.length')),
};
