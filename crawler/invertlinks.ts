/**
 * @module crawler/invertlinks
 * Nutch's LinkDb, kept in the WebDB: `hazelnut invertlinks <webdb> (-dir
 * <segments> | <seg> ...) [-force] [-noNormalize] [-noFilter]` turns the
 * outlinks of the pages parsed in the given segments (stored in `links` by
 * updatedb, so a segment must be applied by updatedb first) into the
 * `inlinks` table: for each URL those pages link to, its inlinks and anchor
 * texts, rebuilt from every page now linking to it (`hazelnut readlinkdb`,
 * crawler/readlinkdb.ts, reads it).
 *
 * Rules, as in Nutch: `db.ignore.internal.links` drops links within a host
 * (Nutch's default true suits the web; the one-shot crawl sets false, since
 * an intranet site's own links are most of what it has); anchors are cut to
 * `db.max.anchor.length`; at most `db.max.inlinks` inlinks per URL; each
 * anchor text counts once per source host (the rest are kept as inlinks
 * without anchor), so a site-wide menu cannot repeat one anchor a thousand
 * times. Unlike Nutch, links in navigation are left out while
 * `db.ignore.navigation.links` is true.
 */
import type { Conf } from '../shared/conf.js';
import { UsageError } from '../shared/errors.js';
import type { Log } from './log.js';
import { parseArgs, type Tool } from '../shared/command.js';
import { host } from './url/keys.js';
import { Segment } from '../segments/segment.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from './plugin/chains.js';
import { segmentDirs, segmentsCrawlDir } from './segment-args.js';
import { runWithLog } from './tool-run.js';
import { memoByUrl } from './url-memo.js';
import { openWebDb, type ApplyingTool, type LinkRow, type WebDb } from './webdb/webdb.js';

const INVERTLINKS_TOOL: ApplyingTool = 'invertlinks';
/** Link targets whose links are read at once. */
const READ_BATCH = 1000;

export interface InvertLinksOptions {
  webdb: string;
  segments: string[];
  normalize?: boolean;
  filter?: boolean;
  plugins?: CrawlerPlugins;
  log?: Log;
}

export interface InvertLinksSummary {
  applied: string[];
  skipped: Record<string, string>;
  /** URLs whose inlinks were rebuilt. */
  targets: number;
  inlinks: number;
}

export interface InlinkRules {
  ignoreInternal: boolean;
  ignoreNavigation: boolean;
  maxAnchorLength: number;
  maxInlinks: number;
}

/** The inlinks of one target from its link rows, in Nutch's rules; pure. */
export function invertRows(
  target: string,
  rows: readonly LinkRow[],
  r: InlinkRules,
  hostOf: (url: string) => string = host,
): { source: string; anchor: string }[] {
  const targetHost = hostOf(target);
  const bySource = new Map<string, string>();
  for (const l of rows) {
    if (r.ignoreNavigation && l.nav) continue;
    if (l.source === target) continue;
    if (r.ignoreInternal && hostOf(l.source) === targetHost) continue;
    const anchor = l.anchor.slice(0, r.maxAnchorLength);
    const prev = bySource.get(l.source);
    if (prev === undefined || (prev === '' && anchor !== '')) bySource.set(l.source, anchor);
  }
  const anchorsByHost = new Map<string, Set<string>>();
  const out: { source: string; anchor: string }[] = [];
  for (const [source, a] of bySource) {
    if (r.maxInlinks >= 0 && out.length >= r.maxInlinks) break;
    let anchor = a;
    if (anchor) {
      const h = hostOf(source);
      let seen = anchorsByHost.get(h);
      if (!seen) anchorsByHost.set(h, (seen = new Set()));
      if (seen.has(anchor)) anchor = '';
      else seen.add(anchor);
    }
    out.push({ source, anchor });
  }
  return out;
}

function rules(conf: Conf): InlinkRules {
  return {
    ignoreInternal: conf.getBoolean('db.ignore.internal.links'),
    ignoreNavigation: conf.getBoolean('db.ignore.navigation.links'),
    maxAnchorLength: conf.getInt('db.max.anchor.length'),
    maxInlinks: conf.getInt('db.max.inlinks'),
  };
}

