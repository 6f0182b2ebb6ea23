/**
 * Tries a ranking or indexing change on devweb without crawling again. The
 * crawl directory given (a finished one-shot crawl of the four sites:
 * `node crawler/hazelnut.js -D http.agent.name=hazelnutBench -D
 * fetcher.server.delay=0 crawl <seeds> -dir <crawl> -depth 10`) is
 * re-indexed into two copies of its segments (index, dedup, merge), one
 * with the shipped settings and one with the `-i` properties, timed in the
 * same run; with no `-i` the crawl's own index serves both sides. The 60
 * queries are asked of each side, the variant's with the `-s` searcher
 * properties too, ungrouped and as served (searcher.hits.per.site), and
 * devweb's eval.mjs scores them: MRR@10 for all, keyword and question
 * queries, each index's size and time, and every query whose first relevant
 * hit moved. With -x, every query the variant misses at rank 1 shows its
 * first hit's and its first judged page's score factors, as /explain does.
 * Run: npx tsx test/bench/ranking/devweb-try.ts <crawl> [-x] [-i name=value]... [-s name=value]...
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Conf } from '../../../shared/conf.js';
import { explainScore } from '../../../searcher/explain.js';
import type { Explanation } from '../../../searcher/rank/score.js';
import { readQuery } from '../../../searcher/search.js';
import { searchSettings } from '../../../searcher/settings.js';
import { CrawlSnapshots } from '../../../searcher/snapshot.js';
import { devwebDir, devwebQueries, evaluate, resultsTsv, type EvalResult } from './devweb.js';
import { runOk } from './exec.js';
import { topUrls } from './hazelnut.js';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const HAZELNUT = path.join(root, 'crawler', 'hazelnut.js');

function usage(why: string): never {
  console.error(`${why}\nusage: npx tsx test/bench/ranking/devweb-try.ts <crawl> [-x] [-i name=value]... [-s name=value]...`);
  process.exit(2);
}

/** `<crawl> -x -i a=b -s c=d …`: the crawl directory, whether to explain the misses, the index and the searcher properties; throws on anything else. */
export function parseTryArgs(args: string[]): { crawl: string; index: Record<string, string>; search: Record<string, string>; explain: boolean } {
  const out = { crawl: '', index: {} as Record<string, string>, search: {} as Record<string, string>, explain: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-x') out.explain = true;
    else if (a === '-i' || a === '-s') {
      const kv = /^([^=\s]+)=(.*)$/.exec(args[++i] ?? '');
      if (!kv) throw new Error(`${a} needs name=value, not ${args[i] ?? 'nothing'}`);
      (a === '-i' ? out.index : out.search)[kv[1]!] = kv[2]!;
    } else if (!out.crawl) out.crawl = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!out.crawl) throw new Error('no crawl directory');
  return out;
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n += fs.statSync(path.join(e.parentPath, e.name)).size;
  return n;
}

/** A copy of the crawl's WebDB and fetched segments, indexed, deduplicated and merged with `props`; the time those three took. */
async function reindex(crawl: string, to: string, props: Record<string, string>): Promise<number> {
  fs.cpSync(path.join(crawl, 'webdb'), path.join(to, 'webdb'), { recursive: true });
  for (const seg of fs.readdirSync(path.join(crawl, 'segments'))) {
    const from = path.join(crawl, 'segments', seg);
    fs.mkdirSync(path.join(to, 'segments', seg), { recursive: true });
    for (const f of fs.readdirSync(from)) if (f.startsWith('segment.sqlite')) fs.copyFileSync(path.join(from, f), path.join(to, 'segments', seg, f));
  }
  const d = Object.entries(props).flatMap(([k, v]) => ['-D', `${k}=${v}`]);
  const segs = path.join(to, 'segments');
  const t0 = performance.now();
  for (const args of [['index', path.join(to, 'webdb'), '-dir', segs], ['dedup', '-dir', segs], ['merge', path.join(to, 'index'), '-dir', segs]])
    await runOk(process.execPath, [HAZELNUT, ...d, ...args], { cwd: root, timeoutMs: 600_000 });
  return performance.now() - t0;
}

/** One score's factors as /explain shows them, on a line: the sum, then each query term's score and its frequency per field. */
export function factorLine(e: Pick<Explanation, 'score' | 'bm25f' | 'sectionLift' | 'proximity' | 'linkPrior' | 'terms'> & { prose?: number; naming?: number }): string {
  const f2 = (x: number) => x.toFixed(2);
  const terms = e.terms.map((t) => {
    const fields = Object.entries(t.fields).map(([f, v]) => `${f} ${v.tf}`);
    return `${t.term} ${t.score.toFixed(1)}${fields.length ? ` (${fields.join(', ')})` : ''}`;
  });
  const text = `bm25f ${f2(e.bm25f)} + section ${f2(e.sectionLift)} + proximity ${f2(e.proximity)}${e.naming ? ` + naming ${f2(e.naming)}` : ''}`;
  return `${f2(e.score)} = ${e.prose !== undefined && e.prose < 1 ? `${e.prose} × (${text})` : text} + link ${f2(e.linkPrior)} | ${terms.join(' · ')}`;
}

