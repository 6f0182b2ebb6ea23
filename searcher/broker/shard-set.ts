/**
 * @module searcher/broker/shard-set
 * The shards as the broker knows them: each one's statistics for its current
 * index generation, asked once per generation, its terms' per-field document
 * frequencies, asked once per term and generation, and the names of sites
 * the shards have given. A shard that answers from another generation than
 * its statistics are from is forgotten, and the call fails with
 * GenerationChanged for the query to be asked again with fresh statistics.
 * A call to several shards leaves out those that fail, named with why
 * (missing.ts); with none left it fails.
 */
import { combineStats, SHARD_PROTOCOL, type DfResponse, type GlobalStats, type ShardStats } from '../shard/protocol.js';
import { ShardDown, type ShardAnswer, type ShardCalls } from './client.js';
import { down, noShard, settled, type MissingShard } from './missing.js';

interface ShardState {
  client: ShardCalls;
  /** The statistics of the shard's current index generation, once asked. */
  stats?: ShardStats;
  /** Per term, its per-field document frequencies in that generation. */
  df: Map<string, number[]>;
}

/** A shard changed index generation between the statistics and the query. */
export class GenerationChanged extends Error {}

export class ShardSet {
  private readonly states: ShardState[];
  /** Sites by their home page's title (undefined: no shard holds it), from the shards' current generations. */
  readonly siteNames = new Map<string, string | undefined>();

  constructor(clients: ShardCalls[]) {
    this.states = clients.map((client) => ({ client, df: new Map() }));
  }

  get size(): number {
    return this.states.length;
  }

  get names(): string[] {
    return this.states.map((s) => s.client.name);
  }

  /**
   * The shards that answer, with their statistics (asked only of those not
   * known yet, or of every shard with `fresh`); the others, with why.
   */
  async stats(fresh = false): Promise<{ up: number[]; missing: MissingShard[] }> {
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

  /** A shard's statistics, which another query may have just found out of date: then this one is asked again too. */
  statsOf(i: number): ShardStats {
    const stats = this.states[i]!.stats;
    if (!stats) throw new GenerationChanged();
    return stats;
  }

  /** Collection statistics over the shards in `up` for `terms`; shards that fail here move to `missing`. */
  async globalStats(terms: readonly string[], up: number[], missing: MissingShard[]): Promise<{ stats: GlobalStats; up: number[] }> {
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

  /** Asks each shard in `which`; those that fail join `missing`. */
  async ask<T extends { version: string }>(which: number[], missing: MissingShard[], call: (client: ShardCalls, i: number) => Promise<T>): Promise<Map<number, T>> {
    const out = new Map<number, T>();
    const got = await settled(
      which.map(async (i) => {
        const s = this.states[i]!;
        try {
          const r = await call(s.client, i);
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
  async forward(pathAndQuery: string, init?: (client: ShardCalls) => Promise<ShardAnswer>): Promise<{ res?: ShardAnswer; missing: MissingShard[] }> {
    const missing: MissingShard[] = [];
    const all = await Promise.all(
      this.states.map(async (s) => {
        try {
          return await (init ? init(s.client) : s.client.get(pathAndQuery));
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
}

/** A shard of another release (its statistics name another protocol, or none before protocol 2). */
const refusal = (theirs: number | undefined) =>
  `speaks broker protocol ${theirs ?? 1} and this broker ${SHARD_PROTOCOL}: run the same hazelnut release on the broker and its shards`;
