/**
 * @module crawler/index/title
 * Site-wide title suffixes ("Install — Acme Docs"): a host that ends most of
 * its titles with its own name makes that name match every page, which buries
 * the page a query is about (ranking lesson 9). These pure functions find such
 * a suffix per host and strip it, and gather each host's titles, by which an
 * all-in-one page's sections are known for copies (crawler/parse/page-shape).
 */
import { titleKey } from '../parse/page-shape.js';

/** A separator with spaces around it, so `e-mail` or `10:30` never split a title. */
const SEPARATOR = /\s+[-|–—:·»]\s+/g;

/** The part after the last separator, or undefined. */
export function titleSuffix(title: string): string | undefined {
  let last: RegExpExecArray | undefined;
  for (const m of title.matchAll(SEPARATOR)) last = m as RegExpExecArray;
  if (!last || last.index === 0) return undefined;
  const suffix = title.slice(last.index + last[0].length).trim();
  return suffix || undefined;
}

/**
 * For each host, the suffix that at least `minShare` of its titles (and at
 * least `minCount`) end with.
 */
export function siteTitleSuffixes(titles: Iterable<{ host: string; title: string }>, minShare = 0.5, minCount = 3): Map<string, string> {
  const perHost = new Map<string, { n: number; counts: Map<string, number> }>();
  for (const { host, title } of titles) {
    let h = perHost.get(host);
    if (!h) perHost.set(host, (h = { n: 0, counts: new Map() }));
    h.n++;
    const s = titleSuffix(title);
    if (s) h.counts.set(s, (h.counts.get(s) ?? 0) + 1);
  }
  const out = new Map<string, string>();
  for (const [host, h] of perHost) {
    let best: [string, number] | undefined;
    for (const e of h.counts) if (!best || e[1] > best[1]) best = e;
    if (best && best[1] >= minCount && best[1] >= minShare * h.n) out.set(host, best[0]);
  }
  return out;
}

/** The title without the suffix (and its separator); a title that is only the suffix stays. */
export function stripTitleSuffix(title: string, suffix: string | undefined): string {
  const t = title.trim();
  if (!suffix || titleSuffix(t) !== suffix) return title;
  const head = t.slice(0, t.length - suffix.length).replace(/\s+[-|–—:·»]\s*$/, '').trim();
  return head || title;
}

/** What the indexer knows of each host's titles: its suffix (when stripped) and every page's title as titleKey has it, suffix stripped. */
export interface SiteTitles {
  suffixes: ReadonlyMap<string, string>;
  keys: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The site titles of every page's `{ host, title }`; `strip`: whether suffixes are found and stripped. */
export function siteTitles(titles: Iterable<{ host: string; title: string }>, strip: boolean): SiteTitles {
  const all = [...titles];
  const suffixes = strip ? siteTitleSuffixes(all) : new Map<string, string>();
  const keys = new Map<string, Set<string>>();
  for (const { host, title } of all) {
    let k = keys.get(host);
    if (!k) keys.set(host, (k = new Set()));
    k.add(titleKey(stripTitleSuffix(title, suffixes.get(host))));
  }
  return { suffixes, keys };
}
