/**
 * @module searcher/http/app
 * The searcher's HTTP face, a thin hono app made by a factory: every route
 * leases the current snapshot, calls plain functions in searcher/, and
 * renders. Bad input answers 400 with a message, an unknown URL 404; a 500
 * is a bug. Our pages forbid all script but the type-ahead's own (PAGE_CSP);
 * a cached page is served under `sandbox`, so its own scripts cannot run.
 */
import fs from 'node:fs/promises';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { cachedContent, decodeContent, docByUrl, hitDetails, hitSummary, parseText } from '../details.js';
import { explainHtml } from '../explain.js';
import { search, type SearchRequest, type SearchResult } from '../search.js';
import type { SearchSettings } from '../settings.js';
import { QuerySyntaxError } from '../query/parse.js';
import { shardRoutes } from '../shard/routes.js';
import { siteName } from '../sites.js';
import type { Respelled } from '../spell.js';
import { didYouMean } from '../suggest.js';
import type { Snapshot, SnapshotProvider } from '../snapshot.js';
import { anchorsPage, cachedHtml, cachedOther, homePage, noArchivePage, statsPage, textPage, type IndexStats } from './docpages.js';
import { logoResponse } from './brand.js';
import { messagePage, PAGE_CSP } from './layout.js';

/**
 * The cached copy of a page: sandbox without allow-scripts, so no script,
 * handler attribute or form of the page runs; and nothing it names is loaded
 * (stylesheets, images, frames, fonts, CSS url()s), so a stored page can
 * neither call home when viewed nor read what is on the screen out through
 * CSS selectors. Its own inline styles still apply.
 */
const CACHED_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; frame-ancestors 'self'";
import { searchJson } from './api.js';
import { snapshotLease, type LeaseEnv } from './lease.js';
import { openSearchDescription, openSearchRss } from './opensearch.js';
import { resultsPage } from './results.js';
import { suggestJson, typeAheadScript } from './typeahead-box.js';

export interface AppOptions {
  snapshots: SnapshotProvider;
  /** The crawl report `hazelnut report` writes into the crawl directory, served at /report when it is there. */
  reportFile?: string;
  /** Also answers a broker (hazelnut-searcher -shard): the /shard/ routes. */
  shard?: boolean;
}

export class BadRequest extends Error {}

/** A non-negative integer parameter, or the default when absent. */
function intParam(c: Context, name: string): number | undefined {
  const v = c.req.query(name);
  if (v === undefined || v === '') return undefined;
  if (!/^\d{1,9}$/.test(v.trim())) throw new BadRequest(`parameter ${name} must be a non-negative integer, not ${JSON.stringify(v.slice(0, 40))}`);
  return Number(v);
}

/** The search a request asks for. */
export function searchRequest(c: Context): SearchRequest {
  return {
    query: c.req.query('query') ?? '',
    start: intParam(c, 'start'),
    hitsPerPage: intParam(c, 'hitsPerPage'),
    // OpenSearch's hitsPerDup is Nutch's older name for hitsPerSite.
    hitsPerSite: intParam(c, 'hitsPerSite') ?? intParam(c, 'hitsPerDup'),
  };
}

function runSearch(c: Context<LeaseEnv>): SearchResult {
  return search(c.get('snapshot'), searchRequest(c));
}

/**
 * The search page's answer: the query's hits and its "did you mean"; when
 * the query as typed finds nothing and its respelling finds pages, those
 * pages, with the typed query to search instead (unless `asTyped=1` asks
 * for the typed query alone).
 */
function searchOrRespelled(c: Context<LeaseEnv>): { r: SearchResult; suggestion?: Respelled; insteadOf?: string } {
  const snap = c.get('snapshot');
  const typed = runSearch(c);
  const suggestion = didYouMean(snap, typed);
  if (!suggestion || typed.hits.length > 0 || typed.start > 0 || c.req.query('asTyped') === '1') return { r: typed, suggestion };
  const respelled = search(snap, { ...searchRequest(c), query: suggestion.query });
  return respelled.hits.length > 0 ? { r: respelled, suggestion, insteadOf: typed.raw } : { r: typed, suggestion };
}

export const defaultsOf = (settings: SearchSettings) => ({ hitsPerPage: 10, hitsPerSite: settings.hitsPerSite });
export const baseUrl = (c: Context) => new URL(c.req.url).origin;

export function indexStats(snap: Snapshot): IndexStats {
  const m = snap.reader.meta;
  return {
    documents: m.docCount - m.deletedCount,
    segments: snap.segments.names().length,
    indexSegments: m.segments,
    indexCreatedAt: m.createdAt,
    indexAgeSeconds: (Date.now() - m.createdAt) / 1000,
    loadedAt: snap.loadedAt,
    terms: m.termCount,
    version: snap.version,
  };
}

/** The `?url=` parameter, required. */
export function urlParam(c: Context): string {
  const url = c.req.query('url');
  if (!url) throw new BadRequest('parameter url is required');
  return url;
}

/** The document named by `?url=`, or undefined. */
function requireDoc(c: Context<LeaseEnv>) {
  return docByUrl(c.get('snapshot'), urlParam(c));
}

export const notFound = (c: Context) => c.html(messagePage('Not found', `${c.req.query('url') ?? c.req.path} is not in the index.`), 404);

/**
 * Headers every page gets; a page that sets its own Content-Security-Policy
 * keeps it. Set before the route answers, so they are in the response as the
 * route makes it through the context (every route does): set on a finished
 * response, each header would copy it, and its body into a stream.
 */
