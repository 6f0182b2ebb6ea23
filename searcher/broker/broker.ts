/**
 * @module searcher/broker/broker
 * A search over shard searchers (Nutch's DistributedSearch client): the
 * shards' statistics are gathered once per index generation, a query's
 * term frequencies once per term and generation (shard-set.ts), and the
 * collection statistics over every shard go out with the query, so each
 * shard scores as one merged index would. A query is one call per shard
 * (searcher/shard/query.ts): its matches come back with the bonuses of its
 * best and the summaries of those that can reach the page; they are ranked,
 * grouped by site and paged here by the same functions one searcher uses
 * (searcher/search.ts). A shard may have replicas (replicas.ts), any of which
 * answers for it; a shard that is down or slow (every replica) is left out
 * and named: the answer is the other shards' results, marked partial.
 */
import { Analyzer } from '../../shared/analysis/analyzer.js';
import type { StoredDoc } from '../../shared/index/types.js';
import type { HitView } from '../http/results.js';
import type { IndexStats } from '../http/docpages.js';
import { addProximity, clampPaging, emptyResult, pageOfRanked, PROXIMITY_DEPTH, rankByBase, SECTION_DEPTH, readQuery, searchable, type Hit, type SearchRequest, type SearchResult } from '../search.js';
import type { SearchSettings } from '../settings.js';
import { hostName } from '../sites.js';
import type { Respelled } from '../spell.js';
import { SHARD_PROTOCOL, type DetailsRequest, type DetailsResponse, type ShardQueryRequest, type ShardQueryResponse, type ShownDoc, type WireBonus } from '../shard/protocol.js';
import type { ShardAnswer, ShardCalls } from './client.js';
import { noShard, type MissingShard } from './missing.js';
import { GenerationChanged, ShardSet } from './shard-set.js';

export interface BrokerHit extends Hit {
  shard: number;
  /** Its id in its shard's index generation. */
  local: number;
}

export interface BrokerResult {
  result: SearchResult;
  views: HitView[];
  suggestion?: Respelled;
  siteName: (doc: Pick<StoredDoc, 'url' | 'site'>) => string;
  missing: MissingShard[];
  shards: number;
  summariesMs: number;
}

/** When a shard switches index while a query runs, the query is asked again with the new statistics, this many times at most. */
const GENERATION_RETRIES = 2;

export class Broker {
  private readonly shards: ShardSet;
  private analyzerKey = '';
  private analyzer: Analyzer | undefined;

  constructor(
    clients: ShardCalls[],
    readonly settings: SearchSettings,
  ) {
    this.shards = new ShardSet(clients);
  }

  get shardNames(): string[] {
    return this.shards.names;
  }

  /** Statistics over every shard, fresh for each shard's current generation (asked again of any that switched). */
  async indexStats(): Promise<{ stats: IndexStats; missing: MissingShard[] }> {
    const { up, missing } = await this.shards.stats(true);
    const all = up.map((i) => this.shards.statsOf(i));
    return {
      stats: {
        documents: all.reduce((n, s) => n + s.docCount - s.deletedCount, 0),
        // Every shard reads the same segments (or its copy of them).
        segments: Math.max(...all.map((s) => s.segments)),
        indexSegments: [...new Set(all.flatMap((s) => s.indexSegments))].sort(),
        indexCreatedAt: Math.max(...all.map((s) => s.createdAt)),
        indexAgeSeconds: (Date.now() - Math.max(...all.map((s) => s.createdAt))) / 1000,
        loadedAt: Math.max(...all.map((s) => s.loadedAt)),
        // Shards share most words: the largest vocabulary is the nearer figure.
        terms: Math.max(...all.map((s) => s.termCount)),
        version: all.map((s) => s.version).join('+'),
      },
      missing,
    };
  }

