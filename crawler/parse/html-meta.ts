/**
 * @module crawler/parse/html-meta
 * What a page says about itself in its head (Nutch's HTMLMetaTags): meta
 * robots, refresh, description, keywords and content language, the declared
 * language, `<base href>` and the canonical link. The first of each counts,
 * as a browser or a search engine takes it.
 */
import { squash } from './html-text.js';

/** A page's head as written: URLs not yet resolved. */
export interface HtmlHead {
  lang: string | null;
  contentLanguage: string | null;
  base: string | null;
  noindex: boolean;
  nofollow: boolean;
  noarchive: boolean;
  refresh: { href: string; delay: number } | null;
  canonical: string | null;
  description: string | null;
  keywords: string | null;
}

export const emptyHead = (): HtmlHead => ({
  lang: null,
  contentLanguage: null,
  base: null,
  noindex: false,
  nofollow: false,
  noarchive: false,
  refresh: null,
  canonical: null,
  description: null,
  keywords: null,
});

/** `5; url=/next` → {delay 5, href '/next'}; a refresh without a URL reloads itself and is no redirect. */
export function parseRefresh(content: string): { href: string; delay: number } | null {
  const m = /^\s*(\d+(?:\.\d*)?)?\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/i.exec(content);
  if (!m) return null;
  const href = m[2]!.trim().replace(/^(["'])(.*)\1$/, '$2').replace(/^["']/, '').trim();
  if (!href) return null;
  return { href, delay: m[1] ? Math.floor(Number(m[1])) : 0 };
}

/** A `<meta>` element's attributes into `head`. */
export function readMeta(head: HtmlHead, a: Record<string, string>): void {
  const content = a.content ?? '';
  const name = a.name?.toLowerCase();
  const equiv = a['http-equiv']?.toLowerCase();
  if (name === 'robots') {
    for (const d of content.toLowerCase().split(/[\s,]+/)) {
      if (d === 'noindex' || d === 'none') head.noindex = true;
      if (d === 'nofollow' || d === 'none') head.nofollow = true;
      if (d === 'noarchive' || d === 'nocache' || d === 'no-cache') head.noarchive = true;
    }
  } else if (name === 'description') head.description ??= squash(content);
  else if (name === 'keywords') head.keywords ??= squash(content);
  else if (equiv === 'refresh') head.refresh ??= parseRefresh(content);
  else if (equiv === 'content-language') head.contentLanguage ??= content.trim() || null;
}
