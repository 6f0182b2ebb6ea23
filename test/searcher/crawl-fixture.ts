/**
 * Builds real crawl directories for searcher tests: pages stored in a real
 * segment (fetch record, raw content, parse text), indexed with the real
 * index writer and published with the real publishing function, exactly
 * the `index/` + `segments/` a crawl leaves behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';
import { publishIndex } from '../../shared/index/publish.js';
import type { IndexInputDoc } from '../../shared/index/types.js';
import { IndexWriter } from '../../shared/index/writer.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots, type Snapshot } from '../../searcher/snapshot.js';
import { Segment } from '../../segments/segment.js';
import { SegmentWriter } from '../../segments/segment-writer.js';

export interface FixturePage {
  url: string;
  title: string;
  text: string;
  /** Raw body as fetched; an HTML page built from title and text when omitted. */
  body?: string;
  type?: string;
  anchors?: string[];
  boost?: number;
  noarchive?: boolean;
  lang?: string;
  /** yyyyMMdd */
  date?: string;
  /** Parse data beyond noarchive (sections, furniture), as the HTML parser leaves it. */
  meta?: Record<string, unknown>;
}

export function tempCrawlDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hz-searcher-'));
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Stores the pages in a new segment of `crawlDir` through the fetcher's writer; returns the segment name. */
export async function storeSegment(crawlDir: string, pages: FixturePage[], now = new Date(Date.UTC(2024, 4, 1, 12))): Promise<string> {
  const seg = Segment.create(path.join(crawlDir, 'segments'), now);
  try {
    const writer = new SegmentWriter(seg);
    for (const p of pages) {
      const type = p.type ?? 'text/html';
      const body = p.body ?? `<!doctype html><html><head><title>${esc(p.title)}</title></head><body><p>${esc(p.text)}</p></body></html>`;
      writer.put(
        { url: p.url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: now.getTime(), headers: { 'content-type': type }, contentType: type },
        { url: p.url, contentType: type, charset: 'utf-8', bytes: Buffer.from(body), truncated: false },
        { url: p.url, status: 'success', title: p.title, text: p.text, lang: p.lang ?? 'en', outlinks: [], meta: { ...p.meta, noarchive: p.noarchive } },
      );
    }
    await writer.close();
    seg.markPhase('fetched');
    seg.markPhase('parsed');
    return seg.name;
  } finally {
    seg.close();
  }
}

export function inputDoc(p: FixturePage, segment: string, tstamp: number): IndexInputDoc {
  const u = new URL(p.url);
  return {
    url: p.url,
    title: p.title,
    host: u.hostname,
    site: u.hostname,
    domain: u.hostname.split('.').slice(-2).join('.'),
    type: p.type ?? 'text/html',
    lang: p.lang ?? 'en',
    date: p.date ?? new Date(tstamp).toISOString().slice(0, 10).replace(/-/g, ''),
    tstamp,
    digest: `d-${p.url}`,
    boost: p.boost ?? 1,
    segment,
    contentLength: Buffer.byteLength(p.body ?? p.text),
    anchors: p.anchors ?? [],
    noarchive: p.noarchive,
    content: p.text,
  };
}

/** Indexes documents (with the analyzer the configuration gives the indexer) and publishes them as the crawl's new merged index generation. */
export async function publishDocs(crawlDir: string, docs: IndexInputDoc[]): Promise<string> {
  const writer = new IndexWriter({ analyzer: Analyzer.fromConf(Conf.load()), segments: docs.map((d) => d.segment) });
  for (const d of docs) writer.add(d);
  const cur = await publishIndex(path.join(crawlDir, 'index'), async (dir) => void (await writer.write(dir)), { graceMs: 60_000 });
  return cur.generation;
}

/** A whole crawl directory: one segment holding the pages, and the merged index over them. */
export async function buildCrawl(crawlDir: string, pages: FixturePage[]): Promise<void> {
  const now = new Date(Date.UTC(2024, 4, 1, 12));
  const segment = await storeSegment(crawlDir, pages, now);
  await publishDocs(crawlDir, pages.map((p) => inputDoc(p, segment, now.getTime())));
}

/** Builds a crawl of `pages` in a temporary directory, opens it as the searcher does, and hands `use` its snapshot; removes it all after. */
export async function withCrawlSnapshot<T>(pages: FixturePage[], use: (snap: Snapshot) => T | Promise<T>): Promise<T> {
  const dir = tempCrawlDir();
  try {
    await buildCrawl(dir, pages);
    const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()));
    const lease = snaps.acquire();
    try {
      return await use(lease.snapshot);
    } finally {
      lease.release();
      await snaps.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
