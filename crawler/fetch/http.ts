/**
 * @module crawler/fetch/http
 * The transport: one undici Agent (keep-alive, `interceptors.dns()` caching
 * lookups) and undici's `request`, which is 3–5× faster than `fetch` and does
 * not follow redirects or decompress behind our back. Redirects are decisions
 * (redirect.ts) and politeness lives in queues.ts; this file only turns one
 * GET into status, headers and at most `http.content.limit` decoded bytes.
 * Nothing else imports undici. Every connection passes the address policy
 * (address.ts) on the address it is about to open, whether undici's DNS
 * cache or the socket's own lookup resolved the name.
 */
import dns from 'node:dns';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Agent, buildConnector, Dispatcher } from 'undici';
import { ProtocolFailure } from '../../shared/plugin/protocol-failure.js';
import type { ProtocolRequest, ProtocolResponse } from '../../shared/plugin/extension-points.js';
import { blockedReason, unbracket, type AddressPolicy } from './address.js';

/** Decoded bytes kept when http.content.limit is negative (no limit): a compression bomb stops here. */
export const MAX_DECODED_BYTES = 64 << 20;
/** More stacked Content-Encodings than this is an attack or a broken server (undici's decompress caps it too). */
export const MAX_CONTENT_ENCODINGS = 3;

export interface HttpOptions {
  /** User-Agent header value. */
  userAgent: string;
  /** http.timeout (ms): connect, headers and idle-body timeout. */
  timeoutMs: number;
  /** Total time one request may take, body included (ms). */
  deadlineMs: number;
  /** http.content.limit: decoded bytes kept; negative keeps up to MAX_DECODED_BYTES. */
  contentLimit: number;
  /** Connections per origin: the most a host queue may have in flight. */
  connectionsPerOrigin: number;
  acceptLanguage?: string;
  accept?: string;
  /** Special addresses a connection may go to (default: none, so no loopback either). */
  allowAddresses?: AddressPolicy;
  /** Name resolution (default dns.lookup); a test maps names to addresses here, as a hosts file would. */
  resolve?: Resolve;
  /** http.bind.address: the local address connections come from (default: the system's choice). */
  localAddress?: string;
}

export type Resolve = (hostname: string) => Promise<dns.LookupAddress[]>;

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, order: 'ipv4first' });

export interface HttpRequest extends ProtocolRequest {
  /** Extra request headers (credentials, added per host by crawler/fetch/auth). */
  headers?: Record<string, string>;
  /** A form login's POST, with its urlencoded body; GET otherwise. */
  post?: string;
}
/** The body is decoded (Content-Encoding removed); repeated headers are joined with ', '. */
export type HttpResponse = ProtocolResponse;

/** An HTTP request that got no usable answer. */
export class HttpFailure extends ProtocolFailure {}

type Undici = typeof import('undici');
let undici: Undici | undefined;
/**
 * undici, loaded by the first client: the parse threads reach this module
 * through the plugin registry and never fetch, and undici's hundred-odd
 * files were half the CPU of loading a parse thread's modules.
 */
function loadUndici(): Undici {
  return (undici ??= createRequire(import.meta.url)('undici') as Undici);
}

export class HttpClient {
  private readonly dispatcher: Dispatcher;
  private readonly agent: Agent;
  private readonly request: Undici['request'];

  constructor(readonly opts: HttpOptions) {
    if (!(opts.timeoutMs > 0)) throw new Error(`http.timeout must be positive, not ${opts.timeoutMs}`);
    const allowed = opts.allowAddresses ?? new Set();
    const resolve = literalsFirst(opts.resolve ?? systemResolve);
    const { Agent, buildConnector, interceptors, request } = loadUndici();
    this.request = request;
    this.agent = new Agent({
      connections: Math.max(1, opts.connectionsPerOrigin),
      pipelining: 1,
      keepAliveTimeout: 10_000,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      connect: guardedConnector(buildConnector, opts.timeoutMs, allowed, resolve),
      ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
    });
    this.dispatcher = this.agent.compose(
      // No ttl on a record: the interceptor's maxTTL (10 s) applies.
      interceptors.dns({ lookup: (origin, _o, cb) => void resolve(origin.hostname).then((a) => cb(null, a as never), (e: Error) => cb(e, [])) }),
    );
  }

