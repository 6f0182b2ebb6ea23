/**
 * Ranking against the engines hazelnut means to beat: hazelnut, Xapian
 * Omega and ht://Dig index the same judged corpus (test/judged/, served on
 * loopback for the crawlers, written as files for Omega) and answer the same
 * judged queries — the keyword and question sets of queries.ts and the
 * harder paraphrase set of hard-queries.ts — scored as MRR@10, P@1 and
 * recall@10. Baselines missing from the machine are installed from Debian
 * when apt-get can, and reported as skipped otherwise.
 * Run: npm run bench -- ranking
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchResult } from './run.js';
import { serveCorpus } from './ranking/corpus-web.js';
import type { EngineSetup } from './ranking/engine.js';
import { setupHazelnut } from './ranking/hazelnut.js';
import { setupHtdig } from './ranking/htdig.js';
import { setupOmega } from './ranking/omega.js';
import { rankingReport, type Row } from './ranking/report.js';
import { duplicateGroups, scoreSet, type SetScore } from './ranking/score.js';
import { HARD_QUERIES } from '../judged/hard-queries.js';
import { JUDGED_QUERIES, type JudgedQuery } from '../judged/queries.js';

const BLOCK = '127.0.12';
const SETS: [string, JudgedQuery[]][] = [
  ['keyword', JUDGED_QUERIES.filter((q) => q.kind === 'keyword')],
  ['questions', JUDGED_QUERIES.filter((q) => q.kind === 'question')],
  ['hard', HARD_QUERIES],
];

export default async function rankingBench(): Promise<BenchResult> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-bench-ranking-'));
  const corpus = await serveCorpus(BLOCK);
  const engines: [string, EngineSetup][] = [];
  try {
    const dir = (name: string) => {
      fs.mkdirSync(path.join(tmp, name));
      return path.join(tmp, name);
    };
    engines.push(['hazelnut', await setupHazelnut(dir('hazelnut'), corpus.urls)]);
    for (const [name, setup] of [
      ['Xapian Omega', () => setupOmega(dir('omega'), corpus.base)],
      ['ht://Dig', () => setupHtdig(dir('htdig'), corpus.urls, corpus.origins)],
    ] as const) {
      try {
        engines.push([name, await setup()]);
      } catch (e) {
        engines.push([name, { skipped: `failed: ${(e as Error).message.split('\n')[0]}` }]);
      }
    }

    const dups = duplicateGroups(corpus.base);
    const rows: Row[] = [];
    for (const [engine, s] of engines) {
      if ('skipped' in s) continue;
      for (const [i, v] of s.variants.entries()) {
        const sets: SetScore[] = [];
        for (const [name, qs] of SETS) sets.push(await scoreSet(v.rank, name, qs, corpus.base, dups));
        rows.push({ engine, label: v.label, primary: i === 0, sets });
      }
    }
    const hostOf = new Map(corpus.origins.map((o, i) => [o, ['docs', 'wiki', 'handbook', 'news'][i]!]));
    const pretty = (u: string) => (u ? `${hostOf.get(new URL(u).origin) ?? '?'}${new URL(u).pathname}` : 'nothing');
    return {
      title: 'Ranking: hazelnut vs Xapian Omega vs ht://Dig on the judged corpus',
      markdown: rankingReport({ rows, engines, sets: SETS.map(([name, qs]) => ({ name, n: qs.length })), pages: corpus.urls.length, pretty }),
    };
  } finally {
    for (const [, s] of engines) if (!('skipped' in s)) s.close?.();
    await corpus.web.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
