/**
 * @module segments/writer
 * The fetcher's write path into a segment. What one turn of the event loop
 * fetched goes to a worker thread as one batch; the worker compresses it and
 * commits it in one transaction (a transaction per page cost ten times the
 * inserts, and compressing and inserting on the event loop took as long as
 * fetching). A record is durable a few milliseconds after its page arrived,
 * so a killed fetch loses at most the pages of its last moments, which a
 * rerun fetches again; `ready()` holds the fetcher back while the worker is
 * behind, so that window stays small. Reads and every other write stay on
 * the Segment's own connection.
 *
 * The thread may also parse: a page put with `parse: 'in-thread'` is stored
 * at once and parsed there (by the module named when the thread was made),
 * its parse committed a little later, so the fetch loop only fetches and the
 * parse runs on another core; a kill between the two leaves the page stored
 * unparsed, for the rerun to parse. `ready()` also waits while too many
 * pages or bytes wait for their parse (counted in pages and bytes, so that
 * a few pages slow to parse do not stop the other hosts). Loading the
 * parser takes a thread about a second, so a crawl keeps its threads for
 * all its rounds: each SegmentWriter talks to them over channels of its own.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { HzError } from '../shared/errors.js';
import { youngGeneration } from '../shared/worker-limits.js';
import {
  contentParams,
  fetchToRow,
  parseParams,
  WRITE_SQL,
  WRITER_PRAGMAS,
  type ContentRecord,
  type FetchRecord,
  type ParseRecord,
  type Segment,
} from './segment.js';

/** Batches handed to a thread and not yet committed before put() callers are asked to wait. */
const MAX_BATCHES_IN_FLIGHT = 4;
/** Pages, and bytes of body, waiting for their parse before put() callers are asked to wait. */
const MAX_PAGES_PARSING = 128;
const MAX_BYTES_PARSING = 32 << 20;

interface Write {
  fetch: ReturnType<typeof fetchToRow>;
  /** The body; `store` false when it is only there to be parsed. */
  content?: { params: ReturnType<typeof contentParams>; bytes: Uint8Array; store: boolean };
  parse?: { params: ReturnType<typeof parseParams>; text: string };
  /** Parsed in the thread: the record and content the parser reads (the body is `content.bytes`). */
  toParse?: { record: FetchRecord; content: Omit<ContentRecord, 'bytes'> };
}

export interface WriterThreadOptions {
  /** Threads (default 1): each takes whole batches, so parsing runs on as many cores. */
  threads?: number;
  /**
   * Parse pages in the thread: `module` (loaded through tsx) exports
   * `pageParser(data)`, which resolves to a function from a fetch record and
   * its content to the parse's statement parameters and text.
   */
  parse?: { module: string; data: unknown };
  /** Each thread's young generation in MB (worker.young.generation.mb); 0 or unset: V8's default. */
  youngGenerationMb?: number;
}

/** The threads behind one or more SegmentWriters (one at a time or several). */
export class WriterThreads {
  readonly parses: boolean;
  private readonly workers: Worker[];
  private failure: string | undefined;
  private readonly watchers = new Set<(why: string) => void>();

  constructor(opts: WriterThreadOptions = {}) {
    this.parses = opts.parse !== undefined;
    this.workers = Array.from({ length: Math.max(1, opts.threads ?? 1) }, () => {
      const w = new Worker(new URL('./writer-worker.js', import.meta.url), {
        workerData: { sql: WRITE_SQL, pragmas: WRITER_PRAGMAS, parse: opts.parse },
        resourceLimits: youngGeneration(opts.youngGenerationMb),
      });
      // The writers' channels keep the process alive while they wait; an idle thread does not.
      w.unref();
      // An error thrown in the worker arrives as a structured clone: an SQLite error keeps its code, not its message.
      w.on('error', (e: Error & { code?: string }) => this.fail(e.message ?? e.code ?? String(e)));
      // A thread that is gone answers nothing more: whatever waits for it stops waiting.
      w.on('exit', () => this.fail('the writer thread ended'));
      return w;
    });
  }

  /** One channel to each thread, each storing into `file` on its own connection. */
  open(file: string): MessagePort[] {
    return this.workers.map((w) => {
      const { port1, port2 } = new MessageChannel();
      w.postMessage({ file, port: port2 }, [port2]);
      return port1;
    });
  }

  /** Calls `onFail` once the thread is gone (at once if it is); returns the call that stops watching. */
  watch(onFail: (why: string) => void): () => void {
    if (this.failure !== undefined) onFail(this.failure);
    else this.watchers.add(onFail);
    return () => this.watchers.delete(onFail);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private fail(why: string): void {
    this.failure ??= why;
    for (const w of [...this.watchers]) w(this.failure);
    this.watchers.clear();
  }
}

export class SegmentWriter {
  private readonly threads: WriterThreads;
  private readonly ownThreads: boolean;
  private readonly ports: MessagePort[];
  /** Batches each port has in flight. */
  private readonly load: number[];
  private readonly unwatch: () => void;
  private batch: Write[] = [];
  /** Bodies whose memory goes to the thread with the batch instead of being copied. */
  private transfer: ArrayBuffer[] = [];
  /** Pages of the batch being gathered that are to be parsed. */
  private batchParses = 0;
  private scheduled = false;
  private nextId = 0;
  /** Ids of the batches handed over and not yet committed. */
  private readonly inFlight = new Set<number>();
  /** Pages and bytes handed to the threads to parse and not parsed yet. */
  private parsing = 0;
  private parsingBytes = 0;
  private waiting: (() => void)[] = [];
  private error: Error | undefined;
  private gone = false;

