/**
 * @module crawler/waiting
 * The URLs a crawl leaves due for the next one, and why. A share or a large
 * site is one host, so two bounds stop a one-shot crawl short without an
 * error: generate.max.count URLs of a host a round, and -depth rounds. The
 * crawl's summary and the crawl report say how many wait and which bound
 * held them, so a user knows to run the crawl again or raise the bound.
 */
import type { Conf } from '../shared/conf.js';
import { host } from './url/keys.js';
import { awaitingUpdate, isDue } from './fetchlist.js';
import { scheduleFromConf } from './updatedb/schedule.js';
import { openWebDb, type GenerateOps } from './webdb/webdb.js';

export interface Waiting {
  total: number;
  /** Due URLs per host, the most first. */
  hosts: { host: string; count: number }[];
}

/** The URLs due now that the next generate would consider, per host: what waits for the next crawl. */
export function dueNow(db: GenerateOps, conf: Conf, now: number): Waiting {
  const schedule = scheduleFromConf(conf);
  const delayMs = conf.getDuration('crawl.gen.delay', 'ms');
  const counts = new Map<string, number>();
  let total = 0;
  for (const row of db.generateCandidates({ delayMs, now, dueBy: now, pullIn: now + schedule.maxInterval * 1000 })) {
    if (!isDue(row, schedule, now) || awaitingUpdate(row.generate_time, now, delayMs)) continue;
    const h = host(row.url) || 'local files';
    counts.set(h, (counts.get(h) ?? 0) + 1);
    total++;
  }
  return { total, hosts: [...counts].map(([h, count]) => ({ host: h, count })).sort((a, b) => b.count - a.count || a.host.localeCompare(b.host)) };
}

export interface WaitingBounds {
  /** generate.max.count: URLs of a host a round; ≤ 0 for none. */
  maxCount: number;
  /** A round of this crawl left due URLs of a host over that cap. */
  capped: boolean;
  /** -depth, when the crawl ran all its rounds. */
  depth?: number;
}

const num = (n: number) => n.toLocaleString('en-US');

/** Why URLs still wait, in the words of the options that bound them: `all 5 rounds of -depth ran; …`. */
export function waitingReasons(w: Waiting, b: WaitingBounds): string[] {
  const reasons: string[] = [];
  if (b.depth !== undefined) reasons.push(`all ${b.depth} round${b.depth === 1 ? '' : 's'} of -depth ran`);
  const overCap = b.maxCount > 0 && (b.capped || w.hosts.some((h) => h.count > b.maxCount));
  if (overCap) reasons.push(`a round takes at most ${num(b.maxCount)} URLs of a host (generate.max.count)`);
  return reasons;
}

/** `500 due URLs for the next crawl (256 of a.example, …): …`; empty when none wait. */
export function waitingText(w: Waiting, b: WaitingBounds): string {
  if (w.total === 0) return '';
  const shown = w.hosts.slice(0, 3).map((h) => `${num(h.count)} of ${h.host}`);
  if (w.hosts.length > 3) shown.push(`${num(w.hosts.length - 3)} more hosts`);
  const reasons = waitingReasons(w, b);
  return `${num(w.total)} due URL${w.total === 1 ? '' : 's'} for the next crawl (${shown.join(', ')})${reasons.length ? `: ${reasons.join('; ')}` : ''}`;
}

/** What waits in a WebDB (a directory or a postgresql:// URL) at the end of a crawl, in words; empty when nothing does. */
export function waitingAfterCrawl(webdb: string, conf: Conf, bounds: Omit<WaitingBounds, 'maxCount'>): string {
  const db = openWebDb(webdb, { readonly: true });
  try {
    return waitingText(dueNow(db, conf, Date.now()), { ...bounds, maxCount: conf.getInt('generate.max.count') });
  } finally {
    db.close();
  }
}
