/**
 * Ranking on realweb (../shared/realweb: the Python 3.11, PostgreSQL 15 and
 * Apache httpd 2.4 manuals served on loopback, 40 keyword queries and 16
 * plain-English questions), the second tuning set beside devweb: a change
 * to the ranking is kept only when it holds on both. hazelnut crawls the
 * three hosts with the one-shot crawl and the shipped settings, answers
 * both query files with `search()` on the published index, and the set's
 * own eval.mjs scores them beside the rankings of Xapian Omega and ht://Dig
 * the set ships (results/*.tsv); then every query hazelnut does not answer
 * first, with where the best classic engine put its answer. Skipped, saying
 * why, when realweb is not served. `REALWEB_CRAWL=<crawl dir>` reuses a
 * finished crawl of the three hosts instead of crawling.
 * Run: npm run bench -- ranking-realweb
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchResult } from './run.js';
import { crawlSites, DEVWEB_CRAWL_ARGS, devwebSearcher, resultsTsv, sitesUnavailable } from './ranking/devweb.js';
import { evaluateRealweb, REALWEB_SETS, REALWEB_SITES, realwebDir, realwebQueries, type RealwebEval } from './ranking/realweb.js';

/** Label, short label for the per-query table, results file stem. */
const BASELINES: [string, string, string][] = [
  ['Xapian Omega, BM25, op or', 'Omega or', 'omega'],
  ['Xapian Omega, op and', 'Omega and', 'omegamand'],
  ['ht://Dig, method and', 'ht://Dig and', 'htdig'],
  ['ht://Dig, method or', 'ht://Dig or', 'htdigmor'],
];

const f3 = (x: number) => x.toFixed(3);

export default async function realwebBench(): Promise<BenchResult> {
  const title = 'Ranking on realweb: Python, PostgreSQL and Apache httpd documentation, hazelnut vs Xapian Omega vs ht://Dig';
  const dir = realwebDir();
  if (!dir) return { title, markdown: 'Skipped: no realweb folder (set REALWEB_DIR).' };
  const reuse = process.env.REALWEB_CRAWL;
  const why = reuse ? undefined : await sitesUnavailable(dir, REALWEB_SITES);
  if (why) return { title, markdown: `Skipped: ${why}.` };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-realweb-'));
  try {
    const crawl = reuse ? { dir: reuse, ms: 0, summary: '' } : await crawlSites(tmp, REALWEB_SITES);
    const hz = await devwebSearcher(crawl.dir);
    // Per engine, per query file: the scores.
    const runs: { label: string; short: string; sets: RealwebEval[] }[] = [];
    const variants: [string, number | undefined][] = [
      ['hazelnut, ungrouped (hitsPerSite 0)', 0],
      ['hazelnut, as served (searcher.hits.per.site)', undefined],
    ];
    try {
      for (const [label, hitsPerSite] of variants) {
        const sets: RealwebEval[] = [];
        for (const set of REALWEB_SETS) {
          const file = path.join(tmp, `hz-${runs.length}${set.suffix}.tsv`);
          fs.writeFileSync(file, resultsTsv(realwebQueries(dir, set.file).map(({ q }) => ({ q, urls: hz.rank(q, hitsPerSite) }))));
          sets.push(await evaluateRealweb(dir, file, set.file));
        }
        runs.push({ label, short: label, sets });
      }
    } finally {
      hz.close();
    }
    for (const [label, short, name] of BASELINES) {
      const files = REALWEB_SETS.map((s) => path.join(dir, 'results', `${name}${s.suffix}.tsv`));
      if (files.every((f) => fs.existsSync(f))) runs.push({ label, short, sets: await Promise.all(REALWEB_SETS.map((s, i) => evaluateRealweb(dir, files[i]!, s.file))) });
    }

    const cell = (e: RealwebEval) => `**${f3(e.overall['MRR@10'])}** · ${f3(e.overall['P@1'])} · ${f3(e.overall['S@10'])}`;
    const hosts = (e: RealwebEval) => Object.keys(e.groups).sort();
    const table = [
      `| engine | keyword (${runs[0]!.sets[0]!.overall.n}) MRR@10 · P@1 · S@10 | questions (${runs[0]!.sets[1]!.overall.n}) MRR@10 · P@1 · S@10 | keyword ${hosts(runs[0]!.sets[0]!).join(' · ')} |`,
      '|---|---|---|---|',
      ...runs.map(({ label, sets }) => `| ${label} | ${cell(sets[0]!)} | ${cell(sets[1]!)} | ${hosts(runs[0]!.sets[0]!).map((h) => f3(sets[0]!.groups[h]?.['MRR@10'] ?? 0)).join(' · ')} |`),
    ];

    // Every query hazelnut (ungrouped) does not answer first, beside the best baseline's rank for it.
    const rank = (e: RealwebEval, i: number) => e.per_query[i]?.firstRelRank ?? 0;
    const misses: string[] = [];
    REALWEB_SETS.forEach((set, s) => {
      runs[0]!.sets[s]!.per_query.forEach((p, i) => {
        const mine = rank(runs[0]!.sets[s]!, i);
        if (mine === 1) return;
        const base = runs.slice(variants.length).map(({ short, sets }) => `${short} ${rank(sets[s]!, i) || '–'}`);
        misses.push(`| ${p.query} | ${set.kind} | ${mine || '–'} | ${base.join(' · ')} |`);
      });
    });

    return {
      title,
      markdown: [
        `The three realweb hosts (${dir}, see its README) crawled by \`hazelnut crawl\` from their roots with the shipped settings` +
          `${reuse ? ` (a finished crawl reused: ${reuse})` : ` (${(crawl.ms / 1000).toFixed(1)} s; ${/documents indexed\s+(\d+)/.exec(crawl.summary)?.[1] ?? '?'} documents indexed)`}, ` +
          'both query files asked of `search()` on the published index, the top 10 scored by realweb\'s `eval.mjs`. The baselines are the rankings realweb ships in `results/`.',
        '',
        ...table,
        '',
        `**Not first for hazelnut (ungrouped)**: ${misses.length} of ${runs[0]!.sets.reduce((n, e) => n + e.overall.n, 0)} queries (rank of the first relevant hit, – = not in the top 10).`,
        '',
        '| query | kind | hazelnut | baselines |',
        '|---|---|---|---|',
        ...misses,
        '',
        `Commands: \`node crawler/hazelnut.js ${DEVWEB_CRAWL_ARGS.join(' ')} <tmp>/seeds.txt -dir <tmp>/crawl -depth 10\` (seeds: \`serve.sh seeds\`); ` +
          '`search(snapshot, { query, hitsPerPage: 10, hitsPerSite })`; `node eval.mjs <results.tsv> <queries file> --json`. Run: `npm run bench -- ranking-realweb` (`REALWEB_CRAWL=<crawl dir>` reuses a crawl).',
      ].join('\n'),
    };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
