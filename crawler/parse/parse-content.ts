/**
 * @module crawler/parse/parse-content
 * Parsing one fetched page, shared by the `parse` tool and the fetcher's
 * inline parse: choose a parser by content type (sniffed when the header is
 * missing or wrong), run it, then apply Nutch's outlink rules
 * (ParseOutputFormat): drop self-links, normalize (scope `outlink`) and
 * filter, `db.ignore.external.links`, keep at most `db.max.outlinks.per.page`
 * valid links and cut anchors to `db.max.anchor.length`; what the rules
 * dropped is counted in the parse meta (`outlinksDropped`). Past the cap,
 * `EXAMINED_PAST_CAP` more links are looked at (to count them as filtered,
 * external or over the cap) and the rest are counted over the cap without a
 * look, so a page of 100,000 links costs a few thousand normalizations, not
 * 100,000 (Nutch stops at the cap and counts nothing). Meta robots
 * `nofollow` leaves no outlinks; `noindex` is kept in the parse meta for the
 * indexer. Every record gets a signature (`db.signature.class`) and a
 * language. A page no parser takes is kept as `notparsed`, a parser error
 * becomes `failed`; nothing a page contains makes this function throw.
 */
import type { Conf } from '../../shared/conf.js';
import type { ParseOutput, Parser } from '../../shared/plugin/extension-points.js';
import { host } from '../url/keys.js';
import { leadsToLocalFiles } from '../url/limits.js';
import type { ContentRecord, FetchRecord, Outlink, ParseRecord, Segment } from '../../segments/segment.js';
import type { CrawlerPlugins } from '../plugin/chains.js';
import { memoByUrl } from '../url-memo.js';
import { breathe, LINKS_PER_BREATH } from './breathe.js';
import { pageLanguage } from './language.js';
import { signatureFromConf, type SignatureFn } from './signature.js';
import { mediaType, sniffContentType } from './sniff.js';

export type ParsePlugins = Pick<CrawlerPlugins, 'normalizers' | 'filters' | 'parsers' | 'outlinkAnswersFixed'>;

export interface ParseOptions {
  /** Valid outlinks kept per page; negative keeps all. */
  maxOutlinks: number;
  maxAnchorLength: number;
  ignoreExternalLinks: boolean;
  signature: SignatureFn;
  /** Characters of text language detection looks at. */
  langMaxLength: number;
}

const optionsCache = new WeakMap<Conf, ParseOptions>();

/** The parse properties, read once per configuration. */
export function parseOptions(conf: Conf): ParseOptions {
  let o = optionsCache.get(conf);
  if (!o) {
    o = {
      maxOutlinks: conf.getInt('db.max.outlinks.per.page'),
      maxAnchorLength: conf.getInt('db.max.anchor.length'),
      ignoreExternalLinks: conf.getBoolean('db.ignore.external.links'),
      signature: signatureFromConf(conf),
      langMaxLength: conf.getInt('lang.analyze.max.length'),
    };
    optionsCache.set(conf, o);
  }
  return o;
}

/** The parser for a media type: one that names it exactly, else one claiming its family (`text/*`). */
export function chooseParser(parsers: readonly Parser[], type: string): Parser | undefined {
  const family = type.split('/')[0] + '/*';
  return parsers.find((p) => p.contentTypes.includes(type)) ?? parsers.find((p) => p.contentTypes.includes(family));
}

/** Links of a page that a rule dropped (parse meta `outlinksDropped`), so a crawl can say what it did not follow. */
export interface OutlinksDropped {
  /** Valid links past `db.max.outlinks.per.page`. */
  cap: number;
  /** Rejected by a URL normalizer or filter (including the crawl's host scope). */
  filtered: number;
  /** To another host, with `db.ignore.external.links`. */
  external: number;
}

/** The links a segment's parses dropped, summed. */
export function segmentOutlinksDropped(seg: Segment): OutlinksDropped {
  const [cap, filtered, external] = seg.sumParseMeta(['outlinksDropped.cap', 'outlinksDropped.filtered', 'outlinksDropped.external']) as [number, number, number];
  return { cap, filtered, external };
}

/** Links looked at after `db.max.outlinks.per.page` valid ones are kept; later ones count as over the cap. */
export const EXAMINED_PAST_CAP = 1000;

/** What the normalizers (scope `outlink`) and the filters make of a link: the normalized URL, and what the filters pass on. */
interface OutlinkAnswer {
  normalized: string | null;
  passed: string | null;
}

/** URLs whose answers are remembered, per thread and set of plugins; all are forgotten when it is full. */
export const OUTLINK_MEMO_SIZE = 10_000;
const memos = new WeakMap<ParsePlugins['filters'], (url: string) => OutlinkAnswer>();

/**
 * The normalizers' and filters' answer for a link, remembered unless it may
 * change. The pages of a site link the same URLs over and over (menus,
 * indexes, the pages around them), so most links of a page were answered
 * before.
 */
function outlinkAnswers(plugins: ParsePlugins): (url: string) => OutlinkAnswer {
  const ask = (url: string): OutlinkAnswer => {
    const normalized = plugins.normalizers.normalize(url, 'outlink');
    return { normalized, passed: normalized === null ? null : plugins.filters.filter(normalized) };
  };
  if (!plugins.outlinkAnswersFixed) return ask;
  let memo = memos.get(plugins.filters);
  if (!memo) memos.set(plugins.filters, (memo = memoByUrl(ask, OUTLINK_MEMO_SIZE)));
  return memo;
}

