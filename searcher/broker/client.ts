/**
 * @module searcher/broker/client
 * One shard searcher as the broker calls it: JSON over HTTP with a time
 * limit. A shard that refuses, times out or answers an error is "down" for
 * that call, with a reason people can act on; the broker carries on without it.
 */

export class ShardDown extends Error {}

/** `host:port` (or a full http:// URL) → the shard's base URL; a clear message for anything else. */
export function shardUrl(spec: string): string {
  const s = spec.trim();
  const url = /^https?:\/\//.test(s) ? s : `http://${s}`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`shard ${JSON.stringify(spec)} is not host:port`);
  }
  if (!u.port || u.pathname !== '/' || u.search) throw new Error(`shard ${JSON.stringify(spec)} is not host:port`);
  return u.origin;
}

export class ShardClient {
  constructor(
    readonly name: string,
    readonly base: string,
    private readonly timeoutMs: number,
  ) {}

  /** The raw response of a GET (for pages passed through), or ShardDown. */
  async get(pathAndQuery: string): Promise<Response> {
    return this.fetch(pathAndQuery, {});
  }

  /** The raw response of a POST of a JSON body. */
  async post(path: string, json: string): Promise<Response> {
    return this.fetch(path, { method: 'POST', body: json, headers: { 'content-type': 'application/json' } });
  }

  /** JSON from GET (no body) or POST (with one), or ShardDown. */
  async json<T>(path: string, body?: unknown): Promise<T> {
    const res = await (body === undefined ? this.get(path) : this.post(path, JSON.stringify(body)));
    if (!res.ok) {
      await res.body?.cancel();
      throw new ShardDown(res.status === 404 ? 'answered 404: is it started with -shard?' : `answered HTTP ${res.status}`);
    }
    try {
      return (await res.json()) as T;
    } catch (e) {
      throw new ShardDown(this.reason(e));
    }
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(this.base + path, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (e) {
      throw new ShardDown(this.reason(e));
    }
  }

  private reason(e: unknown): string {
    const err = e as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${this.timeoutMs} ms`;
    if (err.cause?.code === 'ECONNREFUSED') return 'connection refused';
    return err.cause?.code ?? err.message;
  }
}
