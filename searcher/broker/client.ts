/**
 * @module searcher/broker/client
 * One shard searcher as the broker calls it: JSON over HTTP with a time
 * limit. A shard that refuses, times out or answers an error is "down" for
 * that call, with a reason people can act on; the broker carries on without it.
 */

import { Agent, request } from 'undici';

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

/** A shard's answer, read or discarded by the caller. */
export interface ShardAnswer {
  status: number;
  header(name: string): string | undefined;
  bytes(): Promise<ArrayBuffer>;
  discard(): Promise<void>;
}

/** What the broker calls a shard with: one searcher (ShardClient) or a shard's replicas (replicas.ts). */
export interface ShardCalls {
  readonly name: string;
  get(pathAndQuery: string): Promise<ShardAnswer>;
  post(path: string, json: string): Promise<ShardAnswer>;
  json<T>(path: string, body?: unknown): Promise<T>;
}

/** One connection pool for every shard: kept-alive connections, as many as the broker's requests in flight. */
const agent = new Agent({ keepAliveTimeout: 10_000 });

export class ShardClient implements ShardCalls {
  constructor(
    readonly name: string,
    readonly base: string,
    private readonly timeoutMs: number,
  ) {}

  /** The answer to a GET (a page passed through), or ShardDown. */
  get(pathAndQuery: string): Promise<ShardAnswer> {
    return this.send(pathAndQuery, 'GET');
  }

  /** The answer to a POST of a JSON body, or ShardDown. */
  post(path: string, json: string): Promise<ShardAnswer> {
    return this.send(path, 'POST', json);
  }

  /** JSON from GET (no body) or POST (with one), or ShardDown. */
  async json<T>(path: string, body?: unknown): Promise<T> {
    const res = await (body === undefined ? this.get(path) : this.post(path, JSON.stringify(body)));
    if (res.status === 409) throw new ShardDown(await this.refusal(res));
    if (res.status !== 200) {
      await res.discard();
      throw new ShardDown(res.status === 404 ? 'answered 404: is it started with -shard?' : `answered HTTP ${res.status}`);
    }
    try {
      return JSON.parse(Buffer.from(await res.bytes()).toString('utf8')) as T;
    } catch (e) {
      throw new ShardDown(this.reason(e));
    }
  }

  private async send(path: string, method: 'GET' | 'POST', json?: string): Promise<ShardAnswer> {
    try {
      const r = await request(this.base + path, {
        method,
        dispatcher: agent,
        signal: AbortSignal.timeout(this.timeoutMs),
        ...(json === undefined ? {} : { body: json, headers: { 'content-type': 'application/json' } }),
      });
      return {
        status: r.statusCode,
        header: (name) => {
          const v = r.headers[name];
          return Array.isArray(v) ? v.join(', ') : v;
        },
        bytes: async () => {
          try {
            return await r.body.arrayBuffer();
          } catch (e) {
            throw new ShardDown(this.reason(e));
          }
        },
        discard: () => r.body.dump().catch(() => undefined),
      };
    } catch (e) {
      throw new ShardDown(this.reason(e));
    }
  }

  /** Why a shard refused a call (a broker of another release), as it says. */
  private async refusal(res: ShardAnswer): Promise<string> {
    try {
      return (JSON.parse(Buffer.from(await res.bytes()).toString('utf8')) as { error: string }).error;
    } catch {
      return 'answered HTTP 409';
    }
  }

  private reason(e: unknown): string {
    const err = e as Error & { code?: string; cause?: { code?: string } };
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${this.timeoutMs} ms`;
    const code = err.code ?? err.cause?.code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    return code ?? err.message;
  }
}
