/**
 * Real documentation, crawled: the one-shot `crawl` of three real
 * documentation sites (realdocs-web.ts: the PostgreSQL, Python and Django
 * manuals, one host each) from their roots, delay 0, one connection per host,
 * beside the bare fetch + link-extraction loop over the pages that crawl
 * fetched, in the same run. Three rounds, each crawl in a fresh directory and
 * a process of its own, from a build of the commands (crawl-child.ts, as
 * `hazelnut crawl` runs). What the scale benchmark's generated pages cannot
 * show: pages of 50 KB on average and up to 2.5 MB, indexes of thousands of
 * links, pages that repeat their site's whole table of contents.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { child, CRAWL_PHASES, crawlBuild, sampleMappings, type Bare, type Crawl } from './crawl-process.js';
import { realdocsUnavailable, serveRealdocs, REALDOCS_SITES } from './realdocs-web.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const ROUNDS = 3;
const PHASES = CRAWL_PHASES.filter((ph) => ph !== 'inject');
const TITLE = 'Real documentation: the one-shot crawl of three documentation sites beside a bare fetch + link-extraction loop';

/** The URLs a crawl fetched, a list per origin, from `hazelnut readdb -dump`. */
function fetchedUrls(webdb: string, origins: string[], tmp: string): string[][] {
  const out = path.join(tmp, 'webdb.jsonl');
  execFileSync(process.execPath, [path.join(ROOT, 'crawler', 'hazelnut.js'), 'readdb', webdb, '-dump', out, '-format', 'json'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const lists = origins.map((): string[] => []);
  for (const line of fs.readFileSync(out, 'utf8').split('\n')) {
    if (!line) continue;
    const page = JSON.parse(line) as { url: string; status: string };
    if (page.status === 'db_fetched') lists[origins.indexOf(new URL(page.url).origin)]!.push(page.url);
  }
  return lists;
}

export default async function bench(): Promise<{ title: string; markdown: string }> {
  const unavailable = realdocsUnavailable();
  if (unavailable) return { title: TITLE, markdown: `Skipped: ${unavailable}.` };
  const build = await crawlBuild();
  const web = await serveRealdocs();
  const load = [os.loadavg()[0]!];
  const runs: { crawl: Crawl; bare: Bare }[] = [];
  let urls: string[][] | undefined;
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-realdocs-'));
      try {
        process.stderr.write(`  round ${round}: crawl …\n`);
        const run = child<Crawl>('crawl-child.ts', { mode: 'crawl', origins: web.origins, pages: 0, dir: tmp, depth: 20, sampleMs: 20 }, { build });
        const mappings = sampleMappings(run.pid, 20);
        const crawl = { ...(await run.result), mappings: mappings() };
        urls ??= fetchedUrls(path.join(tmp, 'crawl', 'webdb'), web.origins, tmp);
        process.stderr.write(`  round ${round}: bare loop over the ${urls.flat().length} pages fetched …\n`);
        const bare = await child<Bare>('crawl-child.ts', { mode: 'bare', origins: web.origins, pages: 0, urls }, { build }).result;
        process.stderr.write(`  round ${round}: ${JSON.stringify({ bare, crawl })}\n`);
        runs.push({ crawl, bare });
        load.push(os.loadavg()[0]!);
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    }
  } finally {
    web.stop();
  }
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const pages = urls!.flat().length;
  const summary = [
    '| round | pages fetched | documents | whole crawl | crawl pages/s | bare loop | crawl ÷ bare | fetch phase | fetch ÷ bare | CPU of the crawl (all threads) | peak RSS crawl | peak RSS bare |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(
      ({ crawl, bare }, i) =>
        `| ${i + 1} | ${crawl.fetched} | ${crawl.documents} | **${s(crawl.ms)} s** | ${((crawl.fetched * 1000) / crawl.ms).toFixed(0)} | ${s(bare.ms)} s | **${(bare.ms / crawl.ms).toFixed(2)}** | ` +
        `${s(crawl.phases.fetch ?? 0)} s | **${(bare.ms / (crawl.phases.fetch ?? Infinity)).toFixed(2)}** | ${s(crawl.cpuMs)} s | ${crawl.maxRssMB.toFixed(0)} MB | ${bare.maxRssMB.toFixed(0)} MB |`,
    ),
  ];
  const phases = [
    `| phase (s) | ${runs.map((_, i) => `round ${i + 1}`).join(' | ')} | ms a page (median) |`,
    `|---|${runs.map(() => '---|').join('')}---|`,
    ...PHASES.map((ph) => {
      const t = runs.map((r) => r.crawl.phases[ph] ?? 0);
      const median = [...t].sort((a, b) => a - b)[Math.floor(t.length / 2)]!;
      return `| ${ph} | ${t.map(s).join(' | ')} | ${(median / pages).toFixed(3)} |`;
    }),
  ];
  return {
    title: TITLE,
    markdown: [
      `The HTML manuals of three Debian packages (${web.packages.join(', ')}), each served as its own host (${REALDOCS_SITES.map((x) => x.host).join(', ')}) ` +
        'by a private nginx with gzip, from test/bench/realdocs-web.ts (it downloads the packages with `apt-get download` into REALDOCS_DIR, else <tmp>/hazelnut-realdocs, and unpacks them there). ' +
        "The crawl is `hazelnut crawl` seeded with the three roots, delay 0, one connection per host, -threads 3, -depth 20 (it stops when nothing is left), in a process of its own from a build of the commands; " +
        `the bare loop is undici \`request\` + htmlparser2 link extraction over the ${pages} pages the first crawl fetched, one connection per host, bodies decompressed, nothing stored. ` +
        `${ROUNDS} rounds, crawl then bare loop; ratios are of the same round.`,
      '',
      ...summary,
      '',
      ...phases,
      '',
      `Machine load (1-minute load average on ${os.cpus().length} cores) at the start and after each round: ${load.map((l) => l.toFixed(1)).join(', ')}.`,
      '',
      'Target: the one-shot crawl of about 4.4k real documentation URLs on 3 hosts in ≤ 15 s. Command: `npm run bench -- realdocs`.',
    ].join('\n'),
  };
}
