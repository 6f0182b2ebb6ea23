/**
 * @module searcher/http/api
 * The JSON shape of a search (`/api/search`, `hazelnut search -json`): hits
 * with url, the link to the section where it matched, title, plain-text
 * summary, score, site and its name, segment, and whether it is grouped under
 * its site's first hit; the total and whether it is exact; timing.
 */
import { hitDetails } from '../details.js';
import type { SearchResult } from '../search.js';
import { siteName } from '../sites.js';
import { didYouMean } from '../suggest.js';
import type { Snapshot } from '../snapshot.js';
import { summaryToText } from '../summary.js';
import { facetEntries, hitHref } from './results.js';

export function searchJson(snap: Snapshot, r: SearchResult) {
  const t0 = performance.now();
  const hits = r.hits.map((h) => {
    const d = hitDetails(snap, h.doc, r);
    return {
      url: h.doc.url,
      link: hitHref({ hit: h, section: d.section }),
      title: h.doc.title,
      section: d.section ?? null,
      summary: summaryToText(d.summary),
      score: Math.round(h.score * 1e4) / 1e4,
      site: h.site,
      siteName: siteName(snap.reader, h.doc),
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
    didYouMean: didYouMean(snap, r)?.query ?? null,
    facets: Object.fromEntries(facetEntries(r, (doc) => siteName(snap.reader, doc)).map((f) => [f.field, f.values])),
    hits,
    timing: { searchMs: round(r.ms), summariesMs: round(performance.now() - t0) },
  };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