interface Scored {
  /** hitsPerSite 0, a flat list like the baselines'. */
  ungrouped: EvalResult;
  /** searcher.hits.per.site, as the search page serves it. */
  served: EvalResult;
  /** With -x: each query whose first hit is not judged, its first hit's and its first judged page's factors. */
  misses: string[];
}

async function score(crawl: string, overrides: Record<string, string>, file: string, explain: boolean): Promise<Scored> {
  const dir = devwebDir()!;
  const queries = devwebQueries(dir);
  const snaps = await CrawlSnapshots.open(crawl, searchSettings(Conf.load({ overrides })));
  const misses: string[] = [];
  try {
    const rank = topUrls(snaps);
    const ungrouped = queries.map(({ q }) => ({ q, urls: rank(q, 0) }));
    fs.writeFileSync(`${file}.ungrouped.tsv`, resultsTsv(ungrouped));
    fs.writeFileSync(`${file}.served.tsv`, resultsTsv(queries.map(({ q }) => ({ q, urls: rank(q) }))));
    if (explain) {
      const lease = snaps.acquire();
      try {
        const snap = lease.snapshot;
        queries.forEach(({ q, kind, relevant }, i) => {
          const urls = ungrouped[i]!.urls;
          if (relevant.includes(urls[0] ?? '')) return;
          const { query } = readQuery(q, snap.analyzer, snap.settings);
          const at = urls.findIndex((u) => relevant.includes(u)) + 1;
          const page = (label: string, url: string | undefined) => {
            const id = url === undefined ? undefined : snap.reader.idOf(url);
            return `    ${label}  ${url ?? 'nothing'}  ${id === undefined ? 'not indexed' : factorLine(explainScore(snap, id, query))}`;
          };
          misses.push(`  ${kind}  ${q}  (judged page at ${at || '–'})`, page('first ', urls[0]), page('judged', relevant[0]));
        });
      } finally {
        lease.release();
      }
    }
  } finally {
    snaps.close();
  }
  return { ungrouped: await evaluate(dir, `${file}.ungrouped.tsv`), served: await evaluate(dir, `${file}.served.tsv`), misses };
}

const f3 = (x: number) => x.toFixed(3);
const line = (label: string, r: EvalResult) => `${label}  all ${f3(r.all['MRR@10'])}  keyword ${f3(r.keyword['MRR@10'])}  questions ${f3(r.question['MRR@10'])}  P@1 ${f3(r.all['P@1'])}`;

async function main(): Promise<void> {
  let a: ReturnType<typeof parseTryArgs>;
  try {
    a = parseTryArgs(process.argv.slice(2));
  } catch (e) {
    usage((e as Error).message);
  }
  if (!devwebDir()) usage('no devweb folder (set DEVWEB_DIR)');
  if (!fs.existsSync(path.join(a.crawl, 'segments'))) usage(`${a.crawl} holds no segments/: not a crawl directory`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-devweb-try-'));
  try {
    let base = a.crawl;
    let variant = a.crawl;
    if (Object.keys(a.index).length) {
      base = path.join(tmp, 'base');
      variant = path.join(tmp, 'variant');
      const baseMs = await reindex(a.crawl, base, {});
      const variantMs = await reindex(a.crawl, variant, a.index);
      const mb = (d: string) => (dirBytes(path.join(d, 'index')) / 2 ** 20).toFixed(1);
      console.log(`index + dedup + merge: shipped ${(baseMs / 1000).toFixed(1)} s, ${mb(base)} MiB; variant ${(variantMs / 1000).toFixed(1)} s (${(variantMs / baseMs).toFixed(2)}×), ${mb(variant)} MiB (load ${os.loadavg()[0]!.toFixed(1)})`);
    }
    const before = await score(base, {}, path.join(tmp, 'before'), false);
    const after = await score(variant, a.search, path.join(tmp, 'after'), a.explain);
    console.log(line('shipped', before.ungrouped));
    console.log(line('variant', after.ungrouped));
    console.log(line('shipped as served', before.served));
    console.log(line('variant as served', after.served));
    console.log('moved, ungrouped (first relevant rank, 0 = not in the top 10):');
    before.ungrouped.per_query.forEach((p, i) => {
      const b = p.first_relevant_rank ?? 0;
      const v = after.ungrouped.per_query[i]!.first_relevant_rank ?? 0;
      if (b !== v) console.log(`  ${String(b).padStart(2)} → ${String(v).padStart(2)}  ${p.subset}  ${p.query}`);
    });
    if (a.explain) console.log(['variant misses, ungrouped (its first hit and the first judged page; score = bm25f + section lift + proximity + link prior):', ...after.misses].join('\n'));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) void main();
