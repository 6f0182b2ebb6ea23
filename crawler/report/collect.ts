/**
 * @module crawler/report/collect
 * The numbers of the crawl report, read from a crawl directory without
 * changing it: the WebDB (pages per status and host, what is due when,
 * pages sharing a content signature) and every segment's fetch records
 * (one segment per round: its fetch rate over time, response times, sizes,
 * content types, errors, robots denials and redirects), plus each segment's
 * age and size for pruning, the host that held up each round, the missing
 * pages with the pages linking to them, what waits for the next crawl, what
 * changed since the last crawl and the last scoring of the judged queries.
 * Pure tallying lives in the small functions below; the crawl directory is
 * opened only by `collectReport`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { crawlPaths, segmentDir } from '../../shared/crawl-dir.js';
import { host } from '../url/keys.js';
import { listSegments, Segment, segmentDate, type FetchRecord } from '../../segments/segment.js';
import type { Conf } from '../../shared/conf.js';
import { lastEvaluation } from '../evaluate/tool.js';
import type { Evaluation } from '../evaluate/metrics.js';
import { dueNow, waitingText } from '../waiting.js';
import { hasWebDb, openWebDb, type PageRow, type WebDb } from '../webdb/webdb.js';
import { collectChanges, EXAMPLES, linkingPages, type ChangesData } from './changes.js';

/** A count with up to three example URLs. */
export interface Examples {
  key: string;
  count: number;
  examples: string[];
}

export interface RoundData {
  segment: string;
  started: number | null;
  pages: number;
  /** Pages fetched in each `bucketSeconds` from the round's first fetch. */
  rate: number[];
  bucketSeconds: number;
  /** The host whose last page ended the round, and how long it fetched alone at the end. */
  bound: BoundingHost | null;
}

export interface BoundingHost {
  host: string;
  pages: number;
  /** From the second-last host's last fetch to this host's; null when it was the round's only host. */
  aloneMs: number | null;
}

export interface SegmentAge {
  name: string;
  created: number | null;
  pages: number;
  bytes: number;
  indexed: boolean;
}

export interface ReportData {
  crawlDir: string;
  generated: number;
  pages: { total: number; byStatus: Record<string, number>; byHost: { host: string; byStatus: Record<string, number>; total: number }[] };
  due: { label: string; count: number }[];
  duplicates: { groups: number; pages: number; examples: string[][] };
  rounds: RoundData[];
  fetch: {
    byStatus: Record<string, number>;
    byHttpStatus: Record<string, number>;
    types: { type: string; count: number }[];
    responseMs: number[];
    sizes: number[];
    errors: Examples[];
    robotsDenied: Examples[];
    redirects: { count: number; examples: [string, string][] };
  };
  segments: SegmentAge[];
  /** Pages the WebDB holds as gone (404, 410), with pages that link to them. */
  missing: { count: number; examples: { url: string; linkedFrom: string[] }[] };
  /** What waits for the next crawl, and why (given the configuration). */
  waiting: string;
  changes: ChangesData | null;
  evaluation: Evaluation | null;
}

const DAY = 86_400_000;

/** Buckets of next fetch times: overdue/now, then growing horizons. */
export function dueBuckets(fetchTimes: Iterable<number>, now: number): { label: string; count: number }[] {
  const edges: [string, number][] = [
    ['due now', 0],
    ['within a day', DAY],
    ['within a week', 7 * DAY],
    ['within 30 days', 30 * DAY],
    ['within 90 days', 90 * DAY],
    ['later', Infinity],
  ];
  const counts = edges.map(([label]) => ({ label, count: 0 }));
  for (const t of fetchTimes) counts[edges.findIndex(([, d]) => t - now <= d)]!.count++;
  return counts;
}

/** Pages per `bucketSeconds` from the first fetch of a round. */
export function rateSeries(fetchTimes: number[], bucketSeconds: number): number[] {
  if (fetchTimes.length === 0) return [];
  const start = fetchTimes.reduce((a, b) => Math.min(a, b));
  const out: number[] = [];
  for (const t of fetchTimes) {
    const i = Math.floor((t - start) / 1000 / bucketSeconds);
    while (out.length <= i) out.push(0);
    out[i]!++;
  }
  return out;
}

