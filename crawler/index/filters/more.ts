/**
 * @module crawler/index/filters/more
 * index-more (Nutch's MoreIndexingFilter): content type (from the fetch,
 * else guessed from the URL's extension), date (`yyyyMMdd` UTC of the
 * document's own modification date as a PDF or office file states it, else
 * Last-Modified, else the fetch time), contentLength and lang (parse
 * language, else Content-Language, else `unknown`). A document's author is
 * added to the indexed text, so a search for the name finds the file.
 */
import { dayOf } from '../../../shared/day.js';
import { typeByExtension } from '../../../shared/mime.js';
import type { IndexingFilter, PluginDescriptor } from '../../../shared/plugin/extension-points.js';


/** Content type without parameters, lower-case; guessed from the URL when the fetch had none. */
export function contentType(header: string | null, url: string): string {
  const t = header?.split(';')[0]?.trim().toLowerCase();
  if (t) return t;
  return typeByExtension(new URL(url).pathname) ?? 'text/html';
}

/** `yyyyMMdd` in UTC of Last-Modified when it parses, else of the fetch time. */
export function indexDate(lastModified: string | undefined, fetchTime: number): string {
  const lm = lastModified ? Date.parse(lastModified) : NaN;
  return dayOf(Number.isFinite(lm) ? lm : fetchTime);
}

export const moreFilter: IndexingFilter = {
  filter(doc, input) {
    doc.type = contentType(input.contentType, input.url);
    const modified = typeof input.parse.meta.modified === 'string' ? input.parse.meta.modified : undefined;
    doc.date = indexDate(modified ?? input.headers['last-modified'], input.fetchTime);
    if (typeof input.parse.meta.author === 'string' && typeof doc.content === 'string') doc.content += `\n${input.parse.meta.author}`;
    const lm = input.headers['last-modified'] ? Date.parse(input.headers['last-modified']) : NaN;
    if (Number.isFinite(lm)) doc.lastModified = lm;
    doc.contentLength = Number(input.headers['content-length']) || input.contentLength;
    const lang = input.parse.lang || input.headers['content-language']?.split(',')[0]?.trim().toLowerCase();
    doc.lang = lang || 'unknown';
    return doc;
  },
};

export const indexMore: PluginDescriptor<'indexing-filter'> = {
  id: 'index-more',
  point: 'indexing-filter',
  description: 'content type, date, content length and language of a page',
  create: () => moreFilter,
};
