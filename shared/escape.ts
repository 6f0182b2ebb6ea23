/**
 * @module shared/escape
 * Escaping for HTML and XML, the output languages of the searcher's pages and
 * feeds, the crawl report, the demo web and the pages the crawler makes of
 * directories and office documents. Page text, titles and URLs come from the
 * crawled web and are hostile by default: every one goes through here before
 * it meets markup.
 */

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value in HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML[c]!);
}

/** Characters XML 1.0 forbids even escaped; Nutch's OpenSearch servlet strips them too. */
const XML_ILLEGAL = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Text or attribute value in XML, with illegal characters removed. */
export function escapeXml(s: string): string {
  return escapeHtml(s.replace(XML_ILLEGAL, ''));
}

/** A URL for an `href`: only http(s) and relative links; anything else (javascript:, data:) becomes inert. */
export function safeHref(url: string): string {
  return /^(https?:\/\/|\/|\?)/i.test(url) ? url : '#';
}
