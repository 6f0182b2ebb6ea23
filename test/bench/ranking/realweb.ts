/**
 * realweb (Python, PostgreSQL and Apache httpd documentation served on
 * loopback by ../shared/realweb, with 40 keyword and 16 question queries in
 * two files and its own scorer) as hazelnut meets it: the second tuning set
 * beside devweb, so a ranking change is judged on documentation of other
 * kinds than the one it was made on. The set lives outside the repository:
 * `REALWEB_DIR`, else `../shared/realweb` from the checkout or from the
 * directory holding the worktrees.
 */
import fs from 'node:fs';
import path from 'node:path';
import { run } from './exec.js';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
export const REALWEB_SITES = ['127.0.2.1', '127.0.2.2', '127.0.2.3'].map((h) => `http://${h}:8900/`);
/** The two query sets: file name in the set's folder and what the bench calls it. */
export const REALWEB_SETS = [
  { kind: 'keyword', file: 'queries.tsv', suffix: '' },
  { kind: 'question', file: 'queries_nl.tsv', suffix: '_nl' },
] as const;

/** The realweb folder, or undefined when there is none. */
export function realwebDir(): string | undefined {
  const tries = [process.env.REALWEB_DIR, path.resolve(root, '..', 'shared', 'realweb'), path.resolve(root, '..', '..', 'shared', 'realweb')];
  return tries.find((d) => d && fs.existsSync(path.join(d, 'eval.mjs')) && fs.existsSync(path.join(d, 'queries_nl.tsv')));
}

/** The queries of one of the set's files, in file order. */
export function realwebQueries(dir: string, file: string): { q: string; relevant: string[] }[] {
  return fs
    .readFileSync(path.join(dir, file), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const [q, ...relevant] = l.split('\t').map((c) => c.trim());
      return { q: q!, relevant: relevant.filter(Boolean) };
    });
}

export interface RealwebScores {
  n: number;
  'MRR@10': number;
  'P@1': number;
  'R@10': number;
  'S@10': number;
}

export interface RealwebEval {
  overall: RealwebScores;
  groups: Record<string, RealwebScores>;
  per_query: { query: string; group: string; firstRelRank: number | null }[];
}

/** Scores a results file against one query file with the set's own eval.mjs. */
export async function evaluateRealweb(dir: string, resultsFile: string, queriesFile: string): Promise<RealwebEval> {
  const r = await run(process.execPath, [path.join(dir, 'eval.mjs'), resultsFile, path.join(dir, queriesFile), '--json'], { timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`eval.mjs ${resultsFile} exited ${r.code}: ${r.err}`);
  return JSON.parse(r.out) as RealwebEval;
}
