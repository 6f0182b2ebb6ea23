/**
 * The judged corpus as a crawl directory, built by the real tools: pages
 * stored in a segment through the Segment store (fetch record, content,
 * parse record), links and anchors in a real WebDB, then index → dedup →
 * merge. What a crawl of the corpus served on loopback would leave, minus
 * the fetching; searcher tests and the stemming comparison run on it.
 */
import path from 'node:path';
import { dedup } from '../../crawler/dedup.js';
import { indexSegments } from '../../crawler/index/tool.js';
import { merge } from '../../crawler/merge.js';
import { makeCrawl, writeSegment, writeWebDb, type Crawl } from '../fixtures/crawlstore.js';
import { DEFAULT_BASE, digestOf, judgedInlinks, judgedPages, pageUrl, type JudgedHost } from './corpus.js';

/** Builds the crawl; `overrides` are -D properties (e.g. analysis.stem.english). Call `cleanup()` when done. */
export async function buildJudgedCrawl(overrides: Record<string, string> = {}, base: (h: JudgedHost) => string = DEFAULT_BASE): Promise<Crawl> {
  const crawl = makeCrawl(overrides);
  const pages = judgedPages();
  const byTime = new Map<number, typeof pages>();
  for (const p of pages) byTime.set(p.fetchTime, [...(byTime.get(p.fetchTime) ?? []), p]);
  // One segment per fetch day would be hundreds; two segments (archive, current) are enough.
  const old = pages.filter((p) => p.fetchTime < Date.UTC(2024, 0, 1));
  const recent = pages.filter((p) => p.fetchTime >= Date.UTC(2024, 0, 1));
  const toStore = (ps: typeof pages) => ps.map((p) => ({ url: pageUrl(p, base), title: p.title, text: p.body, signature: digestOf(p.body) }));
  const segs = [await writeSegment(crawl, new Date(Date.UTC(2022, 0, 1)), toStore(old)), await writeSegment(crawl, new Date(Date.UTC(2024, 4, 1)), toStore(recent))];
  const inlinks = judgedInlinks(pages, base);
  writeWebDb(
    crawl,
    pages.map((p) => ({ url: pageUrl(p, base) })),
    [...inlinks].flatMap(([target, ls]) => ls.map((l) => ({ target, source: l.source, anchor: l.anchor }))),
  );
  await indexSegments(crawl.conf, { webdb: crawl.webdb, segments: segs });
  await dedup(crawl.conf, { segments: segs });
  await merge(crawl.conf, { index: path.join(crawl.dir, 'index'), segments: segs });
  return crawl;
}
