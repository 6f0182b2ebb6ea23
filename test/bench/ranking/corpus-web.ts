/**
 * The judged corpus as every engine of the ranking benchmark sees it: the
 * same HTML (judgedHtml) served over loopback for the crawlers (hazelnut,
 * ht://Dig), with Last-Modified set to the page's fetch time, and written as
 * files for Omega, whose indexer reads the file system; the file → URL map
 * turns Omega's results back into the served URLs.
 *
 * Many corpus pages are linked from nowhere (most news posts, print views,
 * archived copies), so a crawl from the home pages would index a smaller,
 * easier corpus: both crawlers are seeded with every page URL instead, as a
 * site map would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { judgedHtml, judgedPages, JUDGED_HOSTS, pageUrl, type JudgedHost } from '../../judged/corpus.js';

export interface CorpusWeb {
  web: TestWeb;
  base: (h: JudgedHost) => string;
  /** Every page URL, in corpus order. */
  urls: string[];
  /** The served origins, one per host. */
  origins: string[];
}

export async function serveCorpus(block: string): Promise<CorpusWeb> {
  const web = await startTestWeb({ block, record: false, hosts: Object.fromEntries(JUDGED_HOSTS.map((h) => [h, { pages: {} }])) });
  const base = (h: JudgedHost) => web.origin(h);
  const pages = judgedPages();
  for (const p of pages) web.setPage(p.host, p.path, { body: judgedHtml(p, base), lastModified: new Date(p.fetchTime) });
  return { web, base, urls: pages.map((p) => pageUrl(p, base)), origins: JUDGED_HOSTS.map(base) };
}

/**
 * Writes each page as `<dir>/<host><path>.html` (`/` → `index.html`) with
 * its fetch time as mtime; returns the map from the path Omega reports
 * (`/<host>/….html`, with omindex's default base URL `/`) to the served URL.
 */
export function writeCorpusFiles(dir: string, base: (h: JudgedHost) => string): Map<string, string> {
  const map = new Map<string, string>();
  for (const p of judgedPages()) {
    const rel = `/${p.host}${p.path === '/' ? '/index' : p.path}.html`;
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, judgedHtml(p, base));
    const t = new Date(p.fetchTime);
    fs.utimesSync(file, t, t);
    map.set(rel, pageUrl(p, base));
  }
  return map;
}