  /** A writer on a thread of its own, or on `threads` (which outlive it). */
  constructor(segment: Segment, threads?: WriterThreads) {
    this.ownThreads = !threads;
    const t = (this.threads = threads ?? new WriterThreads());
    const failed = (why: string) => {
      this.gone = true;
      this.error ??= new HzError('HZ_ERR_SEGMENT_CORRUPT', `cannot write to segment ${segment.dir}: ${why}`);
      this.inFlight.clear();
      this.wake();
    };
    this.ports = t.open(segment.file);
    this.load = this.ports.map(() => 0);
    this.ports.forEach((port, p) =>
      port.on('message', (m: { id?: number; error?: string; failed?: string; parsed?: number; bytes?: number }) => {
        if (m.failed !== undefined) return failed(m.failed);
        if (m.parsed !== undefined) {
          this.load[p]! -= m.parsed;
          this.parsing -= m.parsed;
          this.parsingBytes -= m.bytes ?? 0;
        }
        if (m.id !== undefined) this.inFlight.delete(m.id);
        if (m.error) this.error ??= new HzError('HZ_ERR_SEGMENT_CORRUPT', `cannot write to segment ${segment.dir}: ${m.error}`);
        this.wake();
      }),
    );
    this.unwatch = t.watch(failed);
  }

  /**
   * Stores a fetch record with its content and parse; they are committed
   * together. `parse: 'in-thread'` has the thread parse the content (the
   * threads must parse); `storeContent: false` keeps the body out of the
   * segment. The body's memory may be handed to the thread: do not use it after.
   */
  put(rec: FetchRecord, content?: ContentRecord, parse?: ParseRecord | 'in-thread', storeContent = true): void {
    const w: Write = { fetch: fetchToRow(rec) };
    if (content && (storeContent || parse === 'in-thread')) {
      w.content = { params: contentParams(content), bytes: content.bytes, store: storeContent };
      const b = content.bytes;
      // Only a body that is the whole of its memory can move; a slice of a shared pool is copied.
      if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer && !this.transfer.includes(b.buffer)) this.transfer.push(b.buffer);
    }
    if (parse === 'in-thread') {
      if (!this.threads.parses) throw new Error('SegmentWriter.put: these writer threads do not parse');
      if (content) {
        w.toParse = { record: rec, content: { url: content.url, contentType: content.contentType, charset: content.charset, truncated: content.truncated } };
        this.parsing++;
        this.parsingBytes += content.bytes.byteLength;
        this.batchParses++;
      }
    } else if (parse) w.parse = { params: parseParams(parse), text: parse.text };
    this.batch.push(w);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.send());
  }

  /** Resolves when the threads are keeping up; rejects once a write has failed. */
  async ready(): Promise<void> {
    const behind = () => this.inFlight.size >= MAX_BATCHES_IN_FLIGHT * this.ports.length || this.parsing >= MAX_PAGES_PARSING || this.parsingBytes >= MAX_BYTES_PARSING;
    while (behind() && !this.error) await new Promise<void>((r) => this.waiting.push(r));
    if (this.error) throw this.error;
  }

  /** Resolves once everything put is committed; rejects if a write failed. */
  async flush(): Promise<void> {
    if (this.scheduled) this.send();
    while ((this.inFlight.size > 0 || this.parsing > 0) && !this.error) await new Promise<void>((r) => this.waiting.push(r));
    if (this.error) throw this.error;
  }

  /** Flushes, then closes the segment's connections in the threads (checkpointing the WAL); threads of its own are stopped. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      if (!this.gone)
        await new Promise<void>((resolve) => {
          let open = this.ports.length;
          const stop = this.threads.watch(() => resolve());
          for (const port of this.ports) {
            port.once('message', () => {
              if (--open > 0) return;
              stop();
              resolve();
            });
            port.postMessage({ close: true });
          }
        });
      this.unwatch();
      for (const port of this.ports) port.close();
      if (this.ownThreads) await this.threads.close();
    }
  }

  private send(): void {
    this.scheduled = false;
    if (this.batch.length === 0 || this.gone) return;
    const id = this.nextId++;
    // The thread with the fewest pages to parse takes it: one parsing a long page does not hold up the next ones.
    const p = this.load.indexOf(Math.min(...this.load));
    this.load[p]! += this.batchParses;
    this.inFlight.add(id);
    this.ports[p]!.postMessage({ id, batch: this.batch }, this.transfer);
    this.batch = [];
    this.transfer = [];
    this.batchParses = 0;
  }

  private wake(): void {
    for (const r of this.waiting.splice(0)) r();
  }
}
