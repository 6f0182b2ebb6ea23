/**
 * @module crawler/webdb/postgres/sync-client
 * A synchronous PostgreSQL connection, as the WebDb interface needs: `pg`
 * runs in a worker thread (client-worker.js); the main thread posts a list
 * of statements, sleeps on a shared flag (Atomics.wait) until the worker has
 * answered, and takes the answer off the port (receiveMessageOnPort). Many
 * statements go in one message, so a batch costs one crossing.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { HzError } from '../../../shared/errors.js';
import { connectFailure, shownUrl, timeoutsFor, waitFailure } from './timeouts.js';

export { shownUrl } from './timeouts.js';

export interface Query {
  text: string;
  values?: unknown[];
  /** Rows as arrays instead of objects. */
  array?: boolean;
}

export interface Result<R = Record<string, unknown>> {
  rows: R[];
  rowCount: number;
}

/** A statement the server refused; `code` is PostgreSQL's SQLSTATE. */
export class PgError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export class SyncClient {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private closed = false;

  constructor(
    readonly url: string,
    applicationName: string,
    opts: { readonly?: boolean } = {},
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const timeouts = timeoutsFor(url);
    this.worker = new Worker(new URL('./client-worker.js', import.meta.url), {
      workerData: { url, flag: this.flag.buffer, port: port2, applicationName, readonly: opts.readonly === true, ...timeouts },
      // Plain JavaScript: without the parent's loaders (tsx), the thread starts in a fraction of the time.
      execArgv: [],
      transferList: [port2],
    });
    this.worker.unref();
    try {
      this.call({ connect: true });
    } catch (e) {
      this.close();
      throw connectFailure(url, (e as Error).message, timeouts.connectMs);
    }
  }

  private call(msg: object): Result[] {
    if (this.closed) throw new Error(`the WebDB connection to ${shownUrl(this.url)} is closed`);
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(msg);
    // Set-based statements over a big WebDB may run for minutes: wait as long as the server works.
    while (Atomics.wait(this.flag, 0, 0, 60_000) === 'timed-out');
    const m = receiveMessageOnPort(this.port)?.message as
      | { results?: Result[]; error?: { message: string; code?: string; waited?: number; what?: string } }
      | undefined;
    if (!m) throw new Error('the WebDB connection thread answered nothing');
    if (m.error?.waited !== undefined) throw waitFailure(this.url, m.error.message, m.error.what ?? 'the server', m.error.waited);
    if (m.error) {
      // No SQLSTATE, a connection class (08) or a shutdown (57P): the server is gone, not the statement wrong.
      const c = m.error.code;
      if (c === undefined || /^(?:08|57P)/.test(c) || /^E[A-Z]+$/.test(c))
        throw new HzError('HZ_ERR_WEBDB', `lost the WebDB at ${shownUrl(this.url)}: ${m.error.message}`);
      throw new PgError(m.error.message, c);
    }
    return m.results ?? [];
  }

  /**
   * Runs the statements in order, in one crossing; their results in the same
   * order. `retry`: they stand alone (no transaction or cursor spans them),
   * so after a lost connection they are sent again whole on a new one.
   */
  run(queries: Query[], retry = false): Result[] {
    return queries.length ? this.call({ queries, retry }) : [];
  }

  query<R = Record<string, unknown>>(text: string, values?: unknown[], retry = false): Result<R> {
    return this.call({ queries: [{ text, values }], retry })[0] as Result<R>;
  }

  close(): void {
    if (this.closed) return;
    try {
      this.call({ close: true });
    } catch {
      // The connection is going away either way.
    }
    this.closed = true;
    this.port.close();
    void this.worker.terminate();
  }
}
