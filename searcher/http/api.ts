/**
 * @module searcher/http/api
 * The JSON shape of a search (`/api/search`, `hazelnut search -json`): hits
 * with url, title, plain-text summary, score, site and segment; the total
 * and whether it is exact; timing.
 */
import { hitSummary } from '../details.js';
import type { SearchResult } from '../search.js';
import type { Snapshot } from '../snapshot.js';
import { summaryToText } from '../summary.js';

export function searchJson(snap: Snapshot, r: SearchResult) {
  const t0 = performance.now();
  const hits = r.hits.map((h) => ({
    url: h.doc.url,
    title: h.doc.title,
    summary: summaryToText(hitSummary(snap, h.doc, r.query.terms)),
    score: Math.round(h.score * 1e4) / 1e4,
    site: h.site,
    segment: h.doc.segment,
    type: h.doc.type,
    date: h.doc.date,
    size: h.doc.contentLength,
    moreFromSite: h.moreFromSite,
  }));
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
    hits,
    timing: { searchMs: round(r.ms), summariesMs: round(performance.now() - t0) },
  };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