export const securityHeaders: MiddlewareHandler = async function securityHeaders(c, next) {
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Content-Security-Policy', PAGE_CSP);
  await next();
};

/** A bad request answers 400 with its message (JSON under /api/); anything else is a bug: 500, logged. */
export function answerError(e: Error, c: Context): Response {
  if (e instanceof BadRequest || e instanceof QuerySyntaxError) {
    if (c.req.path.startsWith('/api/')) return c.json({ error: e.message }, 400);
    return c.html(messagePage('Bad request', e.message, c.req.query('query')), 400);
  }
  console.error(e);
  return c.html(messagePage('Server error', 'The searcher failed on this request; the error is in its log.'), 500) as Response;
}

export function createApp(opts: AppOptions): Hono<LeaseEnv> {
  const app = new Hono<LeaseEnv>();

  app.use('*', securityHeaders);
  app.get('/healthz', (c) => c.text('ok\n'));
  app.get('/logo', logoResponse);
  app.get('/typeahead.js', typeAheadScript);
  app.get('/report', async (c) => {
    const html = opts.reportFile ? await fs.readFile(opts.reportFile, 'utf8').catch(() => undefined) : undefined;
    if (html === undefined)
      return c.html(messagePage('No crawl report', 'This crawl directory has no report.html yet: hazelnut crawl writes one at its end, and hazelnut report <crawl_dir> writes it any time.'), 404);
    return c.html(html);
  });
  app.use('*', snapshotLease(opts.snapshots));

  app.get('/', (c) => c.html(homePage(indexStats(c.get('snapshot')))));

  app.get('/search', (c) => {
    const snap = c.get('snapshot');
    if (!(c.req.query('query') ?? '').trim()) return c.html(homePage(indexStats(snap)));
    const { r, suggestion, insteadOf } = searchOrRespelled(c);
    const views = r.hits.map((h) => ({ hit: h, ...hitDetails(snap, h, r), siteName: siteName(snap.reader, h.doc) }));
    return c.html(resultsPage(r, views, defaultsOf(snap.settings), { suggestion, insteadOf, siteName: (doc) => siteName(snap.reader, doc), fileUrlMap: snap.settings.fileUrlMap }));
  });

  app.get('/api/search', (c) => c.json(searchJson(c.get('snapshot'), runSearch(c))));
  app.get('/api/suggest', (c) => c.json(suggestJson(c.get('snapshot'), c.req.query('q') ?? '', intParam(c, 'limit'))));

  app.get('/opensearch', (c) => {
    const snap = c.get('snapshot');
    const r = runSearch(c);
    const xml = openSearchRss(r, r.hits.map((h) => hitSummary(snap, h, r)), baseUrl(c), defaultsOf(snap.settings));
    return c.body(xml, 200, { 'Content-Type': 'text/xml; charset=utf-8' });
  });

  app.get('/opensearch.xml', (c) => c.body(openSearchDescription(baseUrl(c)), 200, { 'Content-Type': 'application/opensearchdescription+xml; charset=utf-8' }));

  app.get('/cached', (c) => {
    const snap = c.get('snapshot');
    const doc = requireDoc(c);
    if (!doc) return notFound(c);
    if (doc.noarchive) return c.html(noArchivePage(doc), 403);
    const cached = cachedContent(snap, doc);
    if (!cached) return c.html(messagePage('No cached copy', `The segment ${doc.segment} holding ${doc.url} is not available on this server.`), 404);
    const type = (cached.content.contentType ?? doc.type).split(';')[0]!.trim().toLowerCase();
    const fetched = cached.fetch?.fetchTime ?? doc.tstamp;
    if (type === 'text/html' || type === 'application/xhtml+xml') {
      return c.body(cachedHtml(decodeContent(cached.content), doc, fetched), 200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': CACHED_CSP,
      });
    }
    const text = type.startsWith('text/') || type.endsWith('+xml') || type.endsWith('/json') ? decodeContent(cached.content) : undefined;
    return c.html(cachedOther(doc, type, fetched, text));
  });

  app.get('/cached/raw', (c) => {
    const snap = c.get('snapshot');
    const doc = requireDoc(c);
    if (!doc) return notFound(c);
    if (doc.noarchive) return c.html(noArchivePage(doc), 403);
    const cached = cachedContent(snap, doc);
    if (!cached) return notFound(c);
    const type = cached.content.contentType ?? doc.type ?? 'application/octet-stream';
    return c.body(new Uint8Array(cached.content.bytes), 200, {
      'Content-Type': type,
      'Content-Security-Policy': "sandbox; default-src 'none'",
      'Content-Disposition': 'inline',
    });
  });

  app.get('/text', (c) => {
    const doc = requireDoc(c);
    if (!doc) return notFound(c);
    return c.html(textPage(doc, parseText(c.get('snapshot'), doc)));
  });

  app.get('/anchors', (c) => {
    const doc = requireDoc(c);
    if (!doc) return notFound(c);
    return c.html(anchorsPage(doc));
  });

  app.get('/explain', (c) => {
    const doc = requireDoc(c);
    if (!doc) return notFound(c);
    return c.html(explainHtml(c.get('snapshot'), doc, c.req.query('query') ?? ''));
  });

  if (opts.shard) shardRoutes(app);

  app.get('/stats', (c) => {
    const s = indexStats(c.get('snapshot'));
    return (c.req.header('accept') ?? '').includes('application/json') || c.req.query('format') === 'json' ? c.json(s) : c.html(statsPage(s));
  });

  app.notFound((c) => c.html(messagePage('Not found', `There is no page ${c.req.path} here.`), 404));

  app.onError(answerError);

  return app;
}
