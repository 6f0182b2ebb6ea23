/**
 * The growth bench's query mix (growth-searcher.ts `queries()`: 1,000
 * queries of 1–3 Zipfian words) answered in one process as `/api/search`
 * answers it: search, summaries and the JSON, without HTTP. Prints one JSON
 * line: the CPU of each pass over the mix, in-process p50/p99 per query
 * length of the last pass, and an md5 of every answer (hits with urls,
 * scores and summaries, totals, facets; the timing left out; each hit's id and
 * unrounded score), so that two versions of the searcher can be shown to
 * answer alike. The searcher code
 * is loaded from `tree` (this checkout by default), the crawl only read.
 * Run: npx tsx test/bench/search-mix.ts <crawl dir> [tree] [passes] [answers file]
 * (under `node --cpu-prof --import tsx` to profile it).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { percentile, queries } from './growth-searcher.js';

const [crawlDir, treeArg, passesArg, answersFile] = process.argv.slice(2);
if (!crawlDir) {
  process.stderr.write('usage: search-mix.ts <crawl dir> [tree] [passes] [answers file]\n');
  process.exit(2);
}
const tree = path.resolve(treeArg ?? path.join(import.meta.dirname, '..', '..'));
const load = (m: string) => import(path.join(tree, m));
const { loadConf } = await load('shared/plugin/properties.ts');
const { searchSettings } = await load('searcher/settings.ts');
const { CrawlSnapshots } = await load('searcher/snapshot.ts');
const { search } = await load('searcher/search.ts');
const { searchJson } = await load('searcher/http/api.ts');

const snapshots = await CrawlSnapshots.open(path.resolve(crawlDir), searchSettings(await loadConf({})));
await snapshots.warmAfterStart();
const lease = snapshots.acquire();
const snap = lease.snapshot;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const mix = queries();
const passes: { cpuMs: number; wallMs: number; latency: { words: number; p50: number; p99: number }[] }[] = [];
const answers: string[] = [];
for (let pass = 0; pass < Math.max(1, Number(passesArg ?? 1)); pass++) {
  const c0 = cpuMs();
  const w0 = performance.now();
  const latency = [];
  for (const [k, qs] of mix.entries()) {
    const ms = [];
    for (const q of qs) {
      const t0 = performance.now();
      const r = search(snap, { query: q });
      const body = JSON.stringify(searchJson(snap, r));
      ms.push(performance.now() - t0);
      // The answer as served, and each hit's document id and unrounded score (the JSON rounds scores).
      if (pass === 0) answers.push(body.replace(/,"timing":\{[^}]*\}/, '') + JSON.stringify(r.hits.map((h: { id: number; score: number }) => [h.id, h.score])));
    }
    latency.push({ words: k + 1, p50: +percentile(ms, 50).toFixed(2), p99: +percentile(ms, 99).toFixed(2) });
  }
  passes.push({ cpuMs: Math.round(cpuMs() - c0), wallMs: Math.round(performance.now() - w0), latency });
}
lease.release();
snapshots.close();
if (answersFile) fs.writeFileSync(answersFile, answers.join('\n') + '\n');
const md5 = crypto.createHash('md5').update(answers.join('\n')).digest('hex');
process.stdout.write(JSON.stringify({ tree, queries: answers.length, md5, passes }) + '\n');
