/**
 * @module segments/segment-writer
 * The fetcher's write path into a segment. What one turn of the event loop
 * fetched goes to a worker thread as one batch; the worker compresses it and
 * commits it in one transaction with the batches and parses that arrived
 * while it was busy (a transaction per page cost ten times the inserts, and
 * compressing and inserting on the event loop took as long as fetching). A
 * record is durable a few milliseconds after its page arrived, so a killed
 * fetch loses at most the pages of its last moments, which a
 * rerun fetches again; `ready()` holds the fetcher back while the worker is
 * behind, so that window stays small. Reads and every other write stay on
 * the Segment's own connection.
 *
 * The thread may also parse: a page put with `parse: 'in-thread'` is stored
 * at once and parsed later (by the module named when the thread was made),
 * its parse committed a little after, so the fetch loop only fetches and the
 * parse runs on another core; a kill between the two leaves the page stored
 * unparsed, for the rerun to parse. Pages to parse wait here and go to a
 * thread a few at a time, once its parser is loaded and their bodies are
 * committed: a writer given a parser of its own (`parseHere`) parses waiting
 * pages itself whenever the fetch loop would otherwise wait for the threads
 * (`ready()` when too many pages or bytes wait for their parse, counted in
 * pages and bytes so that a few pages slow to parse do not stop the other
 * hosts; `flush()` at the end of a fetch), so both cores parse when the
 * parse is the limit, and pages fetched while the thread still loads its
 * parser do not wait for it. The threads themselves, which may outlive a
 * writer, are segments/writer-threads.ts.
 */
import type { MessagePort } from 'node:worker_threads';
import { HzError } from '../shared/errors.js';
import { contentParams, fetchToRow, parseParams } from './rows.js';
import type { ContentRecord, FetchRecord, ParseRecord } from './records.js';
import type { Segment } from './segment.js';
import { WriterThreads } from './writer-threads.js';

export { WriterThreads, type WriterThreadOptions } from './writer-threads.js';

/** Batches handed to a thread and not yet committed before put() callers are asked to wait. */
const MAX_BATCHES_IN_FLIGHT = 4;
/** Pages, and bytes of body, waiting for their parse before put() callers are asked to wait (or to parse). */
const MAX_PAGES_PARSING = 128;
const MAX_BYTES_PARSING = 32 << 20;
/** Pages a thread is given to parse at a time: enough to keep it busy between its reports, few enough that the rest can still be parsed here. */
const PAGES_PER_THREAD = 32;

type FetchRow = ReturnType<typeof fetchToRow>;

/** What one transaction stores for a page. */
interface Write {
  fetch?: FetchRow;
  content?: { params: ReturnType<typeof contentParams>; bytes: Uint8Array };
  parse?: ReturnType<typeof parseParams>;
}

/** A page to parse, its body already committed unless it is not stored. */
interface ParseJob {
  record: FetchRecord;
  content: Omit<ContentRecord, 'bytes'>;
  bytes: ContentRecord['bytes'];
  /** The fetch row when the body is not stored: it is committed with the parse. */
  fetch?: FetchRow;
}

/** Parses a page as the threads would: the main thread's share of the parse. */
export type ParseHere = (record: FetchRecord, content: ContentRecord) => Promise<ParseRecord>;

/** A copy of `b` in memory that a message to a thread shares instead of copying. */
function shared(b: Buffer): Buffer {
  const out = Buffer.from(new SharedArrayBuffer(b.byteLength));
  b.copy(out);
  return out;
}

