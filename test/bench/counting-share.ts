/**
 * What the exact counting pass costs in a search: the growth bench's query
 * mix (growth-searcher.ts `queries()`) answered in one process as
 * `/api/search` answers it, with the time spent in the index's counting pass
 * (`IndexReader.countMatches`: totals, partial matches, facets and each
 * site's matches, read from every posting of the query's words) told apart
 * from the rest of each search. Prints one JSON line a pass: for each query
 * length, the mean search and counting milliseconds, the counting pass's
 * median and share, the postings it walked a query and its cost a posting.
 * The pass is timed by wrapping the reader's own method, so a search
 * answers as it does without it. The crawl is only read.
 * Run: npx tsx test/bench/counting-share.ts <crawl dir> [passes]
 */
import path from 'node:path';
import { percentile, queries } from './growth-searcher.js';
import { loadConf } from '../../shared/plugin/properties.js';
import type { IndexReader } from '../../shared/index/types.js';
import { searchJson } from '../../searcher/http/api.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';

const [crawlDir, passesArg] = process.argv.slice(2);
if (!crawlDir) {
  process.stderr.write('usage: counting-share.ts <crawl dir> [passes]\n');
  process.exit(2);
}

const snapshots = await CrawlSnapshots.open(path.resolve(crawlDir), searchSettings(await loadConf({})));
await snapshots.warmAfterStart();
const lease = snapshots.acquire();
const snap = lease.snapshot;
const reader: IndexReader = snap.reader;

let countMs = 0;
let walked = 0;
const listLength = new Map<number, number>();
const postingsOf = (termId: number) => {
  let n = listLength.get(termId);
  if (n === undefined) listLength.set(termId, (n = reader.postings(termId).docs.length));
  return n;
};
const countMatches = reader.countMatches.bind(reader);
reader.countMatches = (terms, ...rest) => {
  const t0 = performance.now();
  try {
    return countMatches(terms, ...rest);
  } finally {
    countMs += performance.now() - t0;
    for (const term of new Set(terms)) {
      const id = reader.termId(term);
      if (id >= 0) walked += postingsOf(id);
    }
  }
};

const round = (x: number, digits = 2) => Number(x.toFixed(digits));
for (let pass = 1; pass <= Math.max(1, Number(passesArg ?? 1)); pass++) {
  const rows = [...queries().entries()].map(([k, qs]) => {
    countMs = 0;
    walked = 0;
    let searchMs = 0;
    const perQuery: number[] = [];
    for (const q of qs) {
      const before = countMs;
      const t0 = performance.now();
      JSON.stringify(searchJson(snap, search(snap, { query: q })));
      searchMs += performance.now() - t0;
      perQuery.push(countMs - before);
    }
    return {
      words: k + 1,
      searchMsMean: round(searchMs / qs.length),
      countMsMean: round(countMs / qs.length),
      countMsP50: round(percentile(perQuery, 50)),
      countShare: round(countMs / searchMs, 3),
      postingsWalkedMean: Math.round(walked / qs.length),
      countNsAPosting: walked ? round((countMs * 1e6) / walked, 1) : 0,
    };
  });
  process.stdout.write(JSON.stringify({ pass, docs: reader.meta.docCount, rows }) + '\n');
}
lease.release();
snapshots.close();
