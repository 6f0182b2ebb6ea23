/**
 * @module crawler/webdb/postgres/ops
 * The WebDB's operations as PostgreSQL statements, each answering what its
 * SQLite twin answers (the contract suite checks both). Bulk operations
 * (inject, markGenerated, setLinkScores, ...) send arrays, a chunk at a time;
 * per-row writes are held back by the connection and sent as sets.
 */
import type { DbStatus } from '../../../shared/page-status.js';
import type { GenerateOps, HostOps, InjectOps, Inlink, InvertlinksOps, LinkDbReadOps, LinkrankOps, LinkRow, PageRow, PartitionOps, ReaddbOps, UpdatedbOps, WebDb } from '../interface.js';
import type { Connection } from './connection.js';
import { PAGE_COLUMNS } from './schema.js';
import { outlinkRows } from './writes.js';

/** Rows per statement of a bulk operation. */
const CHUNK = 10_000;

function* chunks<T>(items: Iterable<T>, size = CHUNK): Generator<T[]> {
  let chunk: T[] = [];
  for (const x of items) {
    chunk.push(x);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length) yield chunk;
}

const count = (r: { rows: { n: number }[] }) => r.rows[0]!.n;

export function webDbOps(c: Connection): Omit<WebDb, keyof PartitionOps | 'transaction' | 'close'> {
  return { ...injectOps(c), ...generateOps(c), ...updatedbOps(c), ...invertlinksOps(c), ...linkDbReadOps(c), ...linkrankOps(c), ...readdbOps(c), ...hostOps(c) };
}

/** Inject and sitemaps: new seeds, and known pages due again by a sitemap's lastmod. */
function injectOps(c: Connection): InjectOps {
  return {
    inject(seeds, now, overwrite) {
      const n = { injected: 0, overwritten: 0, known: 0 };
      c.transaction(() => {
        for (const chunk of chunks(seeds)) {
          // The first seed of a URL may be new; a repeat is known by then (or resets it, with overwrite).
          const first = new Map<string, (typeof chunk)[number]>();
          const last = new Map<string, (typeof chunk)[number]>();
          for (const s of chunk) {
            if (!first.has(s.url)) first.set(s.url, s);
            last.set(s.url, s);
          }
          const f = [...first.values()];
          const inserted = c.query<{ url: string }>(
            'pages',
            `INSERT INTO pages (url, host, status, fetch_time, fetch_interval, retries, score, metadata)
             SELECT url, host, 'db_unfetched', $6, interval, 0, score, meta
             FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::text[]) WITH ORDINALITY AS x(url, host, score, interval, meta, ord)
             ORDER BY ord ON CONFLICT (url) DO NOTHING RETURNING url`,
            [f.map((s) => s.url), f.map((s) => s.host), f.map((s) => s.score), f.map((s) => s.interval), f.map((s) => s.meta), now],
          );
          n.injected += inserted.rowCount;
          const fresh = new Set(inserted.rows.map((r) => r.url));
          const again = chunk.length - inserted.rowCount;
          if (!overwrite) {
            n.known += again;
            continue;
          }
          // A new URL's repeats reset it too; a known URL's first seed already does.
          const reset = [...last.values()].filter((s) => !fresh.has(s.url) || s !== first.get(s.url));
          c.query(
            'pages',
            `UPDATE pages p SET status = 'db_unfetched', fetch_time = $5, fetch_interval = x.interval, retries = 0, score = x.score, metadata = x.meta,
               generate_time = NULL, signature = NULL, modified_time = 0, etag = NULL, last_modified = NULL
             FROM unnest($1::text[], $2::float8[], $3::float8[], $4::text[]) AS x(url, score, interval, meta) WHERE p.url = x.url`,
            [reset.map((s) => s.url), reset.map((s) => s.score), reset.map((s) => s.interval), reset.map((s) => s.meta), now],
          );
          // Row by row, every seed not inserted resets a stored row.
          n.overwritten += again;
        }
      });
      return n;
    },
    dueIfModified(entries, now) {
      let n = 0;
      c.transaction(() => {
        for (const chunk of chunks(entries))
          n += c.query(
            'pages',
            `UPDATE pages p SET fetch_time = $3 FROM unnest($1::text[], $2::float8[]) AS x(url, lastmod)
             WHERE p.url = x.url AND p.last_fetch_time IS NOT NULL AND p.last_fetch_time < x.lastmod AND p.fetch_time > $3`,
            [chunk.map((e) => e.url), chunk.map((e) => e.lastmod), now],
          ).rowCount;
      });
      return n;
    },
  };
}