/** The WebDB keys of the pages fetched in `segs`: each URL as fetched and as updatedb normalized it. */
function* fetchedUrls(segs: readonly Segment[], plugins: CrawlerPlugins): Generator<string> {
  for (const seg of segs)
    for (const f of seg.fetches()) {
      yield f.url;
      const n = plugins.normalizers.normalize(f.url, 'crawldb');
      if (n && n !== f.url) yield n;
    }
}

/** The link targets stageLinkTargets set aside, in order, a batch at a time. */
function* stagedTargets(db: WebDb): Generator<string[]> {
  for (let batch = db.stagedLinkTargets('', READ_BATCH); batch.length > 0; batch = db.stagedLinkTargets(batch[batch.length - 1]!, READ_BATCH)) yield batch;
}

/** A URL as invertlinks keys it: normalized and filtered (null when dropped), with its host. */
type UrlKeys = (url: string) => { key: string | null; host: string };

/**
 * The given segments this run applies, opened; the others are closed and
 * reported skipped: not applied by updatedb yet, or already inverted.
 */
function segmentsToApply(db: WebDb, dirs: readonly string[], summary: InvertLinksSummary, log: Log | undefined): Segment[] {
  const segs: Segment[] = [];
  for (const dir of dirs) {
    const seg = Segment.open(dir, { readonly: true });
    const why = !db.isApplied('updatedb', seg.name)
      ? "not applied by updatedb yet (run 'hazelnut updatedb' first)"
      : db.isApplied(INVERTLINKS_TOOL, seg.name) || segs.some((s) => s.name === seg.name)
        ? 'already inverted'
        : undefined;
    if (why) {
      seg.close();
      summary.skipped[seg.name] = why;
      log?.info(`segment ${seg.name} skipped: ${why}`);
      continue;
    }
    segs.push(seg);
  }
  return segs;
}

/** One target's spelling as stored, and its place in the staged order. */
interface Alias {
  at: number;
  raw: string;
}

/**
 * Every old inlink row of the staged targets goes first. A target stored
 * under another spelling than its key (links kept by an updatedb without
 * -normalize) joins its key's group, at its place in order: the groups
 * returned, by key.
 */
function clearStagedInlinks(db: WebDb, url: UrlKeys): Map<string, Alias[]> {
  const aliases = new Map<string, Alias[]>();
  let at = 0;
  for (const batch of stagedTargets(db))
    for (const t of batch) {
      at++;
      db.clearInlinks(t);
      const key = url(t).key;
      if (key === null || key === t) continue;
      db.clearInlinks(key);
      const group = aliases.get(key);
      if (group) group.push({ at, raw: t });
      else aliases.set(key, [{ at, raw: t }]);
    }
  return aliases;
}

/**
 * Writes the inlinks of a batch of keys, each from the links to every
 * spelling of it; returns how many. The links to a batch are read at once:
 * one round trip a batch when the WebDB is on a server.
 */
function rebuildInlinks(db: WebDb, groups: [string, string[]][], url: UrlKeys, r: InlinkRules): number {
  const links = db.linksToEach(groups.flatMap(([, raw]) => raw));
  const hostOf = (u: string) => url(u).host;
  let inlinks = 0;
  for (const [key, raw] of groups) {
    const rows: LinkRow[] = [];
    for (const t of raw)
      for (const l of links.get(t) ?? []) {
        const source = url(l.source).key;
        if (source !== null) rows.push({ ...l, source });
      }
    if (raw.length > 1) rows.sort((a, b) => a.nav - b.nav);
    inlinks += db.addInlinks(key, invertRows(key, rows, r, hostOf));
  }
  return inlinks;
}

/**
 * Rebuilds the inlinks of every staged target that is its own key, in staged
 * order and a batch at a time, then those of keys no stored link spells as
 * they are; returns how many inlinks were written.
 */