  /** The analyzer the shards' indexes were built with; they must agree. */
  private analyzerOf(up: number[]): Analyzer {
    const options = up.map((i) => JSON.stringify(this.shards.statsOf(i).analyzer));
    if (new Set(options).size > 1) throw new Error(`the shards' indexes were built with different analyzer settings (${[...new Set(options)].join(' vs ')}): merge them from one crawl`);
    if (options[0] !== this.analyzerKey || !this.analyzer) {
      this.analyzerKey = options[0]!;
      this.analyzer = new Analyzer(this.shards.statsOf(up[0]!).analyzer);
    }
    return this.analyzer;
  }

  /** The query's terms and the collection statistics for them, over the shards that answer. */
  private async prepare(raw: string) {
    const first = await this.shards.stats();
    const q = readQuery(raw, this.analyzerOf(first.up), this.settings);
    const missing = [...first.missing];
    const { stats, up } = await this.shards.globalStats(q.query.terms, first.up, missing);
    return { q, stats, up, missing };
  }

  async search(req: SearchRequest): Promise<BrokerResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.searchOnce(req);
      } catch (e) {
        if (!(e instanceof GenerationChanged) || attempt >= GENERATION_RETRIES) throw e;
      }
    }
  }

  private async searchOnce(req: SearchRequest): Promise<BrokerResult> {
    const t0 = performance.now();
    const paging = clampPaging(req, this.settings.maxHitsPerPage, this.settings.hitsPerSite);
    const { q, stats, up, missing } = await this.prepare(req.query);
    const none = { views: [], siteName: hostName, missing, shards: this.shards.size, summariesMs: 0 };
    if (!searchable(q.query)) return { result: emptyResult(req.query, q, paging, performance.now() - t0), ...none };

    // One call per shard: its matches, the bonuses of its best and the summaries of those that can reach the page.
    const rank = this.settings.rank;
    // A one-word query's only bonus past the section lift is the naming bonus's anchor votes.
    const depth = (q.query.terms.length > 1 && rank.proximity.weight > 0) || rank.anchorVoteWeight > 0 ? PROXIMITY_DEPTH : SECTION_DEPTH;
    const body: ShardQueryRequest = {
      protocol: SHARD_PROTOCOL,
      query: req.query,
      stats,
      depth,
      lifted: SECTION_DEPTH,
      summaries: paging.start + paging.hitsPerPage,
      partialBelow: this.settings.partialBelow,
      suggest: q.query.terms.some((t) => !stats.df[t]),
    };
    const answers = await this.shards.ask(up, missing, (c) => c.json<ShardQueryResponse>('/shard/query', body));
    if (!answers.size) throw noShard(missing);
    const full: BrokerHit[] = [];
    const some: BrokerHit[] = [];
    /** A page of each site, to name the site by (its home page's title, or its host). */
    const siteUrls = new Map<string, string>();
    const bonuses = new Map<number, Map<number, WireBonus>>();
    let exact = true;
    for (const [i, r] of answers) {
      exact &&= r.exact;
      bonuses.set(i, new Map(r.bonus.map((b) => [b[0], b])));
      r.sites.forEach((site, k) => siteUrls.has(site) || siteUrls.set(site, r.siteUrls[k]!));
      for (const [name, title] of Object.entries(r.names)) this.shards.siteNames.set(name, title);
      for (const [local, s, t, l, base, isFull] of r.hits) {
        const site = r.sites[s]!;
        // Until its shard sends the document, a hit knows what ranking, grouping and facets read.
        const [type, lang] = [r.types[t]!, r.langs[l]!];
        const doc = { url: siteUrls.get(site)!, site, type, lang } as StoredDoc;
        (isFull ? full : some).push({ id: full.length + some.length, local, score: base, site, type, lang, doc, full: isFull === 1, grouped: false, moreFromSite: false, shard: i });
      }
    }
    const { ranked, partial } = rankByBase(full, some, this.settings.partialBelow);
    // The proximity bonus of the best `depth` over every shard and the section lift of the best SECTION_DEPTH.
    addProximity(ranked, (h, rank) => {
      const b = rank < depth ? bonuses.get(h.shard)?.get(h.local) : undefined;
      return b ? b[1] + (rank < SECTION_DEPTH ? b[2] : 0) : 0;
    });
    const page = pageOfRanked(ranked, paging, (h) => h.doc);
    const searchMs = performance.now() - t0;

    const t1s = performance.now();
    const shown = await this.shownDocs(page, answers, siteUrls, req.query, missing);
    const siteName = (doc: Pick<StoredDoc, 'url' | 'site'>) => this.shards.siteNames.get(doc.site) ?? hostName(doc);
    let suggestion: Respelled | undefined;
    for (const r of answers.values()) suggestion ??= r.suggestion ?? undefined;
    const views: HitView[] = [];
    for (const h of page.hits) {
      // A hit whose shard stopped answering since it matched is left off the page; the notice names the shard.
      const d = shown.get(h.shard)?.get(h.local);
      if (d) views.push({ hit: { ...h, doc: d.doc }, summary: d.summary, section: d.section, siteName: siteName(d.doc) });
    }
    const result: SearchResult = {
      raw: req.query,
      ...q,
      ...paging,
      ...page,
      hits: views.map((v) => v.hit),
      partial,
      exact,
      ms: searchMs,
    };
    return { result, views, suggestion, siteName, missing, shards: this.shards.size, summariesMs: performance.now() - t1s };
  }

  /**
   * The page's documents with their summaries: those the query's answers
   * brought, the rest (a hit grouping by site reached deeper for) and the
   * names of sites no shard has named yet from the shards holding them, in a
   * second call only then.
   */
  private async shownDocs(
    page: { hits: BrokerHit[]; facets: { site: { value: string }[] } },
    answers: Map<number, ShardQueryResponse>,
    siteUrls: Map<string, string>,
    query: string,
    missing: MissingShard[],
  ): Promise<Map<number, Map<number, ShownDoc>>> {
    const shown = new Map([...answers].map(([i, r]) => [i, new Map(Object.entries(r.shown).map(([id, d]) => [Number(id), d]))]));
    const unnamed = [...new Set([...page.hits.map((h) => h.site), ...page.facets.site.map((v) => v.value)])].filter((site) => !this.shards.siteNames.has(site));
    const sites = unnamed.map((site) => ({ site, url: siteUrls.get(site)! }));
    const lacking = new Map<number, number[]>();
    for (const h of page.hits) if (!shown.get(h.shard)?.has(h.local)) lacking.set(h.shard, [...(lacking.get(h.shard) ?? []), h.local]);
    const asked = sites.length ? [...answers.keys()] : [...lacking.keys()];
    if (!asked.length) return shown;
    const details = await this.shards.ask(asked, missing, (c, i) => {
      const body: DetailsRequest = { protocol: SHARD_PROTOCOL, query, ids: lacking.get(i) ?? [], sites, suggest: false };
      return c.json<DetailsResponse>('/shard/details', body);
    });
    for (const [i, d] of details) {
      (lacking.get(i) ?? []).forEach((id, k) => shown.get(i)!.set(id, d.docs[k]!));
      for (const [site, name] of Object.entries(d.names)) this.shards.siteNames.set(site, name);
    }
    // A site no shard names is named by its host until a shard switches index.
    if (details.size === asked.length) for (const site of unnamed) if (!this.shards.siteNames.has(site)) this.shards.siteNames.set(site, undefined);
    return shown;
  }

  /** The first answer, in shard order, that is not a 404 (a cached copy, a text, an anchors page). */
  forward(pathAndQuery: string): Promise<{ res?: ShardAnswer; missing: MissingShard[] }> {
    return this.shards.forward(pathAndQuery);
  }

  /** The explain page of `url` for `query`, from the shard holding it, scored with the statistics over every shard. */
  async explain(url: string, query: string): Promise<{ res?: ShardAnswer; missing: MissingShard[] }> {
    const { stats, missing } = await this.prepare(query);
    const body = JSON.stringify({ protocol: SHARD_PROTOCOL, url, query, stats });
    const r = await this.shards.forward('', (c) => c.post('/shard/explain', body));
    return { res: r.res, missing: [...missing, ...r.missing] };
  }
}
