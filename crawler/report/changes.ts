/**
 * @module crawler/report/changes
 * What changed since the last crawl (or a segment or date): the segments
 * fetched since against those before them. Pages added, removed and
 * changed (with a short diff of their text), new missing pages (404, 410)
 * with the pages that link to them, new redirects. The last fetch of a URL
 * in each side decides its state; the rules are plain functions, and the
 * segments and the WebDB's links are read only by `collectChanges`.
 */
import { UsageError } from '../../shared/errors.js';
import { segmentDir } from '../../shared/crawl-dir.js';
import { Segment, segmentDate, type FetchRecord } from '../../segments/segment.js';
import type { InvertlinksOps } from '../webdb/webdb.js';

/** Examples kept per list. */
export const EXAMPLES = 20;

/** `-since`: a segment name (yyyyMMddHHmmss) or a date (yyyy-MM-dd, or an ISO time), as a time. */
export function parseSince(value: string): number {
  const seg = /^\d{14}$/.test(value) ? segmentDate(value) : null;
  if (seg) return seg.getTime();
  const day = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  const t = day
    ? Number(day[2]) >= 1 && Number(day[2]) <= 12 && Number(day[3]) >= 1 && Number(day[3]) <= 31
      ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))
      : NaN
    : /^\d{4}-\d{2}-\d{2}T/.test(value)
      ? Date.parse(value)
      : NaN;
  if (!Number.isFinite(t)) throw new UsageError(`-since takes a segment name (yyyyMMddHHmmss) or a date (yyyy-MM-dd), not ${JSON.stringify(value)}`);
  return t;
}

export interface TextDiff {
  /** A few words before the change. */
  before: string;
  removed: string;
  added: string;
}

const cap = (words: string[], n: number) => (words.length > n ? `${words.slice(0, n).join(' ')} …` : words.join(' '));

/** Where two texts differ, word by word: the first run of differing words, the common ends cut away. */
export function textDiff(old: string, now: string, context = 4, most = 25): TextDiff | null {
  const a = old.split(/\s+/).filter(Boolean);
  const b = now.split(/\s+/).filter(Boolean);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  if (start === a.length && start === b.length) return null;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const lead = a.slice(Math.max(0, start - context), start);
  return {
    before: `${start > context ? '… ' : ''}${lead.join(' ')}`,
    removed: cap(a.slice(start, a.length - end), most),
    added: cap(b.slice(start, b.length - end), most),
  };
}

/** A URL's state as its last fetch on one side left it, and where its last content was fetched there. */
export interface UrlState {
  segment: string;
  status: FetchRecord['status'];
  httpStatus: number | null;
  redirectTo: string | null;
  /** The segment of the last fetch that read the content (not a 304), if any. */
  content: string | null;
}

const ok = (s: UrlState | undefined) => s?.status === 'fetch_success' || s?.status === 'fetch_notmodified';
const gone = (s: UrlState | undefined) => s?.status === 'fetch_gone' && (s.httpStatus === 404 || s.httpStatus === 410);

export interface Verdicts {
  added: { url: string; segment: string }[];
  removed: { url: string; why: string }[];
  /** Content read on both sides and still there now: candidates for a content change. */
  refetched: { url: string; was: string; now: string }[];
  missing: { url: string; httpStatus: number }[];
  redirects: [string, string][];
}

/** What each URL fetched since became, against its state before. */
export function verdicts(before: ReadonlyMap<string, UrlState>, since: ReadonlyMap<string, UrlState>): Verdicts {
  const v: Verdicts = { added: [], removed: [], refetched: [], missing: [], redirects: [] };
  for (const [url, now] of since) {
    const was = before.get(url);
    if (ok(now) && !ok(was)) v.added.push({ url, segment: now.segment });
    if (ok(now) && now.content && was?.content) v.refetched.push({ url, was: was.content, now: now.content });
    if (gone(now) && !gone(was)) {
      v.missing.push({ url, httpStatus: now.httpStatus! });
      if (ok(was)) v.removed.push({ url, why: `HTTP ${now.httpStatus}` });
    }
    if (now.redirectTo && now.redirectTo !== was?.redirectTo) {
      v.redirects.push([url, now.redirectTo]);
      if (ok(was)) v.removed.push({ url, why: `moved to ${now.redirectTo}` });
    }
  }
  return v;
}

