/**
 * Ranking and speed on real documentation: devweb (../shared/devweb: SQLite,
 * Git, Node.js and the Debian handbook served on loopback, 60 judged
 * queries). hazelnut crawls it with the one-shot crawl and the shipped
 * settings, answers the queries with `search()` on the published index, and
 * the set's own eval.mjs scores the result beside the rankings of Xapian
 * Omega and ht://Dig that the set ships (results/*.tsv, made by its
 * baselines.sh); then the winner per query, how much of the reachable site
 * the crawl reached, in-process latency over the 60 queries and
 * `/api/search` throughput beside a trivial hono route in the same run.
 * Skipped, saying why, when devweb is not served.
 * Run: npm run bench -- ranking   (or -- devweb)
 */
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { Conf } from '../../shared/conf.js';
import { listSegments, Segment } from '../../segments/segment.js';
import { searchJson } from '../../searcher/http/api.js';
import { hitDetails } from '../../searcher/details.js';
import { search, type SearchResult } from '../../searcher/search.js';
import { startSearcher } from '../../searcher/server.js';
import { cannon, wholeMs as ms } from './cannon.js';
import type { BenchResult } from './run.js';
import { crawlDevweb, DEVWEB_CRAWL_ARGS, DEVWEB_SITES, devwebDir, devwebQueries, devwebSearcher, devwebUnavailable, evaluate, resultsTsv, type EvalResult } from './ranking/devweb.js';
import { run } from './ranking/exec.js';

const HOST = '127.0.11.7';
const BASELINES: [string, string][] = [
  ['Xapian Omega, DEFAULTOP=or', 'omega-or.tsv'],
  ['Xapian Omega, DEFAULTOP=and', 'omega-and.tsv'],
  ['ht://Dig, method=and', 'htdig-and.tsv'],
  ['ht://Dig, method=or', 'htdig-or.tsv'],
];

const f3 = (x: number) => x.toFixed(3);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const rankOf = (r: EvalResult, i: number) => r.per_query[i]?.first_relevant_rank ?? 0;
const rr = (rank: number) => (rank > 0 ? 1 / rank : 0);

/** HTML pages the crawl fetched, and the URLs a breadth-first walk of the sites reaches (devweb's crawl.mjs). */
async function coverage(dir: string, crawlDir: string, tmp: string): Promise<{ reachable: string[]; missing: string[] }> {
  const fetched = new Set<string>();
  const segs = path.join(crawlDir, 'segments');
  for (const name of listSegments(segs)) {
    const seg = Segment.open(path.join(segs, name), { readonly: true });
    for (const f of seg.fetches()) if (f.status === 'fetch_success' && /html/.test(f.contentType ?? '')) fetched.add(f.url);
    seg.close();
  }
  const env = { ...process.env, DEVWEB_RUN: path.join(tmp, 'devweb-run') };
  // With seeds on the command line crawl.mjs leaves the set's pagecounts.tsv alone.
  await run(process.execPath, [path.join(dir, 'crawl.mjs'), ...DEVWEB_SITES], { env, timeoutMs: 300_000 });
  const urlDir = path.join(env.DEVWEB_RUN, 'urls');
  const reachable = fs.existsSync(urlDir) ? fs.readdirSync(urlDir).flatMap((f) => fs.readFileSync(path.join(urlDir, f), 'utf8').split('\n').filter(Boolean)) : [];
  return { reachable, missing: reachable.filter((u) => !fetched.has(u)) };
}

