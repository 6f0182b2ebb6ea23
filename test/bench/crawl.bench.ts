/**
 * Crawl at scale: the one-shot `crawl` of generated documentation-like webs
 * (crawl-web.ts: 10–20 KB pages, 20 links each) of 10k and 25k pages — 50k
 * and 100k too with `npm run bench -- crawl --large` — beside the bare
 * fetch + link-extraction loop over the same web in the same run. Each run
 * is its own process (crawl-child.ts), so its peak RSS is its own, built with
 * the commands (shared/build.js), so it loads as `hazelnut crawl` does; the
 * web is served from a third. Per size: pages/s of the whole crawl and of each
 * phase against the bare loop, and time per page per phase, so a stage whose
 * cost grows with the crawl shows in the growth column.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crawlDisk, diskTable } from './crawl-disk.js';
import { child, CRAWL_PHASES as PHASES, crawlBuild, sampleMappings, type Bare, type Crawl } from './crawl-process.js';
import { roundsToReach } from './crawl-web.js';

const SIZES = [
  { label: '10k', hosts: 20, pages: 500 },
  { label: '25k', hosts: 25, pages: 1000 },
];
const LARGE = [
  { label: '50k', hosts: 50, pages: 1000 },
  { label: '100k', hosts: 100, pages: 1000 },
];

async function measure(size: (typeof SIZES)[number], build: URL) {
  const web = child<{ origins: string[] }>('crawl-web.ts', { block: '127.0.15', hosts: size.hosts, pages: size.pages }, { keep: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-crawl-'));
  try {
    const { origins } = await web.result;
    process.stderr.write(`  ${size.label}: bare loop …\n`);
    const bare = await child<Bare>('crawl-child.ts', { mode: 'bare', origins, pages: size.pages }, { build }).result;
    process.stderr.write(`  ${size.label}: crawl …\n`);
    const run = child<Crawl>('crawl-child.ts', { mode: 'crawl', origins, pages: size.pages, dir: tmp, depth: roundsToReach(size.pages), sampleMs: 20, eta: true }, { build });
    const mappings = sampleMappings(run.pid, 20);
    const crawl = { ...(await run.result), mappings: mappings() };
    const total = size.hosts * size.pages;
    if (bare.pages !== total || crawl.fetched !== total || crawl.documents !== total)
      throw new Error(`${size.label}: expected ${total} pages; bare loop ${bare.pages}, crawl fetched ${crawl.fetched}, indexed ${crawl.documents}`);
    const disk = crawlDisk(path.join(tmp, 'crawl'));
    process.stderr.write(`  ${size.label}: ${JSON.stringify({ bare, crawl, disk })}\n`);
    return { size, total, bare, crawl, disk };
  } finally {
    web.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export default async function bench(): Promise<{ title: string; markdown: string }> {
  const only = process.argv.find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length).split(',');
  // Smallest first: the growth column reads from the smaller crawl to the larger.
  const all = [{ label: '1k', hosts: 4, pages: 250 }, ...SIZES, ...LARGE];
  const sizes = only ? all.filter((s) => only.includes(s.label)) : process.argv.includes('--large') ? [...SIZES, ...LARGE] : SIZES;
  const runs: Run[] = [];
  const build = await crawlBuild();
  const load = [os.loadavg()[0]!];
  for (const s of sizes) {
    runs.push(await measure(s, build));
    load.push(os.loadavg()[0]!);
  }
  return report(runs, load);
}

type Run = Awaited<ReturnType<typeof measure>>;

/** The section for measured runs, smallest first, and the load average before and after each. */
export function report(runs: Run[], load: number[]): { title: string; markdown: string } {
  const rate = (pages: number, ms: number) => (ms > 0 ? (pages * 1000) / ms : Infinity);
  const summary = [
    '| pages (hosts × pages) | bare loop pages/s | crawl pages/s | crawl ÷ bare | fetch phase pages/s | fetch ÷ bare | peak RSS crawl | peak RSS bare |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map((r) => {
      const b = rate(r.total, r.bare.ms);
      const c = rate(r.total, r.crawl.ms);
      const f = rate(r.total, r.crawl.phases.fetch ?? 0);
      return `| ${r.size.label} (${r.size.hosts} × ${r.size.pages}) | ${b.toFixed(0)} | ${c.toFixed(0)} | **${(c / b).toFixed(2)}** | ${f.toFixed(0)} | **${(f / b).toFixed(2)}** | ${r.crawl.maxRssMB.toFixed(0)} MB | ${r.bare.maxRssMB.toFixed(0)} MB |`;
    }),
  ];
  const first = runs[0]!;
  const last = runs[runs.length - 1]!;
  const perPage = (r: Run, phase: string) => (r.crawl.phases[phase] ?? 0) / r.total;
  const phases = [
    `| phase | ${runs.map((r) => `ms/page at ${r.size.label}`).join(' | ')} | growth ${first.size.label} → ${last.size.label} |`,
    `|---|${runs.map(() => '---|').join('')}---|`,
    ...[...PHASES, 'whole crawl', 'CPU of the crawl (all threads)'].map((ph) => {
      const cell = (r: Run) => (ph === 'whole crawl' ? r.crawl.ms / r.total : ph.startsWith('CPU') ? r.crawl.cpuMs / r.total : perPage(r, ph));
      const growth = cell(first) > 0 ? (cell(last) / cell(first)).toFixed(2) : '–';
      return `| ${ph} | ${runs.map((r) => `${cell(r).toFixed(3)}`).join(' | ')} | ${runs.length > 1 ? `${growth}×` : '–'} |`;
    }),
  ];
  const memory = [
    `| peak RSS (MB) at the end of | ${runs.map((r) => r.size.label).join(' | ')} |`,
    `|---|${runs.map(() => '---|').join('')}`,
    ...PHASES.filter((ph) => ph !== 'inject').map((ph) => `| ${ph} | ${runs.map((r) => (r.crawl.peakRssMB[ph] ?? 0).toFixed(0)).join(' | ')} |`),
  ];
  const parts: [string, (r: Run) => number | string | undefined][] = [
    ['seconds into the crawl', (r) => r.crawl.mappings.atS],
    ['RSS', (r) => r.crawl.mappings.rss],
    ["malloc's main heap ([heap] in smaps)", (r) => r.crawl.mappings.brkHeap],
    ['other anonymous mappings (V8 heaps, threads, large buffers)', (r) => r.crawl.mappings.anon],
    ['mapped files (node, native modules)', (r) => r.crawl.mappings.files],
    ["the crawl's own highest sample: seconds in", (r) => r.crawl.sample.atS],
    ['… RSS', (r) => r.crawl.sample.rss],
    ["… main thread's V8 heap (in use)", (r) => r.crawl.sample.heapTotal && `${r.crawl.sample.heapTotal} (${r.crawl.sample.heapUsed})`],
    ['… ArrayBuffers (outside the heap)', (r) => r.crawl.sample.arrayBuffers],
  ];
  const eta = [
    '| fetch ETA, largest round | ' + runs.map((r) => r.size.label).join(' | ') + ' |',
    `|---|${runs.map(() => '---|').join('')}`,
    ...(
      [
        ['round (pages, seconds of fetch)', (e) => `${e.round} (${e.pages}, ${e.fetchS} s)`],
        ['readings judged (≥ 3 s left, past the first tenth)', (e) => e.judged],
        ['within 20 % of the time left', (e) => `${e.within20} (${e.judged ? Math.round((100 * e.within20) / e.judged) : 0} %)`],
        ['median / worst error', (e) => `${e.medianErrPct} % / ${e.worstErrPct} %`],
      ] as [string, (e: NonNullable<Run['crawl']['eta']>) => string | number][]
    ).map(([name, of]) => `| ${name} | ${runs.map((r) => (r.crawl.eta ? of(r.crawl.eta) : '–')).join(' | ')} |`),
  ];
  const made = [
    `| the highest RSS (MB) | ${runs.map((r) => r.size.label).join(' | ')} |`,
    `|---|${runs.map(() => '---|').join('')}`,
    ...parts.map(([name, of]) => `| ${name} | ${runs.map((r) => of(r) ?? '–').join(' | ')} |`),
  ];
  return {
    title: 'Crawl at scale: the one-shot crawl beside a bare fetch + link-extraction loop',
    markdown: [
      `Generated documentation-like webs (test/bench/crawl-web.ts): 10–20 KB pages of prose, 20 links each (6 in a nav bar, 12 to child pages, ` +
        `one on the same host, one to the next host), robots.txt, served from a child process on 127.0.15.x. ` +
        "The crawl is `hazelnut crawl` seeded with every host's `/`, delay 0, one connection per host, -threads = hosts, -depth just enough to reach every page; " +
        'the bare loop is undici `request` + htmlparser2 link extraction over the same pages with one connection per host, storing nothing. ' +
        'Each runs in its own process, from a build of the sources as the commands run (shared/build.js), with the environment bin/hazelnut gives them (`MALLOC_MMAP_THRESHOLD_=65536`: glibc maps every buffer of 64 KB or more on its own and unmaps it when freed); peak RSS is its `process.resourceUsage().maxRSS`, all its threads. ' +
        "The bench samples the crawl's RSS every 20 ms and, at each new high, its mappings (`/proc/<pid>/smaps`); the crawl samples its own " +
        '`process.memoryUsage()` every 20 ms as far as its main thread lets the timer run (not inside a synchronous phase such as merge): ' +
        'the last table says what the highest samples were made of.',
      '',
      ...summary,
      '',
      ...phases,
      '',
      ...memory,
      '',
      ...made,
      '',
      "The fetch's ETA (test/bench/fetch-eta.ts): every progress line of the crawl's largest round as a terminal sees it (ten a second), " +
        'its ETA set against the time from that line to the round\'s last fetch line.',
      '',
      ...eta,
      '',
      'The crawl directory on disk at the end, against the bytes of content it fetched (test/bench/crawl-disk.ts; target: whole directory ≤ 1.5× fetched):',
      '',
      ...diskTable(runs.map((r) => ({ label: r.size.label, pages: r.total, disk: r.disk }))),
      '',
      `Machine load (1-minute load average on ${os.cpus().length} cores) at the start and after each size: ${load.map((l) => l.toFixed(1)).join(', ')}; ` +
        'above the core count, other processes were taking CPU time from both the crawl and the bare loop, and the ratios are the figures to compare.',
      '',
      'What grows with the crawl, in memory: the fetcher\'s set of one segment\'s URLs, linkrank\'s typed arrays (8 bytes a link, 24 a page) ' +
        'and the index\'s term dictionary (the vocabulary, not the pages). updatedb stages a segment in a temporary SQLite file and merges it ' +
        'a thousand URLs at a time; invertlinks reads the URLs it rebuilds from the WebDB a thousand at a time; index and merge stream documents ' +
        'through spill files. On disk: the WebDB (about 20 link rows and as many inlink rows a page), the segments and, while a phase runs, its temporary files.',
      '',
      `Targets: crawl ÷ bare ≥ 0.40, fetch ÷ bare ≥ 0.70, growth of every phase ≤ 1.5 from 10k to 100k, peak RSS ≤ 300 MB at 10k and ≤ 1 GB at 100k. ` +
        'Command: `npm run bench -- crawl` (add `--large` for 50k and 100k, or `--sizes=1k,10k` for some sizes only).',
    ].join('\n'),
  };
}
