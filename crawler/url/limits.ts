/**
 * @module crawler/url/limits
 * Structural limits on a URL, checked before the normalizers and the URL
 * filters see it, so no rule file can forget them: a crawler trap makes URLs
 * that grow without end (ever-longer paths, a relative link that repeats
 * its own segment on every page, session ids appended again and again).
 * Each limit is a property; -1 switches it off.
 */
import type { Conf } from '../../shared/conf.js';

export interface UrlLimits {
  /** url.max.length: characters in the whole URL. */
  maxLength: number;
  /** url.max.path.depth: segments in the path. */
  maxPathDepth: number;
  /** url.max.segment.repeats: times one path segment may occur. */
  maxSegmentRepeats: number;
}

export function urlLimits(conf: Conf): UrlLimits {
  return {
    maxLength: conf.getInt('url.max.length'),
    maxPathDepth: conf.getInt('url.max.path.depth'),
    maxSegmentRepeats: conf.getInt('url.max.segment.repeats'),
  };
}

/** True when the URL is longer than url.max.length allows. */
export function overMaxLength(url: string, l: UrlLimits): boolean {
  return l.maxLength >= 0 && url.length > l.maxLength;
}

/** Why the URL breaks a limit, or null when it keeps them all. Linear in the URL's length. */
export function urlLimitBreach(url: string, l: UrlLimits): string | null {
  if (overMaxLength(url, l)) return `URL of ${url.length} characters is longer than ${l.maxLength} (url.max.length)`;
  if (l.maxPathDepth < 0 && l.maxSegmentRepeats < 0) return null;
  const start = url.indexOf('//');
  const pathStart = start < 0 ? -1 : url.indexOf('/', start + 2);
  if (pathStart < 0) return null;
  let end = url.length;
  for (const c of ['?', '#']) {
    const i = url.indexOf(c, pathStart);
    if (i >= 0 && i < end) end = i;
  }
  const segments = url.slice(pathStart + 1, end).split('/').filter((s) => s !== '');
  if (l.maxPathDepth >= 0 && segments.length > l.maxPathDepth) return `path of ${segments.length} segments is deeper than ${l.maxPathDepth} (url.max.path.depth)`;
  if (l.maxSegmentRepeats >= 0) {
    const seen = new Map<string, number>();
    for (const s of segments) {
      const n = (seen.get(s) ?? 0) + 1;
      if (n > l.maxSegmentRepeats) return `path segment ${JSON.stringify(s.slice(0, 40))} occurs more than ${l.maxSegmentRepeats} times (url.max.segment.repeats)`;
      seen.set(s, n);
    }
  }
  return null;
}

/**
 * True when a link or redirect goes from a page that is not a local file to
 * a `file:` URL. Such a step is never taken, whatever the filters say: with
 * protocol-file active, a web page could otherwise make the crawler read and
 * index any file the crawler's user can read.
 */
export function leadsToLocalFiles(from: string, to: string): boolean {
  return /^file:/i.test(to) && !/^file:/i.test(from);
}
