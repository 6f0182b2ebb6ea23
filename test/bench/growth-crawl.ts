/**
 * A crawl directory of the growth corpus written without HTTP: segments
 * through the fetcher's own writer (fetch record, content, parse text and
 * data, as a fetch with inline parsing leaves them), 25,000 pages a
 * segment, and a WebDB with every page, its links and its inlinks with
 * anchors, as updatedb and invertlinks leave them. Writing is what a crawl
 * would have done already; the benchmark measures what comes after.
 */
import path from 'node:path';
import { Segment } from '../../segments/segment.js';
import { SegmentWriter } from '../../segments/segment-writer.js';
import { ADD_INLINK_SQL, linkAdder, webDbSql } from '../fixtures/webdb-sql.js';
import { page, type GrowthPage } from './growth-corpus.js';

const SEGMENT_PAGES = 25_000;
const DAY = 86_400_000;

/** Writes pages 0 … n-1 into `dir` (segments/, webdb/); returns the segment directories. */
export async function writeGrowthCrawl(dir: string, n: number, progress: (done: number) => void): Promise<string[]> {
  const segments: string[] = [];
  const webdb = webDbSql(path.join(dir, 'webdb'));
  const addPage = webdb.prepare(
    `INSERT OR REPLACE INTO pages (url, host, status, fetch_time, fetch_interval, score, link_score, signature, modified_time, last_fetch_time, protocol_status)
     VALUES (?, ?, 'db_fetched', ?, 2592000, 1, ?, ?, ?, ?, 'success')`,
  );
  const addUrl = webdb.prepare('INSERT OR IGNORE INTO urls (url) VALUES (?)');
  const addLink = linkAdder(webdb);
  const addInlink = webdb.prepare(ADD_INLINK_SQL);
  const store = webdb.transaction((pages: GrowthPage[], at: number) => {
    for (const p of pages) {
      addPage.run(p.url, p.host, at + 30 * DAY, 1 + (p.links.length % 7) / 10, String(p.text.length), at, at);
      addUrl.run(p.url);
      for (const l of p.links) {
        addUrl.run(l.url);
        addLink(p.url, l.url, l.anchor);
        addInlink.run(l.url, p.url, l.anchor);
      }
    }
  });
  try {
    for (let from = 0; from < n; from += SEGMENT_PAGES) {
      const at = Date.UTC(2026, 0, 1) + segments.length * DAY;
      const seg = Segment.create(path.join(dir, 'segments'), new Date(at));
      seg.markPhase('generated', at);
      const writer = new SegmentWriter(seg);
      let batch: GrowthPage[] = [];
      for (let i = from; i < Math.min(n, from + SEGMENT_PAGES); i++) {
        await writer.ready();
        const p = page(i, n);
        writer.put(
          { url: p.url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: at, headers: { 'content-type': 'text/html; charset=utf-8' }, contentType: 'text/html' },
          { url: p.url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(p.html), truncated: false },
          { url: p.url, status: 'success', title: p.title, text: p.text, lang: 'en', signature: `sig-${i}`, outlinks: p.links, meta: { sections: p.sections } },
        );
        batch.push(p);
        if (batch.length === 1000) {
          store(batch, at);
          batch = [];
          progress(i + 1);
        }
      }
      store(batch, at);
      await writer.close();
      seg.markPhase('fetched', at);
      seg.markPhase('parsed', at);
      segments.push(seg.dir);
      seg.close();
    }
  } finally {
    webdb.close();
  }
  return segments;
}
