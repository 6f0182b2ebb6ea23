/**
 * @module searcher/http/api
 * The JSON shape of a search (`/api/search`, `hazelnut search -json`): hits
 * with url, the link to the section where it matched (for a file of a share,
 * the address file.url.map gives it, and its path), title, plain-text
 * summary, score, site and its name, segment, and whether it is grouped under
 * its site's first hit; the total and whether it is exact; timing.
 */
import { hitDetails } from '../details.js';
import type { SitePage } from '../facets.js';
import type { SearchResult } from '../search.js';
import { siteName } from '../sites.js';
import type { Respelled } from '../spell.js';
import { didYouMean } from '../suggest.js';
import type { Snapshot } from '../snapshot.js';
import { summaryToText } from '../summary.js';
import { localPath, type FileUrlPrefix } from '../file-links.js';
import { facetEntries, openLink, type HitView } from './results.js';

export function searchJson(snap: Snapshot, r: SearchResult) {
  const t0 = performance.now();
  const views = r.hits.map((h) => ({ hit: h, ...hitDetails(snap, h, r), siteName: siteName(snap.reader, h.doc) }));
  return resultJson(r, views, {
    suggestion: didYouMean(snap, r),
    siteName: (doc) => siteName(snap.reader, doc),
    summariesMs: performance.now() - t0,
    fileUrlMap: snap.settings.fileUrlMap,
  });
}

/** The JSON of a search whose hits are already summarized and named (one searcher's, or a broker's from its shards). */
export function resultJson(r: SearchResult, views: HitView[], extras: { suggestion?: Respelled; siteName: (doc: SitePage) => string; summariesMs: number; fileUrlMap?: readonly FileUrlPrefix[] }) {
  const hits = views.map((v) => {
    const h = v.hit;
    return {
      url: h.doc.url,
      link: openLink(v, extras.fileUrlMap ?? []),
      path: localPath(h.doc.url) ?? null,
      title: h.doc.title,
      section: v.section ?? null,
      summary: summaryToText(v.summary),
      score: Math.round(h.score * 1e4) / 1e4,
      site: h.site,
      siteName: v.siteName,
      segment: h.doc.segment,
      type: h.doc.type,
      date: h.doc.date,
      size: h.doc.contentLength,
      allWords: h.full,
      grouped: h.grouped,
      moreFromSite: h.moreFromSite,
    };
  });
  return {
    query: r.raw,
    start: r.start,
    hitsPerPage: r.hitsPerPage,
    hitsPerSite: r.hitsPerSite,
    total: r.total,
    partial: r.partial,
    exact: r.exact,
    hidden: r.hidden,
    hasNext: r.hasNext,
    stopped: r.query.stopped,
    didYouMean: extras.suggestion?.query ?? null,
    facets: Object.fromEntries(facetEntries(r, extras.siteName).map((f) => [f.field, f.values])),
    hits,
    timing: { searchMs: round(r.ms), summariesMs: round(extras.summariesMs) },
  };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
