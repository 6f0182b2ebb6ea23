/**
 * @module crawler/evaluate/tool
 * `hazelnut evaluate <crawl_dir> <judgments.tsv>`: a team's own queries,
 * each with the URL it should find, scored against the crawl's search as
 * served: MRR@10, P@1, each miss with the /explain link that says why, and
 * the queries whose first hit changed since the last run, which is kept in
 * the crawl directory (and shown by the crawl report). `crawl -evaluate`
 * runs it after each crawl.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Conf } from '../../shared/conf.js';
import { HzError, UsageError } from '../../shared/errors.js';
import { crawlPaths } from '../../shared/crawl-dir.js';
import { parseArgs, type Tool } from '../../shared/command.js';
import { askSearcher } from './ask.js';
import { readJudgments, type Judgment } from './judgments.js';
import { explainPath, firstHitChanges, outcome, scores, type Evaluation } from './metrics.js';

/** The last run's scoring kept in a crawl directory, if it reads. */
export function lastEvaluation(crawlDir: string): Evaluation | undefined {
  try {
    const e = JSON.parse(fs.readFileSync(crawlPaths(crawlDir).evaluation, 'utf8')) as Evaluation;
    return Array.isArray(e.queries) ? e : undefined;
  } catch {
    return undefined;
  }
}

/** Scores the judged queries against the crawl's index and keeps the result for the next run and the report. */
export async function evaluate(conf: Conf, crawlDir: string, judgments: readonly Judgment[], file: string): Promise<Evaluation> {
  if (!fs.existsSync(crawlPaths(crawlDir).index)) throw new HzError('HZ_ERR_NOT_FOUND', `${crawlDir} has no index to evaluate (crawl it first)`);
  const answers = await askSearcher(conf, crawlDir, judgments.map((j) => j.query));
  const queries = judgments.map((j, i) => outcome(j, answers.hits[i]!));
  const last = lastEvaluation(crawlDir);
  const e: Evaluation = {
    at: Date.now(),
    judgments: path.resolve(file),
    documents: answers.documents,
    ...scores(queries),
    queries,
    lastAt: last?.at ?? null,
    changed: last ? firstHitChanges(last.queries, queries) : [],
  };
  const out = crawlPaths(crawlDir).evaluation;
  fs.writeFileSync(`${out}.tmp`, JSON.stringify(e, null, 1));
  fs.renameSync(`${out}.tmp`, out);
  return e;
}

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
const rank = (r: number | null) => (r ? `rank ${r}` : 'not in the first 10');

/** What `evaluate` prints; `searcher` is where the /explain links open. */
export function formatEvaluation(e: Evaluation, judgments: readonly Judgment[], searcher: string): string {
  const n = e.queries.length;
  const firsts = e.queries.filter((q) => q.rank === 1).length;
  const misses = e.queries.map((q, i) => ({ q, where: judgments[i]?.where ?? '' })).filter(({ q }) => q.rank === null);
  const lines = [
    `evaluate: ${n} judged quer${n === 1 ? 'y' : 'ies'} from ${e.judgments} on ${e.documents} documents`,
    `  MRR@10   ${e.mrr.toFixed(3)}`,
    `  P@1      ${e.p1.toFixed(3)} (${firsts} of ${n} first)`,
    `  misses   ${misses.length}${misses.length ? ' (no expected URL in the first 10 hits):' : ''}`,
    ...misses.flatMap(({ q, where }) => [
      `    "${q.query}" (${where}): first hit ${q.top[0] ?? 'none'}`,
      `      expected ${q.expected.join(' or ')}; why: ${searcher}${explainPath(q)}`,
    ]),
  ];
  if (e.lastAt === null) lines.push('  first hit changed: (first run; the next run compares with this one)');
  else {
    lines.push(`  first hit changed since the last run (${when(e.lastAt)}): ${e.changed.length}`);
    for (const c of e.changed) lines.push(`    "${c.query}": ${c.was ?? 'no hit'} (expected at ${rank(c.wasRank)}) → ${c.now ?? 'no hit'} (expected at ${rank(c.nowRank)})`);
  }
  return lines.join('\n');
}

/** Where a searcher of this configuration serves, for the /explain links. */
export function searcherBase(conf: Conf): string {
  const host = conf.get('searcher.host');
  return `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${conf.getInt('searcher.port')}`;
}

const tool: Tool = {
  name: 'evaluate',
  usage: `Usage: hazelnut evaluate <crawl_dir> <judgments.tsv>
  judgments.tsv  one query a line: query<TAB>expected URL[<TAB>more URLs]; # starts a comment`,
  async run(ctx, args) {
    const a = parseArgs(args, {});
    if (a._.length !== 2) throw new UsageError(a._.length > 2 ? `unexpected argument ${a._[2]}` : 'a crawl directory and a judgments file are needed');
    const [dir, file] = [path.resolve(a._[0]!), a._[1]!];
    const judgments = readJudgments(file);
    const e = await evaluate(ctx.conf, dir, judgments, file);
    ctx.out.write(formatEvaluation(e, judgments, searcherBase(ctx.conf)) + '\n');
    return 0;
  },
};

export default tool;
