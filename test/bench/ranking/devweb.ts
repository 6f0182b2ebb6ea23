/**
 * devweb (real documentation served on loopback by ../shared/devweb, with 60
 * judged queries and its own scorer) as hazelnut meets it: the one-shot
 * crawl from the four sites' roots with the shipped settings, the searcher's
 * `search()` on the published index, results written in the format the
 * set's `eval.mjs` reads and scored by it, beside the baselines' rankings the
 * set ships in `results/` (Xapian Omega, ht://Dig). The set lives outside
 * the repository: `DEVWEB_DIR`, else `../shared/devweb` from the checkout
 * or from the directory holding the worktrees.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Conf } from '../../../shared/conf.js';
import { searchSettings } from '../../../searcher/settings.js';
import { CrawlSnapshots } from '../../../searcher/snapshot.js';
import { run, runOk } from './exec.js';
import { topUrls } from './hazelnut.js';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const HAZELNUT = path.join(root, 'crawler', 'hazelnut.js');
export const DEVWEB_SITES = ['127.0.4.1', '127.0.4.2', '127.0.4.3', '127.0.4.4'].map((h) => `http://${h}:8950/`);
export const DEVWEB_CRAWL_ARGS = ['-D', 'http.agent.name=hazelnutBench', '-D', 'fetcher.server.delay=0', 'crawl'];

/** The devweb folder, or undefined when there is none. */
export function devwebDir(): string | undefined {
  const tries = [process.env.DEVWEB_DIR, path.resolve(root, '..', 'shared', 'devweb'), path.resolve(root, '..', '..', 'shared', 'devweb')];
  return tries.find((d) => d && fs.existsSync(path.join(d, 'eval.mjs')) && fs.existsSync(path.join(d, 'queries.tsv')));
}

/** Why devweb cannot be measured now, or undefined when its sites answer. */
export async function devwebUnavailable(dir: string | undefined): Promise<string | undefined> {
  return dir ? sitesUnavailable(dir, DEVWEB_SITES) : 'no devweb folder (set DEVWEB_DIR)';
}

/** Why a served set's sites (`dir`, its folder with serve.sh) cannot be measured now, or undefined when they all answer. */
export async function sitesUnavailable(dir: string, sites: string[]): Promise<string | undefined> {
  for (const site of sites) {
    try {
      const r = await fetch(site, { signal: AbortSignal.timeout(5000) });
      await r.body?.cancel();
      if (r.status !== 200) return `${site} answers ${r.status}; start it with ${dir}/serve.sh start`;
    } catch {
      return `${site} does not answer; start it with ${dir}/serve.sh start`;
    }
  }
  return undefined;
}

export interface DevwebQuery {
  q: string;
  kind: 'keyword' | 'question';
  /** The judged URLs, the one a user would want first at the head. */
  relevant: string[];
}

/** The judged queries of queries.tsv, keyword ones (above `# questions`) first. */
export function devwebQueries(dir: string): DevwebQuery[] {
  let kind: DevwebQuery['kind'] = 'keyword';
  const out: DevwebQuery[] = [];
  for (const line of fs.readFileSync(path.join(dir, 'queries.tsv'), 'utf8').split(/\r?\n/)) {
    if (/^#\s*questions\b/i.test(line.trim())) kind = 'question';
    if (!line.trim() || line.startsWith('#')) continue;
    const [q, ...relevant] = line.split('\t').map((c) => c.trim());
    out.push({ q: q!, kind, relevant: relevant.filter(Boolean) });
  }
  return out;
}

/** The one-shot crawl of the four sites, as a user runs it; returns the crawl directory and its summary. */
export async function crawlDevweb(tmp: string, extra: string[] = []): Promise<{ dir: string; ms: number; summary: string }> {
  return crawlSites(tmp, DEVWEB_SITES, extra);
}

/** The one-shot crawl from `sites` with the bench's settings (and `extra` properties) into `<tmp>/crawl`. */
export async function crawlSites(tmp: string, sites: string[], extra: string[] = []): Promise<{ dir: string; ms: number; summary: string }> {
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, sites.join('\n') + '\n');
  const dir = path.join(tmp, 'crawl');
  const t0 = Date.now();
  const r = await runOk(process.execPath, [HAZELNUT, ...extra, ...DEVWEB_CRAWL_ARGS, seeds, '-dir', dir, '-depth', '10'], { cwd: root, timeoutMs: 600_000 });
  return { dir, ms: Date.now() - t0, summary: r.out };
}

export interface EvalScores {
  n: number;
  'MRR@10': number;
  'P@1': number;
  'R@10': number;
  'S@10': number;
}

export interface EvalResult {
  all: EvalScores;
  keyword: EvalScores;
  question: EvalScores;
  sites: Record<string, EvalScores>;
  per_query: { query: string; subset: string; first_relevant_rank: number | null; top10: string[] }[];
}

/** Scores a results file with the set's own eval.mjs. */
export async function evaluate(dir: string, resultsFile: string): Promise<EvalResult> {
  const r = await run(process.execPath, [path.join(dir, 'eval.mjs'), resultsFile, '--json'], { timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`eval.mjs ${resultsFile} exited ${r.code}: ${r.err}`);
  return JSON.parse(r.out) as EvalResult;
}

/** Rankings as eval.mjs reads them: `query<TAB>rank<TAB>url`. */
export function resultsTsv(ranked: { q: string; urls: string[] }[]): string {
  return ranked.flatMap(({ q, urls }) => urls.map((u, i) => `${q}\t${i + 1}\t${u}\n`)).join('');
}

/** A searcher over a crawl directory: the top 10 URLs of a query with the shipped settings (and overrides). */
export async function devwebSearcher(crawlDir: string) {
  const snaps = await CrawlSnapshots.open(crawlDir, searchSettings(Conf.load()));
  return { docs: snaps.current.reader.meta.docCount, rank: topUrls(snaps), close: () => snaps.close() };
}
