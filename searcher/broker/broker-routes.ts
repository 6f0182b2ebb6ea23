/**
 * @module searcher/broker/broker-routes
 * The broker's HTTP face: the same pages and JSON as one searcher's
 * (searcher/http/app.ts), made from its shards' answers. A page or JSON
 * missing some shards says so (a notice, and `shards` in the JSON); with no
 * shard answering it is a 503, never a 500. Cached copies, text, anchors and
 * explain come from the shard holding the page, passed through as it sent them.
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { resultJson } from '../http/api.js';
import { answerError, baseUrl, defaultsOf, notFound, searchRequest, securityHeaders, urlParam } from '../http/app.js';
import { homePage, statsPage } from '../http/docpages.js';
import { logoResponse } from '../http/brand.js';
import { typeAheadScript } from '../http/typeahead-box.js';
import { messagePage } from '../http/layout.js';
import { openSearchDescription, openSearchRss } from '../http/opensearch.js';
import { resultsPage } from '../http/results.js';
import { Broker, type BrokerResult } from './broker.js';
import { missingNotice, NoShardAnswered, type MissingShard } from './missing.js';
import { ShardDown, type ShardAnswer } from './client.js';

/** Headers of a shard's page that travel with it through the broker. */
const PASSED_HEADERS = ['content-type', 'content-security-policy', 'content-disposition'];

function shardsJson(b: Broker, missing: readonly MissingShard[]) {
  const names = new Set(missing.map((m) => m.shard));
  return { asked: b.shardNames.length, answered: b.shardNames.length - names.size, missing: [...new Map(missing.map((m) => [m.shard, m])).values()] };
}

async function passThrough(c: Context, b: Broker, found: { res?: ShardAnswer; missing: MissingShard[] }): Promise<Response> {
  if (!found.res) {
    const notice = missingNotice(found.missing, b.shardNames.length);
    if (notice) return c.html(messagePage('Not found', `${c.req.query('url')} is in no shard that answered. ${notice}`), 404);
    return notFound(c);
  }
  const headers: Record<string, string> = {};
  for (const h of PASSED_HEADERS) {
    const v = found.res.header(h);
    if (v) headers[h] = v;
  }
  try {
    // Through the context, so the headers every page gets are in it (securityHeaders).
    return c.body(await found.res.bytes(), found.res.status as ContentfulStatusCode, headers);
  } catch (e) {
    if (!(e instanceof ShardDown)) throw e;
    return c.html(messagePage('Shard not answering', `The shard holding ${c.req.query('url')} stopped answering (${e.message}); try again.`), 503);
  }
}

export function createBrokerApp(b: Broker): Hono {
  const app = new Hono();
  const defaults = defaultsOf(b.settings);
  const run = (c: Context): Promise<BrokerResult> => b.search(searchRequest(c));
  const notices = (r: BrokerResult) => [missingNotice(r.missing, r.shards)].filter((n): n is string => !!n);

  app.use('*', securityHeaders);
  app.get('/healthz', (c) => c.text('ok\n'));
  app.get('/logo', logoResponse);
  // The pages load the search box's script; a broker has no titles to suggest, and its /api/suggest is not found.
  app.get('/typeahead.js', typeAheadScript);
  app.get('/report', (c) => c.html(messagePage('No crawl report', 'A broker holds no crawl directory: see the report where the crawl ran.'), 404));
  app.get('/opensearch.xml', (c) => c.body(openSearchDescription(baseUrl(c)), 200, { 'Content-Type': 'application/opensearchdescription+xml; charset=utf-8' }));

  app.get('/', async (c) => c.html(homePage((await b.indexStats()).stats)));
  app.get('/stats', async (c) => {
    const { stats, missing } = await b.indexStats();
    if ((c.req.header('accept') ?? '').includes('application/json') || c.req.query('format') === 'json') return c.json({ ...stats, shards: shardsJson(b, missing) });
    return c.html(statsPage(stats));
  });

  app.get('/search', async (c) => {
    if (!(c.req.query('query') ?? '').trim()) return c.html(homePage((await b.indexStats()).stats));
    const r = await run(c);
    return c.html(resultsPage(r.result, r.views, defaults, { suggestion: r.suggestion, siteName: r.siteName, notices: notices(r), fileUrlMap: b.settings.fileUrlMap }));
  });

  app.get('/api/search', async (c) => {
    const r = await run(c);
    return c.json({ ...resultJson(r.result, r.views, { ...r, fileUrlMap: b.settings.fileUrlMap }), notice: notices(r)[0] ?? null, shards: shardsJson(b, r.missing) });
  });

  app.get('/opensearch', async (c) => {
    const r = await run(c);
    const xml = openSearchRss(r.result, r.views.map((v) => v.summary), baseUrl(c), defaults);
    return c.body(xml, 200, { 'Content-Type': 'text/xml; charset=utf-8' });
  });

  for (const path of ['/cached', '/cached/raw', '/text', '/anchors']) {
    app.get(path, async (c) => {
      urlParam(c);
      return passThrough(c, b, await b.forward(path + new URL(c.req.url).search));
    });
  }

  app.get('/explain', async (c) => passThrough(c, b, await b.explain(urlParam(c), c.req.query('query') ?? '')));

  app.notFound((c) => c.html(messagePage('Not found', `There is no page ${c.req.path} here.`), 404));
  app.onError((e, c) => {
    if (!(e instanceof NoShardAnswered)) return answerError(e, c);
    if (c.req.path.startsWith('/api/')) return c.json({ error: e.message }, 503);
    return c.html(messagePage('No shard answered', `${e.message}. Start the shard searchers (hazelnut-searcher -shard), then try again.`, c.req.query('query')), 503);
  });
  return app;
}
