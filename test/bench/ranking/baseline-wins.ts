/**
 * Where the classic engines beat hazelnut: for every judged query of devweb
 * and realweb (keyword and questions) on which Xapian Omega or ht://Dig
 * ranks a judged page above hazelnut's first judged hit, the ranks of each
 * engine and the score factors (as /explain shows them) of hazelnut's first
 * hit and of the judged page the best baseline put highest. The baselines'
 * rankings are the ones each set ships in its `results/`; hazelnut's are
 * asked of the crawls given (one-shot crawls of each set, as `npm run bench
 * -- ranking-devweb` and `-- ranking-realweb` make them), ungrouped, with the
 * shipped searcher settings or `-s` properties.
 * Run: npx tsx test/bench/ranking/baseline-wins.ts <devweb crawl> <realweb crawl> [-s name=value]...
 */
import fs from 'node:fs';
import path from 'node:path';
import { Conf } from '../../../shared/conf.js';
import { explainScore } from '../../../searcher/explain.js';
import { readQuery } from '../../../searcher/search.js';
import { searchSettings } from '../../../searcher/settings.js';
import { CrawlSnapshots } from '../../../searcher/snapshot.js';
import { devwebDir, devwebQueries } from './devweb.js';
import { factorLine } from './devweb-try.js';
import { topUrls } from './hazelnut.js';
import { REALWEB_SETS, realwebDir, realwebQueries } from './realweb.js';

/** Rank (1-based) of the first URL of `urls` that is judged, 0 when none of the first 10 is. */
export function firstJudged(urls: readonly string[], relevant: readonly string[]): number {
  const at = urls.slice(0, 10).findIndex((u) => relevant.includes(u));
  return at + 1;
}

/** A results file (`query<TAB>rank<TAB>url` lines) as each query's URLs in rank order. */
export function readRanking(tsv: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const rows = tsv
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .map((l) => l.split('\t'))
    .filter((c) => c.length >= 3 && Number.isFinite(Number(c[1])));
  rows.sort((a, b) => Number(a[1]) - Number(b[1]));
  for (const [q, , url] of rows) out.set(q!, [...(out.get(q!) ?? []), url!]);
  return out;
}

/**
 * The baselines that rank a judged page above hazelnut (rank 0: not in the
 * top 10), best first; empty when none does.
 */
export function baselineWins(hazelnut: number, baselines: Readonly<Record<string, number>>): { engine: string; rank: number }[] {
  const beats = (r: number) => r > 0 && (hazelnut === 0 || r < hazelnut);
  return Object.entries(baselines)
    .filter(([, r]) => beats(r))
    .map(([engine, rank]) => ({ engine, rank }))
    .sort((a, b) => a.rank - b.rank || a.engine.localeCompare(b.engine));
}

interface JudgedSet {
  name: string;
  crawl: string;
  queries: { q: string; relevant: string[] }[];
  /** Engine name → its results file. */
  baselines: Record<string, string>;
}

function sets(devCrawl: string, rwCrawl: string): JudgedSet[] {
  const dev = devwebDir();
  const rw = realwebDir();
  if (!dev || !rw) throw new Error('no devweb or realweb folder (set DEVWEB_DIR and REALWEB_DIR)');
  const devFiles = ['omega-or', 'omega-and', 'htdig-and', 'htdig-or'];
  const out: JudgedSet[] = [
    { name: 'devweb', crawl: devCrawl, queries: devwebQueries(dev), baselines: Object.fromEntries(devFiles.map((f) => [f, path.join(dev, 'results', `${f}.tsv`)])) },
  ];
  for (const s of REALWEB_SETS) {
    const files = ['omega', 'omegamand', 'htdig', 'htdigmor'];
    out.push({ name: `realweb ${s.kind}`, crawl: rwCrawl, queries: realwebQueries(rw, s.file), baselines: Object.fromEntries(files.map((f) => [f, path.join(rw, 'results', `${f}${s.suffix}.tsv`)])) });
  }
  return out;
}

function parseArgs(args: string[]): { crawls: string[]; search: Record<string, string> } {
  const out = { crawls: [] as string[], search: {} as Record<string, string> };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-s') {
      const kv = /^([^=\s]+)=(.*)$/.exec(args[++i] ?? '');
      if (!kv) throw new Error(`-s needs name=value, not ${args[i] ?? 'nothing'}`);
      out.search[kv[1]!] = kv[2]!;
    } else out.crawls.push(args[i]!);
  }
  if (out.crawls.length !== 2) throw new Error('give the devweb crawl and the realweb crawl');
  return out;
}

async function main(): Promise<void> {
  let a: ReturnType<typeof parseArgs>;
  let judged: JudgedSet[];
  try {
    a = parseArgs(process.argv.slice(2));
    for (const c of a.crawls) if (!fs.existsSync(path.join(c, 'index', 'CURRENT'))) throw new Error(`${c} holds no published index (index/CURRENT): not a finished crawl`);
    judged = sets(a.crawls[0]!, a.crawls[1]!);
  } catch (e) {
    console.error(`${(e as Error).message}\nusage: npx tsx test/bench/ranking/baseline-wins.ts <devweb crawl> <realweb crawl> [-s name=value]...`);
    process.exit(2);
  }
  const settings = searchSettings(Conf.load({ overrides: a.search }));
  for (const set of judged) {
    const snaps = await CrawlSnapshots.open(set.crawl, settings);
    try {
      const rank = topUrls(snaps);
      const baselines = Object.entries(set.baselines).map(([engine, file]) => [engine, readRanking(fs.readFileSync(file, 'utf8'))] as const);
      console.log(`${set.name}: queries where a baseline ranks a judged page above hazelnut (rank, – = not in the top 10)`);
      for (const { q, relevant } of set.queries) {
        const urls = rank(q, 0);
        const ours = firstJudged(urls, relevant);
        const theirs = Object.fromEntries(baselines.map(([engine, r]) => [engine, firstJudged(r.get(q) ?? [], relevant)]));
        const wins = baselineWins(ours, theirs);
        if (!wins.length) continue;
        const shown = (r: number) => (r ? String(r) : '–');
        console.log(`  ${q}  hazelnut ${shown(ours)} · ${Object.entries(theirs).map(([e, r]) => `${e} ${shown(r)}`).join(' · ')}`);
        const best = baselines.find(([engine]) => engine === wins[0]!.engine)![1].get(q)!;
        const lease = snaps.acquire();
        try {
          const snap = lease.snapshot;
          const { query } = readQuery(q, snap.analyzer, snap.settings);
          const page = (label: string, url: string | undefined) => {
            const id = url === undefined ? undefined : snap.reader.idOf(url);
            console.log(`    ${label}  ${url ?? 'nothing'}  ${id === undefined ? 'not indexed' : factorLine(explainScore(snap, id, query))}`);
          };
          page('hazelnut first', urls[0]);
          page(`${wins[0]!.engine} judged`, best[wins[0]!.rank - 1]);
        } finally {
          lease.release();
        }
      }
    } finally {
      snaps.close();
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) void main();
