/**
 * @module searcher/broker/missing
 * Shards left out of an answer: a broker answers with the shards that did
 * and names the others with why, and only with no shard at all is the
 * answer an error. Calls that run together settle together, so a query
 * asked again does not have answers of the abandoned attempt land late.
 */
import { ShardDown, type ShardCalls } from './client.js';

/** A shard left out of an answer, and why. */
export interface MissingShard {
  shard: string;
  reason: string;
}

export class NoShardAnswered extends Error {}

/**
 * The calls' results once every call has settled, or the first failure among
 * them: a query asked again after a generation change must not have answers
 * of the abandoned attempt still landing on the shards' statistics.
 */
export async function settled<T>(calls: Promise<T>[]): Promise<T[]> {
  const got = await Promise.allSettled(calls);
  const failed = got.find((g) => g.status === 'rejected');
  if (failed) throw failed.reason;
  return got.map((g) => (g as PromiseFulfilledResult<T>).value);
}

export const noShard = (missing: readonly MissingShard[]) => new NoShardAnswered(`no shard answered: ${missing.map((m) => `${m.shard} (${m.reason})`).join(', ')}`);

export function down(s: { client: ShardCalls }, e: unknown): MissingShard {
  if (!(e instanceof ShardDown)) throw e;
  return { shard: s.client.name, reason: e.message };
}

/** The notice of an answer some shards are missing from. */
export function missingNotice(missing: readonly MissingShard[], shards: number): string | undefined {
  if (!missing.length) return undefined;
  const names = [...new Map(missing.map((m) => [m.shard, m])).values()];
  return `Partial results: ${names.length} of ${shards} ${shards === 1 ? 'shard' : 'shards'} did not answer (${names.map((m) => `${m.shard}: ${m.reason}`).join('; ')}); pages they hold are missing.`;
}
