/**
 * MRR@10 of the searcher over the judged corpus with English stemming off
 * and on: how the `analysis.stem.english` default was chosen.
 * Run: npx tsx test/judged/stemming.ts
 */
import { searchSettings } from '../../searcher/settings.js';
import { search } from '../../searcher/search.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { buildJudgedCrawl } from './crawl.js';
import { mrrAt10 } from './queries.js';

for (const stem of ['false', 'true']) {
  const crawl = await buildJudgedCrawl({ 'analysis.stem.english': stem });
  const snaps = await CrawlSnapshots.open(crawl.dir, searchSettings(crawl.conf));
  try {
    const lease = snaps.acquire();
    const r = await mrrAt10((q) => search(lease.snapshot, { query: q, hitsPerPage: 10, hitsPerSite: 0 }).hits.map((h) => h.doc.url));
    lease.release();
    console.log(`stem.english=${stem}: MRR@10 ${r.mrr.toFixed(3)} (keyword ${r.byKind.keyword.toFixed(3)}, question ${r.byKind.question.toFixed(3)})`);
    for (const m of r.misses) console.log(`  rank ${m.rank || '>10'}: ${m.q}`);
  } finally {
    snaps.close();
    crawl.cleanup();
  }
}