  async get(req: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = {
      'user-agent': this.opts.userAgent,
      accept: this.opts.accept ?? 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-encoding': 'gzip, deflate, br',
    };
    if (this.opts.acceptLanguage) headers['accept-language'] = this.opts.acceptLanguage;
    if (req.ifModifiedSince) headers['if-modified-since'] = req.ifModifiedSince;
    if (req.ifNoneMatch) headers['if-none-match'] = req.ifNoneMatch;
    Object.assign(headers, req.headers);
    if (req.post !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    // The total deadline is a timer on the body, not AbortSignal.timeout(): that costs a DOMException
    // and a signal per request, a fifth of the fetcher's CPU on a fast network. Until the headers
    // arrive, the connect and headers timeouts bound the wait.
    const started = Date.now();
    let res: Dispatcher.ResponseData;
    try {
      res = await this.request(req.url, { method: req.post === undefined ? 'GET' : 'POST', body: req.post, headers, dispatcher: this.dispatcher, signal: req.signal });
    } catch (e) {
      throw failure(e, this.opts);
    }
    const body = res.body;
    // undici's body, destroyed before it is read (a Content-Encoding refused before reading), emits 'error';
    // with no listener that ends the process. readBody sees the body's errors through its iteration.
    body.on('error', ignore);
    const timer = setTimeout(
      () => body.destroy(new HttpFailure(`not complete within ${this.opts.deadlineMs} ms (http.timeout.total)`, 'DEADLINE')),
      Math.max(0, this.opts.deadlineMs - (Date.now() - started)),
    );
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    try {
      const r = await readBody(body, flat['content-encoding'], req.limit ?? this.opts.contentLimit);
      return { status: res.statusCode, headers: flat, ...r };
    } catch (e) {
      body.destroy();
      throw failure(e, this.opts);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

const ignore = () => undefined;

/** An address literal resolves to itself; undici's DNS interceptor hands IPv6 ones over in brackets. */
function literalsFirst(resolve: Resolve): Resolve {
  return (hostname) => {
    const bare = unbracket(hostname);
    const family = net.isIP(bare);
    return family ? Promise.resolve([{ address: bare, family }]) : resolve(hostname);
  };
}

/**
 * undici's connector with the address policy in front: an address literal
 * (what undici's DNS cache hands over) is checked before the socket opens; a
 * name the socket resolves itself goes through a lookup that drops blocked
 * addresses and fails when none is left.
 */
function guardedConnector(build: typeof buildConnector, timeoutMs: number, allowed: AddressPolicy, resolve: Resolve): buildConnector.connector {
  const lookup: net.LookupFunction = (hostname, options, cb) => {
    resolve(hostname).then((all) => {
      const ok = all.filter((a) => blockedReason(a.address, allowed) === null);
      if (ok.length === 0) return cb(new HttpFailure(blockedReason(all[0]!.address, allowed) ?? `${hostname} has no address`, 'BLOCKED_ADDRESS'), '', 0);
      if (options.all) return (cb as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, ok);
      cb(null, ok[0]!.address, ok[0]!.family);
    }, (e: NodeJS.ErrnoException) => cb(e, '', 0));
  };
  const connect = build({ timeout: timeoutMs, lookup } as buildConnector.BuildOptions);
  return (opts, cb) => {
    const host = unbracket(opts.hostname);
    const why = net.isIP(host) ? blockedReason(host, allowed) : null;
    if (why) {
      cb(new HttpFailure(why, 'BLOCKED_ADDRESS'), null);
      return;
    }
    connect(opts, cb);
  };
}

function failure(e: unknown, opts: HttpOptions): HttpFailure {
  if (e instanceof HttpFailure) return e;
  const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  // AbortSignal.timeout() rejects with a DOMException whose numeric `code` is not ours.
  const code = [err.code, err.cause?.code, err.name].find((c): c is string => typeof c === 'string' && c !== 'Error') ?? 'ERROR';
  const what: Record<string, string> = {
    UND_ERR_CONNECT_TIMEOUT: `connect timed out after ${opts.timeoutMs} ms (http.timeout)`,
    UND_ERR_HEADERS_TIMEOUT: `no response headers within ${opts.timeoutMs} ms (http.timeout)`,
    UND_ERR_BODY_TIMEOUT: `body stalled for ${opts.timeoutMs} ms (http.timeout)`,
    UND_ERR_HEADERS_OVERFLOW: `response headers larger than ${http.maxHeaderSize} bytes`,
    AbortError: 'interrupted',
  };
  return new HttpFailure(what[code] ?? `${code}: ${err.message}`, code);
}

/** A Content-Encoding's decoder, as a stream and as one call bounded by maxOutputLength. */
interface Coding {
  stream(): NodeJS.ReadWriteStream;
  once(buf: Buffer, opts: { maxOutputLength: number }): Buffer;
}
const gzip: Coding = { stream: () => zlib.createGunzip(), once: zlib.gunzipSync };
const CODINGS: Record<string, Coding> = {
  gzip,
  'x-gzip': gzip,
  deflate: { stream: () => zlib.createInflate(), once: zlib.inflateSync }, // zlib-wrapped, as RFC 9110 says
  br: { stream: () => zlib.createBrotliDecompress(), once: zlib.brotliDecompressSync },
};

function coding(encoding: string): Coding {
  const c = CODINGS[encoding];
  if (!c) throw new HttpFailure(`unsupported Content-Encoding ${encoding}`, 'ENCODING');
  return c;
}

/**
 * Reads and decodes a body, keeping the first `limit` decoded bytes. The cap
 * applies after decoding, so a small gzip that inflates to gigabytes stops at
 * the cap instead of filling memory.
 *
 * A body in one encoding whose wire bytes fit the cap (most compressed pages)
 * is collected and inflated in one synchronous call: a stream pipeline per
 * response costs several times the inflating itself. Whatever that call cannot
 * settle (decoded size over the cap, a corrupt or cut-off body) goes through
 * the streaming decoders, which keep the first `cap` bytes or name the error.
 */
export async function readBody(
  body: Readable,
  contentEncoding: string | undefined,
  limit: number,
): Promise<{ body: Buffer; truncated: boolean; wireBytes: number }> {
  const cap = limit < 0 ? MAX_DECODED_BYTES : limit;
  const encodings = (contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && s !== 'identity')
    .reverse();
  if (encodings.length > MAX_CONTENT_ENCODINGS) throw new HttpFailure(`too many Content-Encodings: ${contentEncoding}`, 'ENCODING');
  const codings = encodings.map(coding);
  let wireBytes = 0;
  let truncated = false;
  const chunks: Buffer[] = [];
  let kept = 0;
  const counter = async function* (src: AsyncIterable<Buffer>) {
    for await (const c of src) {
      wireBytes += c.length;
      yield c;
    }
  };
  const sink = async (src: AsyncIterable<Buffer>) => {
    for await (const c of src) {
      const room = cap - kept;
      if (c.length >= room) {
        if (room > 0) chunks.push(c.subarray(0, room));
        kept += Math.max(0, room);
        truncated = c.length > room || truncated;
        if (truncated) return;
      } else {
        chunks.push(c);
        kept += c.length;
      }
    }
  };
  try {
    // Most pages come unencoded: iterate the body directly, without a stream pipeline per request.
    if (codings.length === 0) await sink(counter(body));
    else {
      let source: AsyncIterable<Buffer>;
      if (codings.length > 1) source = counter(body);
      else {
        const wire = await collect(body, cap);
        wireBytes = wire.bytes;
        const decoded = wire.rest ? undefined : decodeOnce(codings[0]!, wire.chunks, wire.bytes, cap);
        if (decoded) return { body: decoded, truncated: false, wireBytes };
        source = replay(wire.chunks, wire.rest && counter(wire.rest));
      }
      await (pipeline as (...streams: unknown[]) => Promise<void>)(source, ...codings.map((c) => c.stream()), sink);
    }
  } catch (e) {
    if (!truncated) throw decodeError(e, encodings);
  } finally {
    if (!body.destroyed) body.destroy();
  }
  // Content exactly at the cap with more to come shows as truncated only when a byte more arrived.
  return { body: Buffer.concat(chunks, kept), truncated, wireBytes };
}

/** A body's wire bytes while they fit `cap`; `rest` reads on where a longer body's collected bytes end. */
async function collect(body: Readable, cap: number): Promise<{ chunks: Buffer[]; bytes: number; rest?: AsyncIterable<Buffer> }> {
  const it = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let bytes = 0;
  for (;;) {
    const r = await it.next();
    if (r.done) return { chunks, bytes };
    chunks.push(r.value);
    bytes += r.value.length;
    if (bytes > cap) return { chunks, bytes, rest: { [Symbol.asyncIterator]: () => it } };
  }
}

async function* replay(head: Buffer[], rest: AsyncIterable<Buffer> | undefined): AsyncIterable<Buffer> {
  yield* head;
  if (rest) yield* rest;
}

/** The whole decoded body when it is sound and at most `cap` bytes; undefined leaves the rest to the streaming decoders. */
function decodeOnce(c: Coding, chunks: Buffer[], bytes: number, cap: number): Buffer | undefined {
  let out: Buffer;
  try {
    out = c.once(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes), { maxOutputLength: cap });
  } catch {
    return undefined;
  }
  // A short output is a view of zlib's 16 KiB chunk; a body that owns its memory moves to the writer thread uncopied.
  return out.byteLength === out.buffer.byteLength ? out : Buffer.concat([out], out.length);
}

function decodeError(e: unknown, encodings: string[]): unknown {
  const err = e as NodeJS.ErrnoException;
  if ((typeof err.code === 'string' && err.code.startsWith('Z_')) || (err.code === 'ERR_STREAM_PREMATURE_CLOSE' && encodings.length > 0))
    return new HttpFailure(`cannot decode ${encodings.join(', ')} body: ${err.message}`, 'DECODE');
  return e;
}