export default async function devwebBench(): Promise<BenchResult> {
  const title = 'Ranking and speed on devweb: real documentation, hazelnut vs Xapian Omega vs ht://Dig';
  const dir = devwebDir();
  const why = await devwebUnavailable(dir);
  if (why || !dir) return { title, markdown: `Skipped: ${why}.` };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-devweb-'));
  try {
    const crawl = await crawlDevweb(tmp);
    const queries = devwebQueries(dir);
    const hz = await devwebSearcher(crawl.dir);
    const variants: [string, number | undefined][] = [
      ['hazelnut, ungrouped (hitsPerSite 0)', 0],
      ['hazelnut, as served (searcher.hits.per.site)', undefined],
    ];
    const runs: [string, EvalResult][] = [];
    for (const [label, hitsPerSite] of variants) {
      const file = path.join(tmp, `hz-${runs.length}.tsv`);
      fs.writeFileSync(file, resultsTsv(queries.map(({ q }) => ({ q, urls: hz.rank(q, hitsPerSite) }))));
      runs.push([label, await evaluate(dir, file)]);
    }
    hz.close();
    for (const [label, file] of BASELINES) if (fs.existsSync(path.join(dir, 'results', file))) runs.push([label, await evaluate(dir, path.join(dir, 'results', file))]);

    const sites = Object.keys(runs[0]![1].sites).sort();
    const table = [
      `| engine | all (${queries.length}) MRR@10 · P@1 · S@10 | keyword (${runs[0]![1].keyword.n}) | questions (${runs[0]![1].question.n}) | ${sites.map((s) => s.split(':')[0]).join(' | ')} |`,
      `|---|---|---|---|${sites.map(() => '---|').join('')}`,
      ...runs.map(
        ([label, r]) =>
          `| ${label} | **${f3(r.all['MRR@10'])}** · ${f3(r.all['P@1'])} · ${f3(r.all['S@10'])} | ${f3(r.keyword['MRR@10'])} | ${f3(r.question['MRR@10'])} | ${sites.map((s) => f3(r.sites[s]!['MRR@10'])).join(' | ')} |`,
      ),
    ];

    // Per query: hazelnut (ungrouped) against the best baseline run overall.
    const hzr = runs[0]![1];
    const baseRuns = runs.slice(variants.length);
    const best = [...baseRuns].sort((a, b) => b[1].all['MRR@10'] - a[1].all['MRR@10'])[0];
    const perQuery = [
      `| query | kind | hazelnut | ${baseRuns.map(([l]) => l.replace('Xapian ', '').replace(', DEFAULTOP=', ' ').replace(', method=', ' ')).join(' | ')} | winner |`,
      `|---|---|---|${baseRuns.map(() => '---|').join('')}---|`,
      ...queries.map(({ q, kind }, i) => {
        const mine = rr(rankOf(hzr, i));
        const top = Math.max(...baseRuns.map(([, r]) => rr(rankOf(r, i))));
        const winner = mine > top ? 'hazelnut' : mine < top ? baseRuns.filter(([, r]) => rr(rankOf(r, i)) === top).map(([l]) => l.split(',')[0]).filter((l, k, a) => a.indexOf(l) === k).join(', ') : 'tie';
        const cell = (r: EvalResult) => String(rankOf(r, i) || '–');
        return `| ${q} | ${kind} | ${cell(hzr)} | ${baseRuns.map(([, r]) => cell(r)).join(' | ')} | ${winner} |`;
      }),
    ];
    const wins = queries.map((_, i) => Math.sign(rr(rankOf(hzr, i)) - Math.max(...baseRuns.map(([, r]) => rr(rankOf(r, i))))));

    const cov = await coverage(dir, crawl.dir, tmp);
    const dropped = /links dropped\s+(.*)/.exec(crawl.summary)?.[1] ?? '?';
    const indexed = /documents indexed\s+(\d+)/.exec(crawl.summary)?.[1] ?? '?';

    // Speed: in process over the 60 queries, then /api/search under load beside a trivial route.
    const load = os.loadavg();
    const s = await startSearcher(Conf.load(), { dir: crawl.dir, port: 0, host: HOST });
    const trivialApp = new Hono().get('/', (c) => c.json({ ok: true }));
    const trivial = createAdaptorServer({ fetch: trivialApp.fetch }) as Server;
    await new Promise<void>((r) => trivial.listen(0, HOST, r));
    let speed: string;
    try {
      const lease = s.snapshots.acquire();
      for (const { q } of queries) search(lease.snapshot, { query: q, hitsPerSite: 0 });
      const times: number[] = [];
      const pageMs: number[] = [];
      // Summaries alone, from the parts of the text around the query words and (interleaved, the baseline) from the whole text.
      const partsMs: number[] = [];
      const wholeMs: number[] = [];
      const summaries = (r: SearchResult, wholeText: boolean) => {
        const a = performance.now();
        for (const h of r.hits) hitDetails(lease.snapshot, h, r, { words: wholeText ? 'whole' : 'scanned' });
        return performance.now() - a;
      };
      for (let pass = 0; pass < 5; pass++)
        for (const { q } of queries) {
          const a = performance.now();
          const r = search(lease.snapshot, { query: q, hitsPerSite: 0 });
          const b = performance.now();
          JSON.stringify(searchJson(lease.snapshot, r));
          times.push(b - a);
          pageMs.push(performance.now() - b);
          const whole = pass % 2 === 0;
          (whole ? wholeMs : partsMs).push(summaries(r, whole));
          (whole ? partsMs : wholeMs).push(summaries(r, !whole));
        }
      lease.release();
      const base = await cannon(`http://${HOST}:${(trivial.address() as AddressInfo).port}/`);
      const api = await cannon(s.url, queries.map(({ q }) => `/api/search?query=${encodeURIComponent(q)}`));
      speed = [
        `| what | p50 ms | p99 ms | req/s | vs trivial route |`,
        `|---|---|---|---|---|`,
        `| search() in process, devweb's 60 queries × 5 after a warm-up pass | ${pct(times, 50).toFixed(2)} | ${pct(times, 99).toFixed(2)} | – | – |`,
        `| summaries + JSON of the page of 10 hits (in process, what /api/search adds) | ${pct(pageMs, 50).toFixed(2)} | ${pct(pageMs, 99).toFixed(2)} | – | – |`,
        `| summaries of the page's hits, the parts of each text around the query words analyzed | ${pct(partsMs, 50).toFixed(2)} | ${pct(partsMs, 99).toFixed(2)} | – | – |`,
        `| summaries of the page's hits, each whole text analyzed (baseline, interleaved with the row above) | ${pct(wholeMs, 50).toFixed(2)} | ${pct(wholeMs, 99).toFixed(2)} | – | – |`,
        `| trivial hono \`c.json\` route (baseline) | ${ms(base.p50)} | ${ms(base.p99)} | ${base.rps.toFixed(0)} | 1 |`,
        `| \`/api/search\`, the 60 queries in turn (search + summaries + JSON) | ${ms(api.p50)} | ${ms(api.p99)} | ${api.rps.toFixed(0)} | ${(api.rps / base.rps).toFixed(3)} |`,
        '',
        `Summaries of a page from the parts of its texts around the query words take ${(pct(partsMs, 50) / pct(wholeMs, 50)).toFixed(2)}× the time of analyzing each whole text at p50, ${(pct(partsMs, 99) / pct(wholeMs, 99)).toFixed(2)}× at p99 (same run, interleaved). ` +
          `autocannon: 16 connections, 6 s each, loopback ${HOST}, server and client sharing the cores; errors: ${api.errors + base.errors}. ` +
          `Load average when the speed runs began: ${load.map((x) => x.toFixed(1)).join(', ')} on ${os.cpus().length} cores (other work on the machine shares them).`,
      ].join('\n');
    } finally {
      await new Promise((r) => trivial.close(r));
      await s.close();
    }

    return {
      title,
      markdown: [
        `The four devweb sites (${dir}, see its README) crawled by \`hazelnut crawl\` from their roots with the shipped settings (${(crawl.ms / 1000).toFixed(1)} s), ` +
          `the ${queries.length} judged queries asked of \`search()\` on the published index, the top 10 scored by devweb's \`eval.mjs\`. ` +
          'The baselines are the rankings devweb ships in `results/` (its `baselines.sh`: Omega indexes the reachable files, ht://Dig crawls over HTTP).',
        '',
        ...table,
        '',
        `Coverage: the crawl fetched ${cov.reachable.length - cov.missing.length} of the ${cov.reachable.length} HTML URLs reachable from the sites' roots${cov.missing.length ? ` (missing: ${cov.missing.slice(0, 5).join(', ')}${cov.missing.length > 5 ? ', …' : ''})` : ''}; ` +
          `${indexed} documents indexed after dedup; links dropped: ${dropped}.`,
        '',
        `**Per query** (rank of the first relevant hit, – = not in the top 10; winner = hazelnut against every baseline run): hazelnut wins ${wins.filter((w) => w > 0).length}, ` +
          `loses ${wins.filter((w) => w < 0).length}, ties ${wins.filter((w) => w === 0).length}; best baseline overall: ${best?.[0] ?? 'none'}.`,
        '',
        ...perQuery,
        '',
        '**Speed on the devweb index**',
        '',
        speed,
        '',
        `Commands: \`node crawler/hazelnut.js ${DEVWEB_CRAWL_ARGS.join(' ')} <tmp>/seeds.txt -dir <tmp>/crawl -depth 10\` (seeds: the four roots); ` +
          '`search(snapshot, { query, hitsPerPage: 10, hitsPerSite: 0 })`; `node eval.mjs <results.tsv> --json`. Run: `npm run bench -- ranking` (or `-- devweb`).',
      ].join('\n'),
    };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
