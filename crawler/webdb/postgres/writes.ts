/**
 * @module crawler/webdb/postgres/writes
 * The per-row writes of updatedb, invertlinks and the fetcher's robots cache,
 * held back and sent as set-based statements (arrays through unnest): a run
 * of writes of one kind becomes one DELETE + one INSERT (inlinks, new to
 * their target, only the INSERT), whatever its length, so a transaction
 * costs per batch, not per row. A row written twice in a run keeps its last
 * write, at the place of that write: SQLite's INSERT OR REPLACE gives a
 * replaced row a new rowid, and `seq` follows it.
 */
import type { HostRobots, PageRow } from '../interface.js';
import { PAGE_COLUMNS } from './schema.js';
import type { Query } from './sync-client.js';

export type Write =
  | { kind: 'page'; row: PageRow }
  | { kind: 'outlinks'; source: string; links: readonly { url: string; anchor: string; nav?: boolean }[] }
  | { kind: 'clearInlinks'; target: string }
  | { kind: 'inlink'; target: string; source: string; anchor: string }
  | { kind: 'applied'; tool: string; segment: string; at: number }
  | { kind: 'robots'; host: string; r: HostRobots };

export type Table = 'pages' | 'links' | 'inlinks' | 'applied' | 'hosts';

export const TABLE_OF: Record<Write['kind'], Table> = {
  page: 'pages',
  outlinks: 'links',
  clearInlinks: 'inlinks',
  inlink: 'inlinks',
  applied: 'applied',
  robots: 'hosts',
};

/** The last write per key, in the order of those last writes. */
function lastByKey<W>(ws: W[], key: (w: W) => string): W[] {
  const m = new Map<string, W>();
  for (const w of ws) {
    const k = key(w);
    m.delete(k);
    m.set(k, w);
  }
  return [...m.values()];
}

const PAGE_TYPES = ['text', 'text', 'text', 'float8', 'float8', 'int4', 'float8', 'float8', 'text', 'float8', 'float8', 'float8', 'text', 'text', 'text', 'text'];
const PAGE_KEYS = PAGE_COLUMNS.split(', ') as (keyof PageRow)[];

/** `unnest($1::t1[], $2::t2[], ...) WITH ORDINALITY AS x(c1, c2, ..., ord)`, for columns starting at $`from`. */
function unnest(types: string[], names: string[], from = 1): string {
  return `unnest(${types.map((t, i) => `$${from + i}::${t}[]`).join(', ')}) WITH ORDINALITY AS x(${names.join(', ')}, ord)`;
}

/** Replacing page rows: the whole row, as putPage does. */
export function pagesStatements(rows: PageRow[]): Query[] {
  const last = lastByKey(rows, (r) => r.url);
  return [
    { text: 'DELETE FROM pages WHERE url = ANY($1::text[])', values: [last.map((r) => r.url)] },
    {
      text: `INSERT INTO pages (${PAGE_COLUMNS}) SELECT ${PAGE_COLUMNS} FROM ${unnest(PAGE_TYPES, PAGE_KEYS)} ORDER BY ord`,
      values: PAGE_KEYS.map((k) => last.map((r) => r[k])),
    },
  ];
}

/** Stored links per source: each (target, anchor) once, the first one kept, as INSERT OR IGNORE does. */
export function outlinkRows(links: readonly { url: string; anchor: string; nav?: boolean }[]) {
  const seen = new Set<string>();
  return links.filter((l) => {
    const k = `${l.url}\u0000${l.anchor}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function outlinksStatements(ws: Extract<Write, { kind: 'outlinks' }>[]): Query[] {
  const last = lastByKey(ws, (w) => w.source);
  const source: string[] = [];
  const target: string[] = [];
  const anchor: string[] = [];
  const nav: number[] = [];
  for (const w of last)
    for (const l of outlinkRows(w.links)) {
      source.push(w.source);
      target.push(l.url);
      anchor.push(l.anchor);
      nav.push(l.nav ? 1 : 0);
    }
  return [
    { text: 'DELETE FROM links WHERE source = ANY($1::text[])', values: [last.map((w) => w.source)] },
    {
      text: `INSERT INTO links (source, target, anchor, nav) SELECT source, target, anchor, nav FROM ${unnest(['text', 'text', 'text', 'int2'], ['source', 'target', 'anchor', 'nav'])} ORDER BY ord`,
      values: [source, target, anchor, nav],
    },
  ];
}

function inlinkStatements(ws: Extract<Write, { kind: 'inlink' }>[]): Query[] {
  return [
    {
      text: `INSERT INTO inlinks (target, source, anchor) SELECT target, source, anchor FROM ${unnest(['text', 'text', 'text'], ['target', 'source', 'anchor'])} ORDER BY ord
             ON CONFLICT (target, source) DO NOTHING`,
      values: [ws.map((w) => w.target), ws.map((w) => w.source), ws.map((w) => w.anchor)],
    },
  ];
}

function statementsOf(run: Write[]): Query[] {
  switch (run[0]!.kind) {
    case 'page':
      return pagesStatements(run.map((w) => (w as Extract<Write, { kind: 'page' }>).row));
    case 'outlinks':
      return outlinksStatements(run as Extract<Write, { kind: 'outlinks' }>[]);
    case 'inlink':
      return inlinkStatements(run as Extract<Write, { kind: 'inlink' }>[]);
    case 'clearInlinks':
      return [{ text: 'DELETE FROM inlinks WHERE target = ANY($1::text[])', values: [run.map((w) => (w as Extract<Write, { kind: 'clearInlinks' }>).target)] }];
    case 'applied': {
      const last = lastByKey(run as Extract<Write, { kind: 'applied' }>[], (w) => `${w.tool}\u0000${w.segment}`);
      return [
        {
          text: `INSERT INTO applied (tool, segment, at) SELECT tool, segment, at FROM ${unnest(['text', 'text', 'float8'], ['tool', 'segment', 'at'])}
                 ON CONFLICT (tool, segment) DO UPDATE SET at = EXCLUDED.at`,
          values: [last.map((w) => w.tool), last.map((w) => w.segment), last.map((w) => w.at)],
        },
      ];
    }
    case 'robots': {
      const last = lastByKey(run as Extract<Write, { kind: 'robots' }>[], (w) => w.host);
      const cols = ['host', 'robots_status', 'robots_txt', 'robots_fetched', 'robots_failures', 'crawl_delay'];
      return [
        {
          text: `INSERT INTO hosts (${cols.join(', ')}) SELECT ${cols.join(', ')} FROM ${unnest(['text', 'text', 'text', 'float8', 'int4', 'float8'], cols)}
                 ON CONFLICT (host) DO UPDATE SET robots_status = EXCLUDED.robots_status, robots_txt = EXCLUDED.robots_txt,
                   robots_fetched = EXCLUDED.robots_fetched, robots_failures = EXCLUDED.robots_failures, crawl_delay = EXCLUDED.crawl_delay`,
          values: [
            last.map((w) => w.host),
            last.map((w) => w.r.status),
            last.map((w) => w.r.txt),
            last.map((w) => w.r.fetched),
            last.map((w) => w.r.failures),
            last.map((w) => w.r.crawlDelay),
          ],
        },
      ];
    }
  }
}

/** The statements of held-back writes: one run per stretch of writes of one kind, in order. */
export function writeStatements(writes: Write[]): Query[] {
  const out: Query[] = [];
  let start = 0;
  for (let i = 1; i <= writes.length; i++)
    if (i === writes.length || writes[i]!.kind !== writes[start]!.kind) {
      out.push(...statementsOf(writes.slice(start, i)));
      start = i;
    }
  return out;
}
