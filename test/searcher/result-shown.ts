/**
 * Everything a result page shows, for tests that compare a search with the
 * exhaustive ranking's (scoring every match): hits with their scores and
 * grouping, totals, hidden hits, and facets with their sample pages.
 */
import type { SearchResult } from '../../searcher/search.js';

export const shown = (r: SearchResult) => ({
  hits: r.hits.map((h) => [h.doc.url, h.score, h.full, h.grouped, h.moreFromSite]),
  total: r.total,
  partial: r.partial,
  exact: r.exact,
  hidden: r.hidden,
  hasNext: r.hasNext,
  facets: [r.facets.site.map((v) => [v.value, v.count, v.sample.url]), ...[r.facets.type, r.facets.lang].map((vs) => vs.map((v) => [v.value, v.count]))],
});
