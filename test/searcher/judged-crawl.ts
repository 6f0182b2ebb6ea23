/**
 * The judged corpus (test/judged/) as a crawl directory the searcher can
 * serve: every page in a real segment, indexed by the real writer and
 * published, with what the crawler's indexer would hand over — site-wide
 * title suffixes stripped (crawler/index/title.ts), anchors of inlinks one
 * per source host, and the link score from the crawler's PageRank
 * (crawler/linkrank.ts, mean 1) as the boost.
 */
import path from 'node:path';
import { siteTitleSuffixes, stripTitleSuffix } from '../../crawler/index/title.js';
import { pageRank } from '../../crawler/linkrank.js';
import { Segment } from '../../segments/segment.js';
import { SegmentWriter } from '../../segments/segment-writer.js';
import { digestOf, judgedHtml, judgedInlinks, judgedPages, pageUrl } from '../judged/corpus.js';
import { inputDoc, publishDocs } from './crawl-fixture.js';

export async function buildJudgedCrawl(dir: string): Promise<number> {
  const pages = judgedPages();
  const urls = pages.map((p) => pageUrl(p));
  const index = new Map(urls.map((u, i) => [u, i]));
  const inlinks = judgedInlinks(pages);
  const src: number[] = [];
  const dst: number[] = [];
  pages.forEach((p, i) =>
    p.links.forEach((l) => {
      const t = index.get(pageUrl(l));
      if (t !== undefined) (src.push(i), dst.push(t));
    }),
  );
  const ranks = pageRank(pages.length, src, dst, { damping: 0.85, tolerance: 1e-9, maxIterations: 100 }).ranks;
  const suffixes = siteTitleSuffixes(pages.map((p, i) => ({ host: new URL(urls[i]!).hostname, title: p.title })));

  const seg = Segment.create(path.join(dir, 'segments'), new Date(Date.UTC(2024, 4, 1)));
  const writer = new SegmentWriter(seg);
  const docs = pages.map((p, i) => {
    const url = urls[i]!;
    const host = new URL(url).hostname;
    const html = judgedHtml(p);
    const title = stripTitleSuffix(p.title, suffixes.get(host));
    writer.put(
      { url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: p.fetchTime, headers: { 'content-type': 'text/html' }, contentType: 'text/html' },
      { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(html), truncated: false },
      { url, status: 'success', title, text: p.body, lang: 'en', signature: digestOf(p.body), outlinks: [], meta: {} },
    );
    const byHost = new Map<string, string>();
    for (const l of inlinks.get(url) ?? []) {
      const h = new URL(l.source).hostname;
      if (!byHost.has(h)) byHost.set(h, l.anchor);
    }
    const d = inputDoc({ url, title, text: p.body, body: html, anchors: [...byHost.values()], boost: ranks[i]! * pages.length }, seg.name, p.fetchTime);
    return d;
  });
  await writer.close();
  seg.markPhase('fetched');
  seg.markPhase('parsed');
  seg.close();
  await publishDocs(dir, docs);
  return docs.length;
}
