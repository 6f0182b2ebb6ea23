/**
 * Judged queries over the judged corpus, with the page(s) that should come
 * first, and MRR@10 to score a ranking. Keyword queries are what people type
 * into an intranet search box; questions are plain-English, with the stop
 * and question words a real user adds and, on purpose, some vocabulary that
 * differs from the page (lesson 10 of the ranking notes).
 */
import { DEFAULT_BASE, pageUrl, type JudgedHost } from './corpus.js';

export interface JudgedQuery {
  q: string;
  kind: 'keyword' | 'question';
  /** Pages that answer it, as host + path. */
  relevant: { host: JudgedHost; path: string }[];
}

const d = (path: string) => ({ host: 'docs' as const, path });
const w = (path: string) => ({ host: 'wiki' as const, path });
const h = (path: string) => ({ host: 'handbook' as const, path });

export const JUDGED_QUERIES: JudgedQuery[] = [
  // keyword queries
  { q: 'install lantern linux', kind: 'keyword', relevant: [d('/install-linux')] },
  { q: 'lantern windows service', kind: 'keyword', relevant: [d('/install-windows')] },
  { q: 'docker container image', kind: 'keyword', relevant: [d('/install-docker')] },
  { q: 'multiline stack traces', kind: 'keyword', relevant: [d('/multiline')] },
  { q: 'logfmt parser', kind: 'keyword', relevant: [d('/parsers')] },
  { q: 'elasticsearch bulk', kind: 'keyword', relevant: [d('/outputs-elasticsearch')] },
  { q: 's3 archive', kind: 'keyword', relevant: [d('/outputs-s3')] },
  { q: 'disk buffer', kind: 'keyword', relevant: [d('/disk-buffer')] },
  { q: 'mutual tls certificate', kind: 'keyword', relevant: [d('/tls')] },
  { q: 'config migrate', kind: 'keyword', relevant: [d('/upgrade')] },
  { q: 'prometheus metrics', kind: 'keyword', relevant: [d('/metrics')] },
  { q: 'permission denied', kind: 'keyword', relevant: [d('/troubleshooting-permissions')] },
  { q: 'vpn', kind: 'keyword', relevant: [w('/vpn-setup')] },
  { q: 'password reset', kind: 'keyword', relevant: [w('/password-reset')] },
  { q: 'hardware security key', kind: 'keyword', relevant: [w('/mfa')] },
  { q: 'follow-me printer', kind: 'keyword', relevant: [w('/printer')] },
  { q: 'guest wifi voucher', kind: 'keyword', relevant: [w('/wifi-guest')] },
  { q: 'parental leave', kind: 'keyword', relevant: [w('/parental-leave')] },
  { q: 'expense claim receipts', kind: 'keyword', relevant: [w('/expenses')] },
  { q: 'meeting room booking', kind: 'keyword', relevant: [w('/meeting-rooms')] },
  { q: 'code review', kind: 'keyword', relevant: [h('/code-review')] },
  { q: 'postmortem', kind: 'keyword', relevant: [h('/postmortem')] },
  { q: 'on-call rotation', kind: 'keyword', relevant: [h('/on-call')] },
  { q: 'schema migrations', kind: 'keyword', relevant: [h('/database-migrations')] },
  { q: 'architecture decision records', kind: 'keyword', relevant: [h('/architecture-decisions')] },
  // natural-language questions
  { q: 'how do I install lantern on ubuntu', kind: 'question', relevant: [d('/install-linux')] },
  { q: 'how can I join java stack trace lines into one event', kind: 'question', relevant: [d('/multiline')] },
  { q: 'what happens when elasticsearch is down', kind: 'question', relevant: [d('/outputs-elasticsearch'), d('/disk-buffer')] },
  { q: 'how do I hide email addresses and credit card numbers in logs', kind: 'question', relevant: [d('/redaction')] },
  { q: 'how can I limit noisy debug logs', kind: 'question', relevant: [d('/sampling')] },
  { q: 'lantern cannot read my log file', kind: 'question', relevant: [d('/troubleshooting-permissions')] },
  { q: 'what changed in lantern 3', kind: 'question', relevant: [d('/upgrade')] },
  { q: 'I forgot my password what do I do', kind: 'question', relevant: [w('/password-reset')] },
  { q: 'I lost my phone with the authenticator app', kind: 'question', relevant: [w('/mfa')] },
  { q: 'how many vacation days do I get', kind: 'question', relevant: [w('/vacation')] },
  { q: 'when do I need a doctor certificate', kind: 'question', relevant: [w('/sick-leave')] },
  { q: 'how do I restore an older version of a file', kind: 'question', relevant: [w('/backup')] },
  { q: 'what should I do with a suspicious email', kind: 'question', relevant: [w('/phishing')] },
  { q: 'can I get a new laptop because my battery is dead', kind: 'question', relevant: [w('/laptop-request')] },
  { q: 'where do I charge my electric car', kind: 'question', relevant: [w('/parking')] },
  { q: 'what happens on my first day', kind: 'question', relevant: [w('/onboarding')] },
  { q: 'can we deploy on friday', kind: 'question', relevant: [h('/deploy')] },
  { q: 'what to do when production is down', kind: 'question', relevant: [h('/incident')] },
  { q: 'how do I rename a database column safely', kind: 'question', relevant: [h('/database-migrations')] },
  { q: 'someone committed an api key to the repository', kind: 'question', relevant: [h('/secrets')] },
  { q: 'what do we do about flaky tests', kind: 'question', relevant: [h('/testing')] },
];

/** Reciprocal rank of the first relevant URL in the top 10, else 0. */
export function reciprocalRank(ranked: readonly string[], relevant: readonly string[]): number {
  const i = ranked.slice(0, 10).findIndex((u) => relevant.includes(u));
  return i < 0 ? 0 : 1 / (i + 1);
}

export interface MrrReport {
  mrr: number;
  byKind: Record<JudgedQuery['kind'], number>;
  /** Queries whose answer is not first, with the rank found (0: not in the top 10). */
  misses: { q: string; rank: number }[];
}

/** MRR@10 of a ranking function over the judged queries. */
export async function mrrAt10(rank: (q: string) => Promise<string[]> | string[], queries = JUDGED_QUERIES, base = DEFAULT_BASE): Promise<MrrReport> {
  const sums = { keyword: [0, 0], question: [0, 0] };
  const misses: MrrReport['misses'] = [];
  for (const jq of queries) {
    const rr = reciprocalRank(await rank(jq.q), jq.relevant.map((r) => pageUrl(r, base)));
    sums[jq.kind][0]! += rr;
    sums[jq.kind][1]!++;
    if (rr < 1) misses.push({ q: jq.q, rank: rr ? Math.round(1 / rr) : 0 });
  }
  const avg = ([s, n]: number[]) => (n ? s! / n : 0);
  return {
    mrr: (sums.keyword[0]! + sums.question[0]!) / Math.max(1, queries.length),
    byKind: { keyword: avg(sums.keyword), question: avg(sums.question) },
    misses,
  };
}
