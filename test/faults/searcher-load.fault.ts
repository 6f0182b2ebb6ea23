/**
 * The searcher as deployed (`hazelnut serve`, its own process) under a 60 s
 * loopback load from autocannon — searches, the JSON API, cached copies and
 * explanations — with a new index generation published halfway through: no
 * request may fail, the new generation must be served after the swap, and the
 * process's memory must stay flat.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCrawl, inputDoc, publishDocs, storeSegment, tempCrawlDir, type FixturePage } from '../searcher/crawl-fixture.js';
import { PAGES } from '../searcher/pages.js';

const HOST = '127.0.15.1';
const SECONDS = Number(process.env.HZ_LOAD_SECONDS ?? 60);
const BIN = path.resolve('crawler/hazelnut.js');
const EXTRA: FixturePage[] = Array.from({ length: 200 }, (_, i) => ({
  url: `http://load${i % 10}.test/page${i}`,
  title: `Load page ${i} about crawlers and search`,
  text: `Page ${i} talks about crawling, fetching, parsing and indexing the intranet. ${'word '.repeat(i % 50)}`,
}));
let dir = '';
let child: ChildProcess | undefined;

test.after(() => {
  child?.kill('SIGTERM');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

test(`${SECONDS} s of load with a hot index swap halfway: zero failed requests, flat memory`, async () => {
  dir = tempCrawlDir();
  const pages = [...PAGES, ...EXTRA];
  await buildCrawl(dir, pages);
  child = spawn(process.execPath, [BIN, '-D', 'searcher.index.poll.interval=1', 'serve', '-dir', dir, '-port', '0', '-host', HOST], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child!.stdout!.on('data', (d) => {
      out += d;
      const m = /at (http:\/\/\S+?)\/?\s/.exec(out);
      if (m) resolve(m[1]!);
    });
    child!.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 60_000);
  });

  const samples: { t: number; rss: number }[] = [];
  const started = Date.now();
  const sampler = setInterval(() => samples.push({ t: Date.now() - started, rss: rssOf(child!.pid!) }), 500);
  let swapped = '';
  const swap = setTimeout(async () => {
    const now = new Date(Date.UTC(2024, 5, 1));
    const fresh: FixturePage = { url: 'http://fresh.test/', title: 'Freshly swapped zebra page', text: 'zebra appears only in the new generation' };
    const seg = await storeSegment(dir, [fresh], now);
    const first = fs.readdirSync(path.join(dir, 'segments')).sort()[0]!;
    swapped = await publishDocs(dir, [...pages.map((p) => inputDoc(p, first, Date.UTC(2024, 4, 1, 12))), inputDoc(fresh, seg, now.getTime())]);
  }, (SECONDS * 1000) / 2);

  const enc = encodeURIComponent;
  const result = await autocannon({
    url,
    connections: 8,
    duration: SECONDS,
    requests: [
      { method: 'GET', path: '/search?query=crawler' },
      { method: 'GET', path: '/api/search?query=intranet+search' },
      { method: 'GET', path: `/search?query=${enc('"fetching parsing" site:load3.test')}` },
      { method: 'GET', path: `/cached?url=${enc(EXTRA[7]!.url)}` },
      { method: 'GET', path: `/explain?url=${enc(EXTRA[9]!.url)}&query=crawling` },
      { method: 'GET', path: '/search?query=zebra' },
    ],
  });
  clearInterval(sampler);
  clearTimeout(swap);

  const after = await (await fetch(`${url}/api/search?query=zebra`)).json() as { totalResults?: number; total?: number; hits?: unknown[] };
  // After a warm-up, the peak of the first half is compared with the peak of the last quarter.
  const rss = samples.filter((x) => x.t > (SECONDS * 1000) / 6);
  const mid = rss.filter((x) => x.t <= (SECONDS * 1000) / 2).map((x) => x.rss);
  const end = rss.filter((x) => x.t > (SECONDS * 1000 * 3) / 4).map((x) => x.rss);
  const mib = (n: number) => (n / 1048576).toFixed(0);
  console.log(
    `  ${result.requests.total} requests in ${SECONDS} s (${result.requests.average}/s), ${result.errors} errors, ${result.non2xx} non-2xx, ` +
      `${result.timeouts} timeouts; p99 ${result.latency.p99} ms; swapped to ${swapped || '(no swap)'}; RSS ${mib(Math.max(...mid))} MiB before the swap, ${mib(Math.max(...end))} MiB at the end`,
  );
  assert.ok(result.requests.total > 0);
  assert.is(result.errors, 0, 'no failed request');
  assert.is(result.timeouts, 0);
  assert.is(result.non2xx, 0);
  assert.ok(swapped, 'a new generation was published');
  assert.ok((after.hits?.length ?? 0) > 0, 'the new generation is served');
  assert.ok(Math.max(...end) < Math.max(...mid) + (64 << 20), `memory stays flat: ${mib(Math.max(...mid))} → ${mib(Math.max(...end))} MiB`);
});

test.run();