/** A bucket width that gives a round at most ~60 points. */
export function bucketFor(spanMs: number): number {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];
  return steps.find((s) => spanMs / 1000 / s <= 60) ?? 3600;
}

/** The host that fetched last in a round: the one that bounded its length. */
export function boundingHost(lastByHost: ReadonlyMap<string, { last: number; pages: number }>): BoundingHost | null {
  const hosts = [...lastByHost].sort((a, b) => b[1].last - a[1].last || a[0].localeCompare(b[0]));
  const [first, second] = hosts;
  if (!first) return null;
  return { host: first[0], pages: first[1].pages, aloneMs: second ? first[1].last - second[1].last : null };
}

/** Counts by key with the first three example URLs each, most frequent first, top `n`. */
export class Tally {
  private readonly m = new Map<string, Examples>();
  add(key: string, example: string): void {
    const e = this.m.get(key) ?? { key, count: 0, examples: [] };
    e.count++;
    if (e.examples.length < 3) e.examples.push(example);
    this.m.set(key, e);
  }
  top(n: number): Examples[] {
    return [...this.m.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)).slice(0, n);
  }
}

const inc = (o: Record<string, number>, k: string, by = 1) => void (o[k] = (o[k] ?? 0) + by);

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : e.isFile() ? fs.statSync(p).size : 0;
  }
  return n;
}

function tallyPages(rows: Iterable<PageRow>, now: number): Pick<ReportData, 'pages' | 'due' | 'duplicates'> & { gone: string[]; goneCount: number } {
  const byStatus: Record<string, number> = {};
  const hosts = new Map<string, Record<string, number>>();
  const nextFetch: number[] = [];
  const bySignature = new Map<string, string[]>();
  const gone: string[] = [];
  let total = 0;
  let goneCount = 0;
  for (const r of rows) {
    total++;
    if (r.status === 'db_gone' && goneCount++ < EXAMPLES) gone.push(r.url);
    inc(byStatus, r.status);
    const h = r.host || '(local files)';
    const hs = hosts.get(h) ?? {};
    inc(hs, r.status);
    hosts.set(h, hs);
    nextFetch.push(r.fetch_time);
    if (r.signature && (r.status === 'db_fetched' || r.status === 'db_notmodified')) {
      const list = bySignature.get(r.signature) ?? [];
      list.push(r.url);
      bySignature.set(r.signature, list);
    }
  }
  const dupGroups = [...bySignature.values()].filter((l) => l.length > 1).sort((a, b) => b.length - a.length);
  return {
    pages: {
      total,
      byStatus,
      byHost: [...hosts]
        .map(([h, s]) => ({ host: h, byStatus: s, total: Object.values(s).reduce((a, b) => a + b, 0) }))
        .sort((a, b) => b.total - a.total || a.host.localeCompare(b.host)),
    },
    due: dueBuckets(nextFetch, now),
    duplicates: { groups: dupGroups.length, pages: dupGroups.reduce((a, g) => a + g.length, 0), examples: dupGroups.slice(0, 5).map((g) => g.slice(0, 3)) },
    gone,
    goneCount,
  };
}

/** What the fetch records of all rounds say. */
export class FetchTally {
  readonly byStatus: Record<string, number> = {};
  readonly byHttpStatus: Record<string, number> = {};
  private readonly types: Record<string, number> = {};
  readonly responseMs: number[] = [];
  readonly sizes: number[] = [];
  private readonly errors = new Tally();
  private readonly robots = new Tally();
  readonly redirects = { count: 0, examples: [] as [string, string][] };

  add(r: FetchRecord): void {
    inc(this.byStatus, r.status);
    if (r.httpStatus !== null) inc(this.byHttpStatus, String(r.httpStatus));
    const ms = r.meta?.ms;
    if (typeof ms === 'number' && r.httpStatus !== null) this.responseMs.push(ms);
    if (r.status === 'fetch_success') {
      inc(this.types, (r.contentType ?? 'unknown').split(';')[0]!.trim().toLowerCase() || 'unknown');
      const size = Number(r.meta?.wireBytes ?? r.headers['content-length']);
      if (Number.isFinite(size)) this.sizes.push(size);
    }
    if (r.protocolStatus === 'robots_denied') this.robots.add(host(r.url) || '(local files)', r.url);
    else if (r.status === 'fetch_retry' || r.status === 'fetch_gone' || r.protocolStatus === 'exception')
      this.errors.add(r.message || (r.httpStatus ? `HTTP ${r.httpStatus}` : r.protocolStatus), r.url);
    if (r.redirectTo) {
      this.redirects.count++;
      if (this.redirects.examples.length < 10) this.redirects.examples.push([r.url, r.redirectTo]);
    }
  }

