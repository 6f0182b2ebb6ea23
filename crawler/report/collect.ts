/**
 * @module crawler/report/collect
 * The numbers of the crawl report, read from a crawl directory without
 * changing it: the WebDB (pages per status and host, what is due when,
 * pages sharing a content signature) and every segment's fetch records
 * (one segment per round: its fetch rate over time, response times, sizes,
 * content types, errors, robots denials and redirects), plus each segment's
 * age and size for pruning. Pure tallying lives in the small functions
 * below; the crawl directory is opened only by `collectReport`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { crawlPaths, segmentDir } from '../../shared/crawl-dir.js';
import { host } from '../url/keys.js';
import { listSegments, Segment, segmentDate, type FetchRecord } from '../../segments/segment.js';
import { hasWebDb, openWebDb, type PageRow } from '../webdb/webdb.js';

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

function tallyPages(rows: Iterable<PageRow>, now: number): Pick<ReportData, 'pages' | 'due' | 'duplicates'> {
  const byStatus: Record<string, number> = {};
  const hosts = new Map<string, Record<string, number>>();
  const nextFetch: number[] = [];
  const bySignature = new Map<string, string[]>();
  let total = 0;
  for (const r of rows) {
    total++;
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

/** The report's data; `webdb` is the crawl's WebDB when it is not `<crawl>/webdb` (a URL, webdb.url). */
export function collectReport(crawlDir: string, now = Date.now(), webdb = crawlPaths(crawlDir).webdb): ReportData {
  const paths = crawlPaths(crawlDir);
  const data: ReportData = {
    crawlDir,
    generated: now,
    pages: { total: 0, byStatus: {}, byHost: [] },
    due: [],
    duplicates: { groups: 0, pages: 0, examples: [] },
    rounds: [],
    fetch: new FetchTally().result(),
    segments: [],
  };
  if (hasWebDb(webdb)) {
    const db = openWebDb(webdb, { readonly: true });
    try {
      Object.assign(data, tallyPages(db.pages(), now));
    } finally {
      db.close();
    }
  }
  const fetches = new FetchTally();
  for (const name of listSegments(paths.segments)) {
    const dir = segmentDir(paths.segments, name);
    const seg = Segment.open(dir, { readonly: true });
    try {
      const times: number[] = [];
      for (const r of seg.fetches()) {
        fetches.add(r);
        if (r.httpStatus !== null) times.push(r.fetchTime);
      }
      const first = times.length ? times.reduce((a, b) => Math.min(a, b)) : null;
      const span = first === null ? 0 : times.reduce((a, b) => Math.max(a, b)) - first;
      const bucketSeconds = bucketFor(span);
      data.rounds.push({ segment: name, started: first, pages: times.length, rate: rateSeries(times, bucketSeconds), bucketSeconds });
      data.segments.push({ name, created: segmentDate(name)?.getTime() ?? null, pages: seg.count('fetch'), bytes: dirBytes(dir), indexed: seg.hasPhase('indexed') });
    } finally {
      seg.close();
    }
  }
  data.fetch = fetches.result();
  return data;
}
