/**
 * @module crawler/index/filters/basic
 * index-basic (Nutch's BasicIndexingFilter): url, host, site, domain, title
 * (cut to `indexer.max.title.length`), content (the parse text), tstamp and
 * the noarchive flag the searcher's cached-page link honours.
 */
import type { Conf } from '../../../shared/conf.js';
import type { IndexingFilter, PluginDescriptor } from '../../../shared/plugin/types.js';
import { domainOfHost, host } from '../../../shared/url/keys.js';

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
      doc.tstamp = input.fetchTime;
      if (input.parse.meta.noarchive === true) doc.noarchive = 'true';
      return doc;
    },
  };
}

export const indexBasic: PluginDescriptor<'indexing-filter'> = {
  id: 'index-basic',
  point: 'indexing-filter',
  description: 'url, host, site, domain, title, content and fetch time of a page',
  create: (conf: Conf) => basicFilter(conf.getInt('indexer.max.title.length')),
};