export class SegmentWriter {
  private readonly threads: WriterThreads;
  private readonly ownThreads: boolean;
  private readonly ports: MessagePort[];
  /** Pages each port has been given to parse and not reported parsed. */
  private readonly load: number[];
  private readonly unwatch: () => void;
  private readonly unwatchLoads: () => void;
  private batch: Write[] = [];
  /** Bodies whose memory goes to the thread with the batch instead of being copied. */
  private transfer: ArrayBuffer[] = [];
  /** Pages to parse of the batch being gathered: they wait for its commit. */
  private batchJobs: ParseJob[] = [];
  private scheduled = false;
  private nextId = 0;
  /** Batches handed over and not yet committed, with the pages to parse that wait for them. */
  private readonly inFlight = new Map<number, ParseJob[]>();
  /** Pages whose body is committed, waiting for a parser (a thread's or `parseHere`). */
  private readonly toParse: ParseJob[] = [];
  /** Pages and bytes put to be parsed and not parsed yet, wherever they are. */
  private parsing = 0;
  private parsingBytes = 0;
  private waiting: (() => void)[] = [];
  private error: Error | undefined;
  private gone = false;

  /** A writer on a thread of its own, or on `threads` (which outlive it); `parseHere` lets it parse too. */
  constructor(
    private readonly segment: Segment,
    threads?: WriterThreads,
    private readonly parseHere?: ParseHere,
  ) {
    this.ownThreads = !threads;
    const t = (this.threads = threads ?? new WriterThreads());
    const failed = (why: string) => {
      this.gone = true;
      this.error ??= this.failure(why);
      this.inFlight.clear();
      this.wake();
    };
    this.ports = t.open(segment.file);
    this.load = this.ports.map(() => 0);
    this.ports.forEach((port, p) =>
      port.on('message', (m: { ids?: number[]; error?: string; failed?: string; parsed?: number; bytes?: number }) => {
        if (m.failed !== undefined) return failed(m.failed);
        if (m.parsed !== undefined) {
          this.load[p]! -= m.parsed;
          this.parsed(m.parsed, m.bytes ?? 0);
        }
        for (const id of m.ids ?? []) {
          // Its body committed, a page may be parsed: a kill from now on leaves it stored unparsed, never parsed without its body.
          this.toParse.push(...(this.inFlight.get(id) ?? []));
          this.inFlight.delete(id);
        }
        if (m.error) this.error ??= this.failure(m.error);
        this.dispatch();
        this.wake();
      }),
    );
    this.unwatch = t.watch(failed);
    this.unwatchLoads = t.watchLoads(() => this.dispatch());
  }

  /**
   * Stores a fetch record with its content and parse; they are committed
   * together. `parse: 'in-thread'` has the content parsed later (the
   * threads must parse); `storeContent: false` keeps the body out of the
   * segment. The body's memory may be handed to the thread: do not use it after.
   */
  put(rec: FetchRecord, content?: ContentRecord, parse?: ParseRecord | 'in-thread', storeContent = true): void {
    const w: Write = {};
    // A page whose body is not stored keeps its fetch record with its parse.
    const fetchWaits = parse === 'in-thread' && content !== undefined && !storeContent;
    if (!fetchWaits) w.fetch = fetchToRow(rec);
    if (parse === 'in-thread') {
      if (!this.threads.parses) throw new Error('SegmentWriter.put: these writer threads do not parse');
      if (content) {
        // Stored now and parsed later, here or in a thread: one copy in shared memory serves all three, where the batch's structured clone copied it twice.
        const bytes = storeContent ? shared(content.bytes) : content.bytes;
        if (storeContent) w.content = { params: contentParams(content), bytes };
        const meta = { url: content.url, contentType: content.contentType, charset: content.charset, truncated: content.truncated };
        this.batchJobs.push({ record: rec, content: meta, bytes, fetch: fetchWaits ? fetchToRow(rec) : undefined });
        this.parsing++;
        this.parsingBytes += content.bytes.byteLength;
      }
    } else {
      if (content && storeContent) w.content = { params: contentParams(content), bytes: content.bytes };
      // Packed against the body before the body's memory moves to the thread.
      if (parse) w.parse = parseParams(parse, w.content?.bytes);
      if (w.content) this.handOver(w.content.bytes);
    }
    this.add(w);
  }