/** Generate: the candidates, the marks and what waits. */
function generateOps(c: Connection): GenerateOps {
  return {
    generateCandidates(q) {
      return c.cursor<PageRow>(
        'pages',
        `SELECT ${PAGE_COLUMNS} FROM pages WHERE (generate_time IS NULL OR generate_time + $1 <= $2)
           AND (fetch_time <= $3 OR fetch_time > $4) ORDER BY score DESC, url`,
        [q.delayMs, q.now, q.dueBy, q.pullIn],
      );
    },
    markGenerated(urls, now) {
      c.transaction(() => {
        for (const chunk of chunks(urls)) c.query('pages', 'UPDATE pages SET generate_time = $2 WHERE url = ANY($1::text[])', [chunk, now]);
      });
    },
    awaitingUpdate(delayMs, now) {
      const r = c.query<{ n: number; last: number | null }>(
        'pages',
        'SELECT COUNT(*) AS n, MAX(generate_time) AS last FROM pages WHERE generate_time IS NOT NULL AND generate_time + $1 > $2',
        [delayMs, now],
      ).rows[0]!;
      return { count: r.n, last: r.last };
    },
    nextDue(delayMs, now) {
      return c.query<{ t: number | null }>('pages', 'SELECT MIN(fetch_time) AS t FROM pages WHERE generate_time IS NULL OR generate_time + $1 <= $2', [delayMs, now]).rows[0]!.t;
    },
  };
}

/** Updatedb: pages merged and their outlinks, each segment once. */
function updatedbOps(c: Connection): UpdatedbOps {
  return {
    isApplied(tool, segment) {
      return c.query('applied', 'SELECT 1 FROM applied WHERE tool = $1 AND segment = $2', [tool, segment]).rowCount > 0;
    },
    markApplied(tool, segment, at) {
      c.write({ kind: 'applied', tool, segment, at });
    },
    pageScore(url) {
      return c.query<{ score: number }>('pages', 'SELECT score FROM pages WHERE url = $1', [url], url).rows[0]?.score;
    },
    pagesOf(urls) {
      const found = new Map<string, PageRow>();
      for (const r of c.query<PageRow>('pages', `SELECT ${PAGE_COLUMNS} FROM pages WHERE url = ANY($1::text[])`, [[...urls]]).rows) found.set(r.url, r);
      return found;
    },
    putPage(row) {
      c.write({ kind: 'page', row: { ...row } });
    },
    replaceOutlinks(source, outlinks) {
      c.write({ kind: 'outlinks', source, links: [...outlinks] });
      return outlinkRows(outlinks).length;
    },
  };
}

