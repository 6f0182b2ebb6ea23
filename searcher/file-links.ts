/**
 * @module searcher/file-links
 * Where a hit from a file share is opened. A browser will not follow a
 * `file:` link from a web page, and the path the crawler read
 * (`file:///srv/share/…`) is rarely where people reach the share: the
 * `file.url.map` property maps prefixes to the addresses they open
 * (`smb://fs1/share/…`, `https://files.example.com/…`), and the local path
 * is shown beside the link for copying.
 */
import { fileURLToPath } from 'node:url';
import { HzError } from '../shared/errors.js';

export interface FileUrlPrefix {
  from: string;
  to: string;
}

/** `file.url.map`: `prefix=url` pairs separated by spaces or commas, longest prefix first. */
export function parseFileUrlMap(value: string): FileUrlPrefix[] {
  const pairs: FileUrlPrefix[] = [];
  for (const entry of value.split(/[\s,]+/).filter(Boolean)) {
    const eq = entry.indexOf('=');
    const from = eq < 0 ? '' : entry.slice(0, eq);
    const to = eq < 0 ? '' : entry.slice(eq + 1);
    if (!/^file:\/\//i.test(from) || !/^[a-z][a-z0-9+.-]*:/i.test(to))
      throw new HzError(
        'HZ_ERR_CONF_PROPERTY',
        `property file.url.map: ${JSON.stringify(entry)} is not file:///prefix/=scheme://address/ (e.g. file:///srv/share/=smb://fs1/share/)`,
      );
    pairs.push({ from, to });
  }
  return pairs.sort((a, b) => b.from.length - a.from.length);
}

/** The address people open for a `file:` URL, when a prefix of the map matches it. */
export function mappedFileUrl(url: string, map: readonly FileUrlPrefix[]): string | undefined {
  const hit = map.find((p) => url.startsWith(p.from));
  return hit && hit.to + url.slice(hit.from.length);
}

/** The local path of a `file:` URL, as a person types it; undefined for any other URL. */
export function localPath(url: string): string | undefined {
  if (!/^file:/i.test(url)) return undefined;
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}