  result(): ReportData['fetch'] {
    return {
      byStatus: this.byStatus,
      byHttpStatus: this.byHttpStatus,
      types: Object.entries(this.types)
        .map(([type, count]) => ({ type, count }))
        .sort((a, b) => b.count - a.count),
      responseMs: this.responseMs,
      sizes: this.sizes,
      errors: this.errors.top(10),
      robotsDenied: this.robots.top(10),
      redirects: this.redirects,
    };
  }
}

export interface ReportOptions {
  /** `webdb.url` when the WebDB is not `<crawl>/webdb`. */
  webdb?: string;
  /** What changed since this segment or date (parseSince); none without it. */
  since?: string;
  /** The configuration the crawl ran with: what waits for the next crawl is due by its schedule. */
  conf?: Conf;
}

/** The report's data, read from a crawl directory without changing it. */
export function collectReport(crawlDir: string, now = Date.now(), opts: ReportOptions = {}): ReportData {
  const paths = crawlPaths(crawlDir);
  const webdb = opts.webdb ?? paths.webdb;
  const data: ReportData = {
    crawlDir,
    generated: now,
    pages: { total: 0, byStatus: {}, byHost: [] },
    due: [],
    duplicates: { groups: 0, pages: 0, examples: [] },
    rounds: [],
    fetch: new FetchTally().result(),
    segments: [],
    missing: { count: 0, examples: [] },
    waiting: '',
    changes: null,
    evaluation: lastEvaluation(crawlDir) ?? null,
  };
  const names = listSegments(paths.segments);
  const db: WebDb | undefined = hasWebDb(webdb) ? openWebDb(webdb, { readonly: true }) : undefined;
  try {
    if (db) {
      const { gone, goneCount, ...pages } = tallyPages(db.pages(), now);
      Object.assign(data, pages);
      const linked = linkingPages(db, gone);
      data.missing = { count: goneCount, examples: gone.map((url) => ({ url, linkedFrom: linked.get(url) ?? [] })) };
      if (opts.conf) data.waiting = waitingText(dueNow(db, opts.conf, now), { maxCount: opts.conf.getInt('generate.max.count'), capped: false });
    }
    if (opts.since !== undefined) data.changes = collectChanges(paths.segments, names, opts.since, db);
  } finally {
    db?.close();
  }
  const fetches = new FetchTally();
  for (const name of names) {
    const dir = segmentDir(paths.segments, name);
    const seg = Segment.open(dir, { readonly: true });
    try {
      const times: number[] = [];
      const byHost = new Map<string, { last: number; pages: number }>();
      for (const r of seg.fetches()) {
        fetches.add(r);
        if (r.httpStatus === null) continue;
        times.push(r.fetchTime);
        const h = host(r.url) || '(local files)';
        const e = byHost.get(h) ?? { last: 0, pages: 0 };
        byHost.set(h, { last: Math.max(e.last, r.fetchTime), pages: e.pages + 1 });
      }
      const first = times.length ? times.reduce((a, b) => Math.min(a, b)) : null;
      const span = first === null ? 0 : times.reduce((a, b) => Math.max(a, b)) - first;
      const bucketSeconds = bucketFor(span);
      data.rounds.push({ segment: name, started: first, pages: times.length, rate: rateSeries(times, bucketSeconds), bucketSeconds, bound: boundingHost(byHost) });
      data.segments.push({ name, created: segmentDate(name)?.getTime() ?? null, pages: seg.count('fetch'), bytes: dirBytes(dir), indexed: seg.hasPhase('indexed') });
    } finally {
      seg.close();
    }
  }
  data.fetch = fetches.result();
  return data;
}
