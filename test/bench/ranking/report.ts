/**
 * The ranking benchmark's Markdown: the engine × query-set table, a verdict
 * per set worded from the figures (a baseline ahead of hazelnut is said to
 * be), a head-to-head count per query, each configuration's worst misses,
 * and the exact commands every engine was run with.
 */
import type { EngineSetup } from './engine.js';
import type { Miss, SetScore } from './score.js';

export interface Row {
  engine: string;
  label: string;
  /** The engine's default configuration (its first variant). */
  primary: boolean;
  sets: SetScore[];
}

export interface ReportInput {
  rows: Row[];
  engines: [string, EngineSetup][];
  sets: { name: string; n: number }[];
  pages: number;
  /** A result URL as host/path. */
  pretty: (u: string) => string;
}

const f3 = (x: number) => x.toFixed(3);
const f2 = (x: number) => x.toFixed(2);
const cell = (s: SetScore) => `**${f3(s.mrr)}** · ${f2(s.p1)} · ${f2(s.recall)}`;

/** All sets as one, weighted by their sizes. */
function overall(sets: SetScore[]): SetScore {
  const n = sets.reduce((a, x) => a + x.n, 0);
  const avg = (k: 'mrr' | 'p1' | 'recall') => sets.reduce((a, x) => a + x[k] * x.n, 0) / n;
  return { n, mrr: avg('mrr'), p1: avg('p1'), recall: avg('recall'), rr: sets.flatMap((x) => x.rr), misses: sets.flatMap((x) => x.misses) };
}

function verdict(i: number, name: string, hz: Row, rows: Row[]): string {
  const mine = hz.sets[i]!;
  const others = rows.filter((r) => r.engine !== 'hazelnut').sort((a, b) => b.sets[i]!.mrr - a.sets[i]!.mrr);
  const best = others[0];
  if (!best) return `- ${name}: hazelnut ${f3(mine.mrr)}; no baseline ran.`;
  const theirs = best.sets[i]!;
  const ahead = mine.rr.filter((rr, q) => rr > theirs.rr[q]!).length;
  const behind = mine.rr.filter((rr, q) => rr < theirs.rr[q]!).length;
  const perQuery = `per query against it: hazelnut ahead on ${ahead}, behind on ${behind}, level on ${mine.n - ahead - behind}`;
  const better = others.filter((r) => r.sets[i]!.mrr > mine.mrr + 1e-9);
  if (better.length)
    return `- ${name}: **${better.map((r) => `${r.label} ${f3(r.sets[i]!.mrr)}`).join(', ')} beat${better.length === 1 ? 's' : ''} hazelnut ${f3(mine.mrr)}**; ${perQuery}.`;
  if (theirs.mrr > mine.mrr - 1e-9) return `- ${name}: hazelnut ${f3(mine.mrr)} ties with ${best.label} ${f3(theirs.mrr)}; ${perQuery}.`;
  return `- ${name}: hazelnut ${f3(mine.mrr)} ahead of the best baseline, ${best.label} ${f3(theirs.mrr)}; ${perQuery}.`;
}

/** Print views differ from their page in the navigation, so an MD5 of the raw page (Nutch's MD5Signature) keeps them. */
function dedupNote(engines: [string, EngineSetup][], pages: number): string {
  const hz = engines.find(([e]) => e === 'hazelnut')?.[1];
  if (!hz || 'skipped' in hz) return '';
  return hz.docs === pages
    ? ' hazelnut\'s dedup (MD5 of the raw page, as Nutch\'s MD5Signature) keeps the print views: they differ from their page in the navigation.'
    : ` hazelnut's dedup removed ${pages - hz.docs} of them.`;
}

export function rankingReport({ rows, engines, sets, pages, pretty }: ReportInput): string {
  const total = sets.reduce((a, s) => a + s.n, 0);
  const out: string[] = [
    `The judged corpus (test/judged/: ${pages} pages on four hosts — product docs, IT/HR wiki, engineering handbook, a news blog of distractors — with hubs, a glossary, print views and archived near-duplicates) ` +
      'served on loopback and indexed by each engine; the same queries asked of each. keyword and questions are the sets of test/judged/queries.ts; ' +
      'hard is test/judged/hard-queries.ts (paraphrases and vocabulary mismatch, judged by reading the pages, never used to tune hazelnut). ' +
      'An exact duplicate of an answer (its print view) counts as the answer. Each cell: **MRR@10** · P@1 · recall@10.',
    '',
    `| engine | ${sets.map((s) => `${s.name} (${s.n})`).join(' | ')} | all (${total}) |`,
    `|---|${sets.map(() => '---|').join('')}---|`,
    ...rows.map((r) => `| ${r.primary ? r.label : `&nbsp;&nbsp;${r.label}`} | ${r.sets.map(cell).join(' | ')} | ${cell(overall(r.sets))} |`),
    '',
    `Documents indexed, of ${pages} served: ` +
      engines.map(([e, s]) => ('skipped' in s ? `${e} skipped (${s.skipped})` : `${e} ${s.docs} (${(s.indexMs / 1000).toFixed(1)} s)`)).join(', ') +
      '.' +
      dedupNote(engines, pages),
    '',
    'Caveats: hazelnut\'s defaults were chosen while measuring the keyword and question sets (test/searcher/mrr.test.ts guards them), so those two favour it; ' +
      'the hard set was written for this comparison and is not tuned on. hazelnut and ht://Dig crawl over HTTP and use link text for the target page; ' +
      'Omega indexes the same HTML from files and ignores links. Only hazelnut and ht://Dig saw the same URLs; Omega\'s file names are mapped back to them.',
  ];

  const hz = rows.find((r) => r.engine === 'hazelnut' && r.primary);
  if (hz) out.push('', '**Verdict per set** (hazelnut as served, against the best baseline configuration on that set):', '', ...sets.map((s, i) => verdict(i, s.name, hz, rows)));

  out.push('', '**Where each configuration fails** (its three worst misses, easier sets first; rank 0 = not in the top 10):', '');
  const order = (m: Miss) => (m.rank === 0 ? 100 : m.rank) * 10 - sets.findIndex((s) => s.name === m.set);
  for (const r of rows) {
    const all = overall(r.sets);
    const worst = [...all.misses].sort((a, b) => order(b) - order(a)).slice(0, 3);
    out.push(
      `- ${r.label}: ${all.misses.length} of ${all.n} without the answer first` +
        (worst.length ? `; ${worst.map((m) => `“${m.q}” (${m.set}) rank ${m.rank}, first ${pretty(m.first)}`).join('; ')}` : '') +
        '.',
    );
  }

  out.push('', '**Commands** (`<tmp>` is a temporary directory; the corpus is served on 127.0.12.1–4 with ephemeral ports):', '');
  for (const [engine, s] of engines) if (!('skipped' in s)) out.push(`- ${engine}:`, ...s.commands.map((c) => `  - \`${c}\``));
  out.push('', 'Command: `npm run bench -- ranking`.');
  return out.join('\n');
}
