/**
 * @module searcher/broker/broker
 * A search over shard searchers (Nutch's DistributedSearch client): the
 * shards' statistics are gathered once per index generation, a query's
 * term frequencies once per term and generation, and the collection
 * statistics over every shard go out with the query, so each shard scores
 * as one merged index would. A query is one call per shard
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
import { combineStats, SHARD_PROTOCOL, type DetailsRequest, type DetailsResponse, type DfResponse, type GlobalStats, type ShardQueryRequest, type ShardQueryResponse, type ShardStats, type ShownDoc, type WireBonus } from '../shard/protocol.js';
import { ShardDown, type ShardAnswer, type ShardCalls } from './client.js';
import { down, noShard, settled, type MissingShard } from './missing.js';

interface ShardState {
  client: ShardCalls;
  /** The statistics of the shard's current index generation, once asked. */
  stats?: ShardStats;
  /** Per term, its per-field document frequencies in that generation. */
  df: Map<string, number[]>;
}

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

/** A shard changed index generation between the statistics and the query. */
class GenerationChanged extends Error {}

export class Broker {
  private readonly states: ShardState[];
  private analyzerKey = '';
  private analyzer: Analyzer | undefined;
  /** Sites by their home page's title (undefined: no shard holds it), from the shards' current generations. */
  private readonly siteNames = new Map<string, string | undefined>();

  constructor(
    clients: ShardCalls[],
    readonly settings: SearchSettings,
  ) {
    this.states = clients.map((client) => ({ client, df: new Map() }));
  }

  get shardNames(): string[] {
    return this.states.map((s) => s.client.name);
  }

  /**
   * The shards that answer, with their statistics (asked only of those not
   * known yet, or of every shard with `fresh`); the others, with why.
   */
  async shardStats(fresh = false): Promise<{ up: number[]; missing: MissingShard[] }> {
    const missing: MissingShard[] = [];
    const up: number[] = [];
    await Promise.all(
      this.states.map(async (s, i) => {
        if (!s.stats || fresh) {
          try {
            const stats = await s.client.json<ShardStats>('/shard/stats');
            if (stats.protocol !== SHARD_PROTOCOL) throw new ShardDown(refusal(stats.protocol));
            if (stats.version !== s.stats?.version) this.forget(s);
            s.stats = stats;
          } catch (e) {
            missing.push(down(s, e));
            return;
          }
        }
        up.push(i);
      }),
    );
    up.sort((a, b) => a - b);
    if (!up.length) throw noShard(missing);
    return { up, missing };
  }

  /** Statistics over every shard, fresh for each shard's current generation (asked again of any that switched). */
  async indexStats(): Promise<{ stats: IndexStats; missing: MissingShard[] }> {
    const { up, missing } = await this.shardStats(true);
    const all = up.map((i) => this.states[i]!.stats!);
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
    const options = up.map((i) => JSON.stringify(this.statsOf(i).analyzer));
    if (new Set(options).size > 1) throw new Error(`the shards' indexes were built with different analyzer settings (${[...new Set(options)].join(' vs ')}): merge them from one crawl`);
    if (options[0] !== this.analyzerKey || !this.analyzer) {
      this.analyzerKey = options[0]!;
      this.analyzer = new Analyzer(this.statsOf(up[0]!).analyzer);
    }
    return this.analyzer;
  }

  /** Collection statistics over the shards in `up` for `terms`; shards that fail here move to `missing`. */
  private async globalStats(terms: readonly string[], up: number[], missing: MissingShard[]): Promise<{ stats: GlobalStats; up: number[] }> {
    const answered: number[] = [];
    await settled(
      up.map(async (i) => {
        const s = this.states[i]!;
        const want = terms.filter((t) => !s.df.has(t));
        if (want.length) {
          try {
            const r = await s.client.json<DfResponse>('/shard/df', { protocol: SHARD_PROTOCOL, terms: want });
            this.checkGeneration(s, r.version);
            want.forEach((t, k) => s.df.set(t, r.df[k]!));
          } catch (e) {
            if (e instanceof GenerationChanged) throw e;
            missing.push(down(s, e));
            return;
          }
        }
        answered.push(i);
      }),
    );
    answered.sort((a, b) => a - b);
    if (!answered.length) throw noShard(missing);
    return { stats: combineStats(answered.map((i) => ({ stats: this.statsOf(i), df: this.states[i]!.df })), terms), up: answered };
  }

  /** A shard's statistics, which another query may have just found out of date: then this one is asked again too. */
  private statsOf(i: number): ShardStats {
    const stats = this.states[i]!.stats;
    if (!stats) throw new GenerationChanged();
    return stats;
  }

  /** A shard that answers from another generation than its statistics are from: forget them, so they are asked again. */
  private checkGeneration(s: ShardState, version: string): void {
    if (s.stats && s.stats.version !== version) {
      s.stats = undefined;
      this.forget(s);
      throw new GenerationChanged();
    }
  }