/** Invertlinks: the targets to redo and their links, in sets. */
function invertlinksOps(c: Connection): InvertlinksOps {
  return {
    stageLinkTargets(sources) {
      c.query(undefined, 'CREATE TEMP TABLE IF NOT EXISTS invert_sources (url text COLLATE "C" PRIMARY KEY)');
      c.query(undefined, 'CREATE TEMP TABLE IF NOT EXISTS invert_targets (url text COLLATE "C" PRIMARY KEY)');
      c.query(undefined, 'TRUNCATE invert_targets');
      for (const chunk of chunks(sources)) c.query(undefined, 'INSERT INTO invert_sources SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [chunk]);
      const n = c.query(
        undefined,
        `INSERT INTO invert_targets SELECT target FROM links WHERE source IN (SELECT url FROM invert_sources)
         UNION SELECT target FROM inlinks WHERE source IN (SELECT url FROM invert_sources)`,
      ).rowCount;
      c.query(undefined, 'TRUNCATE invert_sources');
      return n;
    },
    stagedLinkTargets(after, limit) {
      return c.query<{ url: string }>(undefined, 'SELECT url FROM invert_targets WHERE url > $1 ORDER BY url LIMIT $2', [after, limit]).rows.map((r) => r.url);
    },
    linksToEach(targets) {
      const found = new Map<string, LinkRow[]>();
      const rows = c.query<LinkRow & { target: string }>(
        'links',
        'SELECT target, source, anchor, nav FROM links WHERE target = ANY($1::text[]) ORDER BY target, nav, seq',
        [[...targets]],
      ).rows;
      for (const { target, ...l } of rows) {
        const list = found.get(target);
        if (list) list.push(l);
        else found.set(target, [l]);
      }
      return found;
    },
    clearInlinks(target) {
      c.write({ kind: 'clearInlinks', target });
    },
    addInlinks(target, inlinks) {
      for (const { source, anchor } of inlinks) c.write({ kind: 'inlink', target, source, anchor });
      return inlinks.length;
    },
  };
}

/** The inlinks as the indexer and readlinkdb read them. */
function linkDbReadOps(c: Connection): LinkDbReadOps {
  return {
    inlinks(target, order) {
      return c.query<Inlink>('inlinks', `SELECT source, anchor FROM inlinks WHERE target = $1 ORDER BY ${order === 'source' ? 'source' : 'seq'}`, [target]).rows;
    },
    allInlinks() {
      return c.cursor<Inlink & { target: string }>('inlinks', 'SELECT target, source, anchor FROM inlinks ORDER BY target, seq');
    },
  };
}

/** Linkrank: the pages numbered, the link graph and the scores written back. */
function linkrankOps(c: Connection): LinkrankOps {
  return {
    numberPages() {
      c.query(undefined, 'CREATE TEMP TABLE IF NOT EXISTS rank_ids (id int4 PRIMARY KEY, url text COLLATE "C" NOT NULL UNIQUE)');
      c.query(undefined, 'TRUNCATE rank_ids');
      return c.query('pages', 'INSERT INTO rank_ids SELECT ROW_NUMBER() OVER (ORDER BY url COLLATE "C") - 1, url FROM pages').rowCount;
    },
    linkEdges(opts) {
      return c.cursor<[number, number]>(
        'links',
        `SELECT a.id, b.id FROM links l JOIN rank_ids a ON a.url = l.source JOIN rank_ids b ON b.url = l.target${opts.withNavigation ? '' : ' WHERE l.nav = 0'}`,
        [],
        { array: true },
      );
    },
    numberedSites() {
      return c.cursor<[string, string | null]>(
        'pages',
        "SELECT p.host, CASE WHEN p.status IN ('db_fetched', 'db_notmodified') THEN COALESCE(p.signature, '') END FROM rank_ids r JOIN pages p ON p.url = r.url ORDER BY r.id",
        [],
        { array: true },
      );
    },
    setLinkScores(scores) {
      c.transaction(() => {
        for (let i = 0; i < scores.length; i += CHUNK) {
          const n = Math.min(CHUNK, scores.length - i);
          c.query('pages', 'UPDATE pages p SET link_score = x.s FROM unnest($1::int4[], $2::float8[]) AS x(id, s) JOIN rank_ids r ON r.id = x.id WHERE p.url = r.url', [
            Array.from({ length: n }, (_, j) => i + j),
            Array.from({ length: n }, (_, j) => scores[i + j]!),
          ]);
        }
      });
    },
  };
}

/** Readdb: a page, the counts and the best scores. */
function readdbOps(c: Connection): ReaddbOps {
  return {
    page(url) {
      return c.query<PageRow>('pages', `SELECT ${PAGE_COLUMNS} FROM pages WHERE url = $1`, [url], url).rows[0];
    },
    pageCount() {
      return count(c.query<{ n: number }>('pages', 'SELECT COUNT(*) AS n FROM pages'));
    },
    scoreStats() {
      const r = c.query<{ n: number; min: number | null; avg: number | null; max: number | null }>(
        'pages',
        'SELECT COUNT(*) AS n, MIN(score) AS min, AVG(score) AS avg, MAX(score) AS max FROM pages',
      ).rows[0]!;
      return { count: r.n, min: r.min, avg: r.avg, max: r.max };
    },
    retryCounts() {
      return c.query<{ retries: number; count: number }>('pages', 'SELECT retries, COUNT(*) AS count FROM pages GROUP BY retries ORDER BY retries').rows;
    },
    statusCounts() {
      return c.query<{ status: DbStatus; count: number }>('pages', 'SELECT status, COUNT(*) AS count FROM pages GROUP BY status ORDER BY status').rows;
    },
    statusHostCounts() {
      return c.query<{ status: DbStatus; host: string; count: number }>(
        'pages',
        'SELECT status, host, COUNT(*) AS count FROM pages GROUP BY status, host ORDER BY status, host',
      ).rows;
    },
    pages() {
      return c.cursor<PageRow>('pages', `SELECT ${PAGE_COLUMNS} FROM pages ORDER BY url`);
    },
    topScores(n, min) {
      return c.query<{ url: string; score: number }>('pages', 'SELECT url, score FROM pages WHERE score >= $1 ORDER BY score DESC, url LIMIT $2', [
        Number.isFinite(min) ? min : -1e308,
        n,
      ]).rows;
    },
  };
}

/** The fetcher's per-host facts: robots.txt and loopback seeds. */
function hostOps(c: Connection): HostOps {
  return {
    robots(host) {
      const r = c.query<{ robots_status: string | null; robots_txt: string | null; robots_fetched: number | null; robots_failures: number; crawl_delay: number | null }>(
        'hosts',
        'SELECT robots_status, robots_txt, robots_fetched, robots_failures, crawl_delay FROM hosts WHERE host = $1',
        [host],
      ).rows[0];
      if (!r?.robots_status || r.robots_fetched === null) return undefined;
      return { status: r.robots_status, txt: r.robots_txt, fetched: r.robots_fetched, failures: r.robots_failures, crawlDelay: r.crawl_delay };
    },
    putRobots(host, r) {
      c.write({ kind: 'robots', host, r: { ...r } });
    },
    markSeedsOnLoopback() {
      c.query(undefined, "INSERT INTO meta (key, value) VALUES ('seeds.loopback', '1') ON CONFLICT (key) DO NOTHING");
    },
    seedsOnLoopback() {
      return c.query(undefined, "SELECT 1 FROM meta WHERE key = 'seeds.loopback'").rowCount > 0;
    },
  };
}