export interface ChangesData {
  /** As given (a segment or a date), and as a time. */
  since: string;
  sinceMs: number;
  segments: string[];
  added: { count: number; examples: { url: string; title: string }[] };
  removed: { count: number; examples: { url: string; why: string }[] };
  changed: { count: number; examples: { url: string; title: string; diff: TextDiff }[] };
  missing: { count: number; examples: { url: string; httpStatus: number; linkedFrom: string[] }[] };
  redirects: { count: number; examples: [string, string][] };
}

function states(segmentsDir: string, names: readonly string[]): Map<string, UrlState> {
  const m = new Map<string, UrlState>();
  for (const name of names) {
    const seg = Segment.open(segmentDir(segmentsDir, name), { readonly: true });
    try {
      for (const r of seg.fetches())
        m.set(r.url, {
          segment: name,
          status: r.status,
          httpStatus: r.httpStatus,
          redirectTo: r.redirectTo ?? null,
          content: r.status === 'fetch_success' ? name : (m.get(r.url)?.content ?? null),
        });
    } finally {
      seg.close();
    }
  }
  return m;
}

/** The pages that link to each URL, from the WebDB's links (none without a WebDB). */
export type LinkSource = Pick<InvertlinksOps, 'linksToEach'> | undefined;

export function linkingPages(links: LinkSource, urls: readonly string[], most = 5): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!links || urls.length === 0) return out;
  for (const [target, rows] of links.linksToEach(urls)) out.set(target, [...new Set(rows.map((r) => r.source))].slice(0, most));
  return out;
}

/** The changes of the segments created at or after `sinceMs`, against the older ones. */
export function collectChanges(segmentsDir: string, names: readonly string[], since: string, links: LinkSource): ChangesData {
  const sinceMs = parseSince(since);
  const newer = names.filter((n) => (segmentDate(n)?.getTime() ?? 0) >= sinceMs);
  const older = names.filter((n) => !newer.includes(n));
  const v = verdicts(states(segmentsDir, older), states(segmentsDir, newer));
  const open = new Map<string, Segment>();
  const parse = (name: string, url: string) => {
    let seg = open.get(name);
    if (!seg) open.set(name, (seg = Segment.open(segmentDir(segmentsDir, name), { readonly: true })));
    return seg.getParse(url);
  };
  try {
    const changed: ChangesData['changed']['examples'] = [];
    let changedCount = 0;
    for (const r of v.refetched) {
      const [a, b] = [parse(r.was, r.url), parse(r.now, r.url)];
      if (!a || !b || (a.signature && a.signature === b.signature) || a.text === b.text) continue;
      changedCount++;
      const diff = changed.length < EXAMPLES ? textDiff(a.text, b.text) : null;
      if (diff) changed.push({ url: r.url, title: b.title, diff });
    }
    const linked = linkingPages(links, v.missing.slice(0, EXAMPLES).map((m) => m.url));
    return {
      since,
      sinceMs,
      segments: newer,
      added: { count: v.added.length, examples: v.added.slice(0, EXAMPLES).map((a) => ({ url: a.url, title: parse(a.segment, a.url)?.title ?? '' })) },
      removed: { count: v.removed.length, examples: v.removed.slice(0, EXAMPLES) },
      changed: { count: changedCount, examples: changed },
      missing: { count: v.missing.length, examples: v.missing.slice(0, EXAMPLES).map((m) => ({ ...m, linkedFrom: linked.get(m.url) ?? [] })) },
      redirects: { count: v.redirects.length, examples: v.redirects.slice(0, EXAMPLES) },
    };
  } finally {
    for (const seg of open.values()) seg.close();
  }
}