  /** What the broker knows of a shard's generation that is gone: its terms' frequencies, and the site names (any shard may have held them). */
  private forget(s: ShardState): void {
    s.df.clear();
    this.siteNames.clear();
  }

  /** The query's terms and the collection statistics for them, over the shards that answer. */
  async prepare(raw: string) {
    const first = await this.shardStats();
    const q = readQuery(raw, this.analyzerOf(first.up), this.settings);
    const missing = [...first.missing];
    const { stats, up } = await this.globalStats(q.query.terms, first.up, missing);
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
    const none = { views: [], siteName: hostName, missing, shards: this.states.length, summariesMs: 0 };
    if (!searchable(q.query)) return { result: emptyResult(req.query, q, paging, performance.now() - t0), ...none };

    // One call per shard: its matches, the bonuses of its best and the summaries of those that can reach the page.
    const depth = q.query.terms.length > 1 && this.settings.rank.proximity.weight > 0 ? PROXIMITY_DEPTH : SECTION_DEPTH;
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
    const answers = await this.ask(up, missing, (s) => s.client.json<ShardQueryResponse>('/shard/query', body));
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
      for (const [name, title] of Object.entries(r.names)) this.siteNames.set(name, title);
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
    const siteName = (doc: Pick<StoredDoc, 'url' | 'site'>) => this.siteNames.get(doc.site) ?? hostName(doc);
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
    return { result, views, suggestion, siteName, missing, shards: this.states.length, summariesMs: performance.now() - t1s };
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
    const unnamed = [...new Set([...page.hits.map((h) => h.site), ...page.facets.site.map((v) => v.value)])].filter((site) => !this.siteNames.has(site));
    const sites = unnamed.map((site) => ({ site, url: siteUrls.get(site)! }));
    const lacking = new Map<number, number[]>();
    for (const h of page.hits) if (!shown.get(h.shard)?.has(h.local)) lacking.set(h.shard, [...(lacking.get(h.shard) ?? []), h.local]);
    const asked = sites.length ? [...answers.keys()] : [...lacking.keys()];
    if (!asked.length) return shown;
    const details = await this.ask(asked, missing, (s, i) => {
      const body: DetailsRequest = { protocol: SHARD_PROTOCOL, query, ids: lacking.get(i) ?? [], sites, suggest: false };
      return s.client.json<DetailsResponse>('/shard/details', body);
    });
    for (const [i, d] of details) {
      (lacking.get(i) ?? []).forEach((id, k) => shown.get(i)!.set(id, d.docs[k]!));
      for (const [site, name] of Object.entries(d.names)) this.siteNames.set(site, name);
    }
    // A site no shard names is named by its host until a shard switches index.
    if (details.size === asked.length) for (const site of unnamed) if (!this.siteNames.has(site)) this.siteNames.set(site, undefined);
    return shown;
  }

  /** Asks each shard in `which`; those that fail join `missing`. */
  private async ask<T extends { version: string }>(which: number[], missing: MissingShard[], call: (s: ShardState, i: number) => Promise<T>): Promise<Map<number, T>> {
    const out = new Map<number, T>();
    const got = await settled(
      which.map(async (i) => {
        const s = this.states[i]!;
        try {
          const r = await call(s, i);
          this.checkGeneration(s, r.version);
          return [i, r] as const;
        } catch (e) {
          if (e instanceof GenerationChanged) throw e;
          missing.push(down(s, e));
          return undefined;
        }
      }),
    );
    for (const g of got) if (g) out.set(g[0], g[1]);
    return out;
  }

  /** The first answer, in shard order, that is not a 404; every other body is discarded. */
  async forward(pathAndQuery: string, init?: (s: ShardState) => Promise<ShardAnswer>): Promise<{ res?: ShardAnswer; missing: MissingShard[] }> {
    const missing: MissingShard[] = [];
    const all = await Promise.all(
      this.states.map(async (s) => {
        try {
          return await (init ? init(s) : s.client.get(pathAndQuery));
        } catch (e) {
          missing.push(down(s, e));
          return undefined;
        }
      }),
    );
    const res = all.find((r) => r && r.status !== 404);
    await Promise.all(all.map((r) => (r && r !== res ? r.discard() : undefined)));
    return { res, missing };
  }

  /** The explain page of `url` for `query`, from the shard holding it, scored with the statistics over every shard. */
  async explain(url: string, query: string): Promise<{ res?: ShardAnswer; missing: MissingShard[] }> {
    const { stats, missing } = await this.prepare(query);
    const body = JSON.stringify({ protocol: SHARD_PROTOCOL, url, query, stats });
    const r = await this.forward('', (s) => s.client.post('/shard/explain', body));
    return { res: r.res, missing: [...missing, ...r.missing] };
  }
}

/** A shard of another release (its statistics name another protocol, or none before protocol 2). */
const refusal = (theirs: number | undefined) =>
  `speaks broker protocol ${theirs ?? 1} and this broker ${SHARD_PROTOCOL}: run the same hazelnut release on the broker and its shards`;
