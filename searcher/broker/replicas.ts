/**
 * @module searcher/broker/replicas
 * A shard served by several replicas (`-shards a1|a2,b1|b2`: replicas of a
 * shard separated by `|`), called as one shard: each call goes to the next
 * replica in turn that has not failed lately, and a call that fails or times
 * out is made again on the shard's other replicas, so the shard is down for
 * the broker only when every replica is. Replicas serve copies of the same
 * shard index (the same generation), so a document's id is the same on each.
 */
import { ShardClient, ShardDown, shardUrl, type ShardAnswer, type ShardCalls } from './client.js';

/** How long a replica that failed is passed over while another one answers. */
const FAILED_REST_MS = 2000;

/** Which replica to ask first: the next in turn among those not resting after a failure (all of them when every one is). */
export function pickReplica(next: number, failedAt: readonly number[], now: number, restMs = FAILED_REST_MS): number {
  const n = failedAt.length;
  for (let k = 0; k < n; k++) {
    const i = (next + k) % n;
    if (!(now - failedAt[i]! < restMs)) return i;
  }
  return next % n;
}

export class ReplicaSet implements ShardCalls {
  readonly name: string;
  private readonly replicas: ShardClient[];
  private readonly failedAt: number[];
  private next = 0;

  constructor(specs: readonly string[], timeoutMs: number) {
    this.replicas = specs.map((spec) => new ShardClient(spec, shardUrl(spec), timeoutMs));
    this.failedAt = specs.map(() => -Infinity);
    this.name = specs.join('|');
  }

  get(pathAndQuery: string): Promise<ShardAnswer> {
    return this.call((c) => c.get(pathAndQuery));
  }

  post(path: string, json: string): Promise<ShardAnswer> {
    return this.call((c) => c.post(path, json));
  }

  json<T>(path: string, body?: unknown): Promise<T> {
    return this.call((c) => c.json<T>(path, body));
  }

  /** `fn` on one replica, then on each other one while they fail; ShardDown naming each when all do. */
  private async call<T>(fn: (c: ShardClient) => Promise<T>): Promise<T> {
    const n = this.replicas.length;
    const first = pickReplica(this.next, this.failedAt, Date.now());
    this.next = (first + 1) % n;
    const reasons: string[] = [];
    for (let k = 0; k < n; k++) {
      const i = (first + k) % n;
      try {
        return await fn(this.replicas[i]!);
      } catch (e) {
        if (!(e instanceof ShardDown)) throw e;
        this.failedAt[i] = Date.now();
        reasons.push(n > 1 ? `${this.replicas[i]!.name}: ${e.message}` : e.message);
      }
    }
    throw new ShardDown(n > 1 ? `no replica answered (${reasons.join('; ')})` : reasons[0]!);
  }
}
