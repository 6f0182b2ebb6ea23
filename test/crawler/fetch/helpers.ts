/** Shared by the fetch tests: a crawl directory in a temp dir, a hand-made generated segment, a test configuration. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Conf } from '../../../shared/conf.js';
import { Segment } from '../../../segments/segment.js';

export function tempCrawl(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hz-fetch-'));
}

/** A generated segment under `<crawl>/segments` with these URLs in this order. */
export function makeSegment(crawl: string, urls: string[]): string {
  const seg = Segment.create(path.join(crawl, 'segments'));
  seg.addFetchlist(urls.map((url) => ({ url, host: new URL(url).host, score: 1, datum: {} })));
  seg.markPhase('generated');
  seg.close();
  return seg.dir;
}

/** Tiny delays so politeness is measurable but the suite stays fast. */
export function testConf(overrides: Record<string, string> = {}): Conf {
  return Conf.load({
    overrides: {
      'http.agent.name': 'HzTest',
      'fetcher.server.delay': '0.05',
      'http.timeout': '1000',
      'http.timeout.total': '3000',
      ...overrides,
    },
  });
}
