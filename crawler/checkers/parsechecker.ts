/**
 * @module crawler/checkers/parsechecker
 * `hazelnut parsechecker <url>`: Nutch's ParserChecker. Fetches a page the way
 * the fetcher does — same User-Agent, robots.txt, timeouts, content limit and
 * charset detection (crawler/fetch) — parses it with `parseContent`, as an
 * inline parse would, and prints what the crawl would store: fetch status,
 * content type, charset, title, language, signature, meta robots, refresh,
 * canonical, the outlinks after normalizing and filtering, and the start of
 * the text. Nothing is written. A page that does not fetch or parse makes the
 * exit code 1.
 */
import { UsageError } from '../../shared/errors.js';
import { intOption } from '../../shared/command.js';
import type { FetchRecord, ParseRecord } from '../../segments/segment.js';
import { fetchSteps } from '../fetch/step.js';
import { robotsAgents } from '../fetch/protocol-http.js';
import { withLoopback } from '../fetch/address.js';
import { startProtocols } from '../fetch/protocols.js';
import { decideRedirect } from '../fetch/redirect.js';
import { RobotsCache } from '../fetch/robots.js';
import type { FetchItem, FetchOutcome } from '../fetch/step.js';
import { parseContent } from '../parse/parse-content.js';
import { mediaType } from '../parse/sniff.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from '../plugin/chains.js';
import { checkerTool, type CheckResult } from './checker.js';

/** Characters of text shown without -dumpText. */
export const TEXT_PREVIEW = 500;
/** Redirect hops -followRedirects takes. */
export const MAX_REDIRECTS = 5;

const row = (key: string, value: string) => `${(key + ':').padEnd(13)}${value}`;

function fetchLine(r: FetchRecord): string {
  const http = r.httpStatus === null ? '' : `, HTTP ${r.httpStatus}`;
  const ms = typeof r.meta?.ms === 'number' ? ` in ${r.meta.ms} ms` : '';
  const to = r.redirectTo ? ` -> ${r.redirectTo}` : '';
  return `${r.status} (${r.protocolStatus}${http})${ms}${to}${r.message ? `: ${r.message}` : ''}`;
}

/** The parse as rows: what the indexer and updatedb would get from this page. */
export function parseReport(p: ParseRecord, fetch: FetchRecord, text: { all: boolean; preview: number }): string[] {
  const declared = fetch.contentType ?? '(none)';
  // parseContent records the type it chose (sniffed when the header is missing or wrong).
  const sniffed = String(p.meta.contentType);
  const charset = typeof fetch.meta?.charset === 'string' ? `${fetch.meta.charset} (from ${String(fetch.meta.charsetSource)})` : '(binary)';
  const lines = [
    row('contentType', sniffed === mediaType(declared) ? sniffed : `${sniffed} (header: ${declared})`),
    row('charset', charset),
    row('parse', `${p.status}${p.message ? `: ${p.message}` : ''}${p.meta.truncated ? ' (content truncated at http.content.limit)' : ''}`),
    row('title', p.title),
    row('lang', p.lang ?? '(unknown)'),
    row('signature', p.signature ?? '(none)'),
    row('noindex', p.meta.noindex ? 'yes' : 'no'),
    row('nofollow', p.meta.nofollow ? 'yes' : 'no'),
    row('refresh', p.meta.refresh ? `${p.meta.refresh.delay} s -> ${p.meta.refresh.url}` : '(none)'),
    row('canonical', p.meta.canonical ?? '(none)'),
  ];
  const inPage = typeof p.meta.outlinkCount === 'number' ? ` (of ${p.meta.outlinkCount} in the page)` : '';
  lines.push(row('outlinks', `${p.outlinks.length}${inPage}`));
  for (const l of p.outlinks) lines.push(`  ${l.url}\t${l.anchor}${l.nav ? '\t[nav]' : ''}`);
  const shown = text.all ? p.text : p.text.slice(0, text.preview);
  const of = shown.length < p.text.length ? `first ${shown.length} of ${p.text.length} characters; -dumpText for all` : `${p.text.length} characters`;
  lines.push(row('text', `(${of})`), shown);
  return lines;
}

