/**
 * @module searcher/sites
 * A site is named by the title of its home page ("SQLite Home Page"), not by
 * its host and port: the page at `/` (or `/index.html`) of the hit's origin,
 * when it is in the index and has a title. Looked up once per site and index.
 */
import type { IndexReader, StoredDoc } from '../shared/index/types.js';

const HOME_PATHS = ['/', '/index.html', '/index.htm'];

/** "Kestrel Handbook — Kestrel Handbook" (page name — site name, on a home page) → "Kestrel Handbook". */
export function onceOnly(title: string): string {
  const m = /^(.+?)\s+[—–|·:-]\s+(.+)$/.exec(title);
  return m && m[1]!.toLowerCase() === m[2]!.toLowerCase() ? m[1]! : title;
}
const titles = new WeakMap<IndexReader, Map<string, string | null>>();

/** The title of the home page of the site of `doc`, when the index holds that page and it has a title; looked up once per site and index. */
export function homeTitle(reader: IndexReader, doc: Pick<StoredDoc, 'url' | 'site'>): string | undefined {
  let known = titles.get(reader);
  if (!known) titles.set(reader, (known = new Map()));
  let title = known.get(doc.site);
  if (title === undefined) {
    title = lookUpHomeTitle(reader, doc.url) ?? null;
    known.set(doc.site, title);
  }
  return title ?? undefined;
}

function lookUpHomeTitle(reader: IndexReader, url: string): string | undefined {
  let origin: URL;
  try {
    origin = new URL(url);
  } catch {
    return undefined;
  }
  for (const p of HOME_PATHS) {
    const id = reader.idOf(new URL(p, origin).href);
    const title = id === undefined || reader.isDeleted(id) ? '' : onceOnly(reader.doc(id).title.trim());
    if (title) return title;
  }
  return undefined;
}

/** The host as written in the URL: the site's name when its home page gives none. */
export function hostName(doc: Pick<StoredDoc, 'url' | 'site'>): string {
  try {
    return new URL(doc.url).host;
  } catch {
    return doc.site;
  }
}

/** The site's name for people: its home page's title, else the host as written in the URL. */
export function siteName(reader: IndexReader, doc: Pick<StoredDoc, 'url' | 'site'>): string {
  return homeTitle(reader, doc) ?? hostName(doc);
}
