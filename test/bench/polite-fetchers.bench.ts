/**
 * Many fetchers where politeness, not CPU, bounds the fetch: 40 hosts (the
 * fetchers bench's web), 8 pages each, `fetcher.server.delay` 1 s, one
 * connection per host, answers at once; the fetch step alone (generate
 * -numFetchers N, then N `hazelnut fetch` processes on addresses of their
 * own) with N = 1, 2, 4, in the same run, ratios against N = 1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fetchRun, startWeb } from './fetchers.bench.js';

const PAGES = 8;
const FETCHERS = [1, 2, 4];
const DELAY = ['-D', 'fetcher.server.delay=1'];

export default async function bench(): Promise<{ title: string; markdown: string }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-polite-'));
  const load = os.loadavg()[0]!;
  const web = await startWeb(0);
  const rows: { n: number; pagesPerS: number }[] = [];
  try {
    for (const n of FETCHERS) {
      process.stderr.write(`  ${n} fetchers …\n`);
      const r = await fetchRun(web.origins, n, tmp, PAGES, DELAY);
      rows.push({ n, pagesPerS: (r.pages * 1000) / r.ms });
    }
  } finally {
    web.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const base = rows[0]!.pagesPerS;
  return {
    title: 'Many fetchers against a polite web: pages/s with 1, 2 and 4 fetchers',
    markdown: [
      `${web.origins.length} hosts × ${PAGES} pages, \`fetcher.server.delay\` 1 s (robots.txt first, then a page a second on each host), answers at once; the fetch step only, every fetcher a process with 10 threads on a loopback address of its own, timed from their start to the last exit (process start included). Load average (1 min) ${load.toFixed(1)} at the start on ${os.cpus().length} cores.`,
      '',
      '| fetchers N | pages/s | × N = 1 |',
      '|---|---|---|',
      ...rows.map((r) => `| ${r.n} | ${r.pagesPerS.toFixed(1)} | ${(r.pagesPerS / base).toFixed(2)}× |`),
      '',
      'Command: `npm run bench -- polite`.',
    ].join('\n'),
  };
}