/** Nutch's outlink rules over a parser's raw outlinks, in document order; `dropped` counts what they left out. */
export async function filterOutlinks(
  plugins: ParsePlugins,
  opts: ParseOptions,
  from: string,
  raw: ParseOutput['outlinks'],
  dropped: OutlinksDropped = { cap: 0, filtered: 0, external: 0 },
): Promise<Outlink[]> {
  const fromHost = host(from);
  const answer = outlinkAnswers(plugins);
  const kept: Outlink[] = [];
  const seen = new Map<string, Outlink>();
  let pastCap = 0;
  for (let i = 0; i < raw.length; i++) {
    const l = raw[i]!;
    if (i % LINKS_PER_BREATH === LINKS_PER_BREATH - 1) await breathe();
    if (opts.maxOutlinks >= 0 && kept.length >= opts.maxOutlinks && pastCap++ === EXAMINED_PAST_CAP) {
      dropped.cap += raw.length - i;
      break;
    }
    if (l.url === from) continue;
    const { normalized, passed } = answer(l.url);
    // Whether a link leads a web page to a local file depends on the page: asked each time, as the filter chain asks it.
    const url = normalized === null || leadsToLocalFiles(from, normalized) ? null : passed;
    if (url === from) continue;
    if (url === null) {
      dropped.filtered++;
      continue;
    }
    if (opts.ignoreExternalLinks && host(url) !== fromHost) {
      dropped.external++;
      continue;
    }
    const anchor = l.anchor.length > opts.maxAnchorLength ? l.anchor.slice(0, opts.maxAnchorLength) : l.anchor;
    const key = `${url}\n${anchor}`;
    const dup = seen.get(key);
    if (dup) {
      // The same link in the menu and in the content counts as content.
      if (dup.nav && !l.nav) delete dup.nav;
      continue;
    }
    if (opts.maxOutlinks >= 0 && kept.length >= opts.maxOutlinks) {
      // Counted only once per URL and anchor, like the links kept.
      seen.set(key, { url, anchor });
      dropped.cap++;
      continue;
    }
    const o: Outlink = l.nav ? { url, anchor, nav: true } : { url, anchor };
    seen.set(key, o);
    kept.push(o);
  }
  return kept;
}

/** A meta refresh target after the fetcher-scope normalizers and the filters, or undefined if it goes nowhere new. */
function refreshTarget(plugins: ParsePlugins, from: string, url: string): string | undefined {
  const norm = plugins.normalizers.normalize(url, 'fetcher');
  const ok = norm === null ? null : plugins.filters.filter(norm, from);
  return ok === null || ok === from ? undefined : ok;
}

/** NUL and other C0 controls (not tab or line ends): a browser shows none of them, and the index and summaries must not either. */
function withoutControls(s: string): string {
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
}

export async function parseContent(plugins: ParsePlugins, conf: Conf, content: ContentRecord, fetch: FetchRecord): Promise<ParseRecord> {
  const opts = parseOptions(conf);
  const declared = content.contentType ?? fetch.contentType ?? null;
  const type = sniffContentType(declared, content.bytes);
  const empty = { url: content.url, title: '', text: '', lang: null, outlinks: [] };
  const meta: ParseRecord['meta'] = { contentType: type };
  if (content.truncated) meta.truncated = true;
  const parser = chooseParser(plugins.parsers, type);
  if (!parser)
    return { ...empty, status: 'notparsed', message: `no parser for content type ${type}`, signature: opts.signature(content.bytes, ''), meta };

  let out: ParseOutput;
  try {
    out = await parser.parse({
      url: content.url,
      contentType: mediaType(declared) === type ? declared : type,
      charset: content.charset,
      bytes: content.bytes,
      headers: fetch.headers,
      truncated: content.truncated,
    });
  } catch (e) {
    out = { status: 'failed', message: `parser error: ${(e as Error)?.message ?? String(e)}`, title: '', text: '', outlinks: [], meta: {} };
  }
  if (out.status !== 'success')
    return { ...empty, status: 'failed', message: out.message ?? 'parse failed', signature: opts.signature(content.bytes, ''), meta };

  try {
    Object.assign(meta, out.meta);
    if (meta.refresh) {
      const to = refreshTarget(plugins, content.url, meta.refresh.url);
      if (to) meta.refresh = { url: to, delay: meta.refresh.delay };
      else delete meta.refresh;
    }
    if (meta.canonical) {
      const c = plugins.normalizers.normalize(meta.canonical, 'outlink');
      if (c) meta.canonical = c;
      else delete meta.canonical;
    }
    meta.outlinkCount = out.outlinks.length;
    const dropped: OutlinksDropped = { cap: 0, filtered: 0, external: 0 };
    const outlinks = meta.nofollow ? [] : await filterOutlinks(plugins, opts, content.url, out.outlinks, dropped);
    if (dropped.cap + dropped.filtered + dropped.external > 0) meta.outlinksDropped = dropped;
    const declaredLang = [out.lang, meta.contentLanguage as string | undefined, fetch.headers['content-language']];
    const text = withoutControls(out.text);
    return {
      url: content.url,
      status: 'success',
      title: withoutControls(out.title),
      text,
      lang: await pageLanguage(declaredLang, text, opts.langMaxLength),
      signature: opts.signature(content.bytes, text),
      outlinks,
      meta,
    };
  } catch (e) {
    return { ...empty, status: 'failed', message: `outlink processing failed: ${(e as Error)?.message ?? String(e)}`, signature: opts.signature(content.bytes, ''), meta };
  }
}