/** Follows redirects as the fetcher does (normalized, filtered, loops ended), when asked to. */
async function fetchFollowing(
  fetchOne: (item: FetchItem) => Promise<FetchOutcome>,
  plugins: CrawlerPlugins,
  url: string,
  opts: { follow: boolean; ignoreExternal: boolean },
  lines: string[],
): Promise<FetchOutcome> {
  let item: FetchItem = { url, datum: {}, hop: 0, chain: [url] };
  for (;;) {
    const o = await fetchOne(item);
    const redirected = o.record.status === 'fetch_redir_perm' || o.record.status === 'fetch_redir_temp';
    if (!redirected) return o;
    const d = decideRedirect({
      from: item.url,
      location: o.record.headers.location,
      hop: item.hop,
      chain: item.chain,
      maxRedirects: opts.follow ? MAX_REDIRECTS : 0,
      ignoreExternal: opts.ignoreExternal,
      normalize: (u) => plugins.normalizers.normalize(u, 'fetcher'),
      filters: plugins.filters,
    });
    if (d.kind === 'drop') o.record.message = d.reason;
    else if (d.kind === 'loop') Object.assign(o.record, { redirectTo: d.url, message: `redirect loop: ${d.chain.join(' -> ')}` });
    else if (d.kind === 'record')
      Object.assign(o.record, { redirectTo: d.url, message: opts.follow ? `more than ${MAX_REDIRECTS} redirects` : 'not followed (-followRedirects follows it)' });
    if (d.kind !== 'follow') return o;
    lines.push(row('fetch', `${fetchLine(o.record)} -> ${d.url}`));
    item = { url: d.url, datum: {}, hop: d.hop, chain: [...item.chain, d.url] };
    lines.push(row('url', d.url));
  }
}

export default checkerTool({
  name: 'parsechecker',
  usage: `Usage: hazelnut parsechecker [-noRobots] [-followRedirects] [-dumpText] [-textLength n] [<url> ...]
Fetches each URL as the fetcher does (http.agent.name must be set) and prints the fetch
status, content type, charset, title, language, signature, meta robots, refresh, canonical,
the outlinks after normalizing and filtering, and the start of the text. Nothing is stored.
URLs come from the arguments or, with none, one per line from stdin. Exits 1 when a page
does not fetch or parse.
  -noRobots         fetch even what robots.txt disallows
  -followRedirects  follow up to ${MAX_REDIRECTS} redirects (the fetcher follows http.redirect.max)
  -dumpText         print all of the text (default: the first ${TEXT_PREVIEW} characters)
  -textLength n     characters of text to print`,
  args: { boolean: ['noRobots', 'followRedirects', 'dumpText'], string: ['textLength'] },
  async prepare(ctx, a) {
    const conf = ctx.conf;
    const preview = intOption(a.textLength, 'textLength') ?? TEXT_PREVIEW;
    if (preview < 0) throw new UsageError(`-textLength must not be negative, not ${preview}`);
    const plugins = await loadCrawlerPlugins(conf);
    // The URLs checked are the user's own, like seeds: loopback is theirs to check.
    const protocols = startProtocols(withLoopback(conf, true), plugins.protocols);
    const robots = a.noRobots ? null : new RobotsCache({ http: protocols, agents: robotsAgents(conf) });
    const fetchOne = fetchSteps(conf, protocols, robots);
    const follow = { follow: a.followRedirects === true, ignoreExternal: conf.getBoolean('db.ignore.external.links') };
    let first = true;
    async function check({ url, where }: { url: string; where: string }): Promise<CheckResult> {
      const lines = first ? [] : [''];
      first = false;
      let href: string;
      try {
        href = new URL(url).href;
      } catch {
        return { text: [...lines, row('url', url), row('fetch', `not an absolute URL (${where})`)].join('\n'), failed: true };
      }
      lines.push(row('url', href));
      const o = await fetchFollowing(fetchOne, plugins, href, follow, lines);
      lines.push(row('fetch', fetchLine(o.record)));
      if (o.record.protocolStatus === 'robots_denied') lines.push('             (-noRobots fetches it anyway)');
      if (!o.content) return { text: lines.join('\n'), failed: true };
      const p = await parseContent(plugins, conf, o.content, o.record);
      lines.push(...parseReport(p, o.record, { all: a.dumpText === true, preview }));
      return { text: lines.join('\n'), failed: p.status !== 'success' };
    }
    return { check: { check, close: () => protocols.close() } };
  },
});