function rebuildStaged(db: WebDb, aliases: Map<string, Alias[]>, url: UrlKeys, r: InlinkRules, progress: { update(n: number): void } | undefined): number {
  let inlinks = 0;
  let at = 0;
  let done = 0;
  for (const batch of stagedTargets(db)) {
    const groups: [string, string[]][] = [];
    for (const t of batch) {
      at++;
      if (url(t).key !== t) continue;
      const others = aliases.get(t);
      aliases.delete(t);
      groups.push([t, others ? [...others, { at, raw: t }].sort((a, b) => a.at - b.at).map((o) => o.raw) : [t]]);
    }
    inlinks += rebuildInlinks(db, groups, url, r);
    progress?.update((done += batch.length));
  }
  const rest = [...aliases].map(([key, group]): [string, string[]] => [key, group.map((o) => o.raw)]);
  for (let i = 0; i < rest.length; i += READ_BATCH) inlinks += rebuildInlinks(db, rest.slice(i, i + READ_BATCH), url, r);
  return inlinks;
}

/**
 * Applies every given segment not yet inverted, in one transaction. Only the
 * inlinks of URLs the segments' pages link to now, or linked to before, are
 * rebuilt — each once, however many segments touch it — so the work follows
 * the links of the applied segments, not the size of the link graph. Those
 * URLs stay in the WebDB and are read a batch at a time: memory holds a
 * batch, and the few targets stored under another spelling than their key.
 */
export async function invertlinks(conf: Conf, opts: InvertLinksOptions): Promise<InvertLinksSummary> {
  const plugins = opts.plugins ?? (await loadCrawlerPlugins(conf));
  const r = rules(conf);
  const url: UrlKeys = memoByUrl((u) => {
    const n = opts.normalize === false ? u : plugins.normalizers.normalize(u, 'linkdb');
    const key = n !== null && opts.filter !== false ? plugins.filters.filter(n) : n;
    return { key, host: key === null ? '' : host(key) };
  });
  const summary: InvertLinksSummary = { applied: [], skipped: {}, targets: 0, inlinks: 0 };
  const db: WebDb = openWebDb(opts.webdb, { bulk: true });
  // The segments to apply stay open until their fetch records have been read.
  let segs: Segment[] = [];
  try {
    segs = segmentsToApply(db, opts.segments, summary, opts.log);
    const names = segs.map((s) => s.name);
    if (names.length === 0) return summary;
    db.transaction(() => {
      summary.targets = db.stageLinkTargets(fetchedUrls(segs, plugins));
      for (const seg of segs.splice(0)) seg.close();
      const aliases = clearStagedInlinks(db, url);
      const progress = opts.log?.step(`invertlinks ${names.length} segment${names.length === 1 ? '' : 's'}`, 'link targets', summary.targets);
      summary.inlinks = rebuildStaged(db, aliases, url, r, progress);
      const now = Date.now();
      for (const name of names) db.markApplied(INVERTLINKS_TOOL, name, now);
    });
    summary.applied.push(...names);
  } finally {
    for (const seg of segs) seg.close();
    db.close();
  }
  return summary;
}

const INVERT_USAGE = 'Usage: hazelnut invertlinks <webdb> (-dir <segments> | <seg1> <seg2> ...) [-force] [-noNormalize] [-noFilter]';

const tool: Tool = {
  name: 'invertlinks',
  usage: INVERT_USAGE,
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['dir'], boolean: ['force', 'noNormalize', 'noFilter'] });
    const [webdb, ...segs] = a._;
    if (!webdb) throw new UsageError('missing <webdb>');
    const segments = segmentDirs(segs, a.dir as string | undefined);
    const s = await runWithLog(ctx, { tool: 'invertlinks', webdb, crawlDir: segmentsCrawlDir(segments), lock: { force: a.force === true } }, (log) =>
      invertlinks(ctx.conf, { webdb, segments, normalize: a.noNormalize !== true, filter: a.noFilter !== true, log }),
    );
    for (const [name, why] of Object.entries(s.skipped)) ctx.err.write(`invertlinks: segment ${name} skipped: ${why}\n`);
    ctx.out.write(`invertlinks: ${s.applied.length} segments inverted, ${Object.keys(s.skipped).length} skipped; ${s.targets} URLs, ${s.inlinks} inlinks\n`);
    return 0;
  },
};

export default tool;