  /**
   * Resolves when the threads are keeping up; rejects once a write has
   * failed. While they are behind on the parse, a writer with `parseHere`
   * parses waiting pages itself instead of waiting.
   */
  async ready(): Promise<void> {
    const behind = () => this.inFlight.size >= MAX_BATCHES_IN_FLIGHT * this.ports.length || this.parsing >= MAX_PAGES_PARSING || this.parsingBytes >= MAX_BYTES_PARSING;
    while (behind() && !this.error) {
      if (this.parseHere && this.toParse.length) await this.parseOneHere();
      else await new Promise<void>((r) => this.waiting.push(r));
    }
    if (this.error) throw this.error;
  }

  /** Resolves once everything put is committed (with `parseHere`, parsing what waits meanwhile); rejects if a write failed. */
  async flush(): Promise<void> {
    for (;;) {
      if (this.scheduled) this.send();
      if (this.error) throw this.error;
      if (this.parseHere && this.toParse.length) await this.parseOneHere();
      else if (this.inFlight.size > 0 || this.parsing > 0) await new Promise<void>((r) => this.waiting.push(r));
      else return;
    }
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
      this.unwatchLoads();
      for (const port of this.ports) port.close();
      if (this.ownThreads) await this.threads.close();
    }
  }

  private add(w: Write): void {
    this.batch.push(w);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.send());
  }

  /** A body that is the whole of its memory moves to the thread; a slice of a pool is copied, shared memory shared. */
  private handOver(b: Uint8Array, transfer = this.transfer): void {
    if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer && !transfer.includes(b.buffer)) transfer.push(b.buffer);
  }

  /** Parses the newest waiting page here (the threads take the oldest) and puts its parse in the next batch. */
  private async parseOneHere(): Promise<void> {
    const job = this.toParse.pop()!;
    try {
      const p = await this.parseHere!(job.record, { ...job.content, bytes: job.bytes });
      // A job bringing its fetch record is a page whose body is not stored: its text is packed on its own.
      this.add({ fetch: job.fetch, parse: parseParams(p, job.fetch ? undefined : job.bytes) });
    } catch (e) {
      this.error ??= this.failure(e instanceof Error ? e.message : String(e));
    }
    this.parsed(1, job.bytes.byteLength);
    // Lets the threads' reports in, so they are given more pages while this thread parses.
    await new Promise<void>((r) => setImmediate(r));
  }

  private parsed(pages: number, bytes: number): void {
    this.parsing -= pages;
    this.parsingBytes -= bytes;
  }

  /** Gives each thread whose parser is loaded waiting pages, the oldest first, up to PAGES_PER_THREAD. */
  private dispatch(): void {
    if (this.gone) return;
    this.ports.forEach((port, p) => {
      if (!this.threads.canParse(p) || this.toParse.length === 0) return;
      const n = Math.min(PAGES_PER_THREAD - this.load[p]!, this.toParse.length);
      if (n <= 0) return;
      const jobs = this.toParse.splice(0, n);
      const transfer: ArrayBuffer[] = [];
      for (const j of jobs) this.handOver(j.bytes, transfer);
      this.load[p]! += n;
      port.postMessage({ jobs }, transfer);
    });
  }

  private send(): void {
    this.scheduled = false;
    if (this.batch.length === 0 || this.gone) return;
    const id = this.nextId++;
    // Batches take turns over the threads.
    const p = id % this.ports.length;
    this.inFlight.set(id, this.batchJobs);
    this.ports[p]!.postMessage({ id, batch: this.batch }, this.transfer);
    this.batch = [];
    this.transfer = [];
    this.batchJobs = [];
  }

  private failure(why: string): HzError {
    return new HzError('HZ_ERR_SEGMENT_CORRUPT', `cannot write to segment ${this.segment.dir}: ${why}`);
  }

  private wake(): void {
    for (const r of this.waiting.splice(0)) r();
  }
}
