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
 */
import { Worker } from 'node:worker_threads';
import { HzError } from '../shared/errors.js';
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

/** Batches handed to the worker and not yet committed before put() callers are asked to wait. */
const MAX_BATCHES_IN_FLIGHT = 4;

interface Write {
  fetch: ReturnType<typeof fetchToRow>;
  content?: { params: ReturnType<typeof contentParams>; bytes: Uint8Array };
  parse?: { params: ReturnType<typeof parseParams>; text: string };
}

export class SegmentWriter {
  private readonly worker: Worker;
  private batch: Write[] = [];
  private scheduled = false;
  private nextId = 0;
  private readonly inFlight = new Set<number>();
  private waiting: (() => void)[] = [];
  private error: Error | undefined;
  private exited = false;

  constructor(segment: Segment) {
    this.worker = new Worker(new URL('./writer-worker.js', import.meta.url), {
      workerData: { file: segment.file, sql: WRITE_SQL, pragmas: WRITER_PRAGMAS },
    });
    this.worker.on('message', (m: { id?: number; error?: string }) => {
      if (m.id === undefined) return;
      this.inFlight.delete(m.id);
      if (m.error) this.error ??= new HzError('HZ_ERR_SEGMENT_CORRUPT', `cannot write to segment ${segment.dir}: ${m.error}`);
      this.wake();
    });
    // An error thrown in the worker arrives as a structured clone: an SQLite error keeps its code, not its message.
    this.worker.on('error', (e: Error & { code?: string }) => {
      this.error ??= new HzError('HZ_ERR_SEGMENT_CORRUPT', `cannot write to segment ${segment.dir}: ${e.message ?? e.code ?? String(e)}`);
      this.inFlight.clear();
      this.wake();
    });
    // A thread that is gone answers nothing more: whatever waits for it stops waiting.
    this.worker.on('exit', () => {
      this.exited = true;
      this.error ??= new HzError('HZ_ERR_SEGMENT_CORRUPT', `cannot write to segment ${segment.dir}: the writer thread ended`);
      this.inFlight.clear();
      this.wake();
    });
  }

  /** Stores a fetch record with its content and inline parse; they are committed together. */
  put(rec: FetchRecord, content?: ContentRecord, parse?: ParseRecord): void {
    this.batch.push({
      fetch: fetchToRow(rec),
      content: content && { params: contentParams(content), bytes: content.bytes },
      parse: parse && { params: parseParams(parse), text: parse.text },
    });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.send());
  }

  /** Resolves when the worker is keeping up; rejects once a write has failed. */
  async ready(): Promise<void> {
    while (this.inFlight.size >= MAX_BATCHES_IN_FLIGHT && !this.error) await new Promise<void>((r) => this.waiting.push(r));
    if (this.error) throw this.error;
  }

  /** Resolves once everything put is committed; rejects if a write failed. */
  async flush(): Promise<void> {
    if (this.scheduled) this.send();
    while (this.inFlight.size > 0 && !this.error) await new Promise<void>((r) => this.waiting.push(r));
    if (this.error) throw this.error;
  }

  /** Flushes, then stops the worker (its connection closes, checkpointing the WAL). */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      if (!this.exited)
        await new Promise<void>((resolve) => {
          this.worker.once('message', () => resolve());
          this.worker.once('exit', () => resolve());
          this.worker.postMessage({ close: true });
        });
      await this.worker.terminate();
    }
  }

  private send(): void {
    this.scheduled = false;
    if (this.batch.length === 0 || this.exited) return;
    const id = this.nextId++;
    this.inFlight.add(id);
    this.worker.postMessage({ id, batch: this.batch });
    this.batch = [];
  }

  private wake(): void {
    for (const r of this.waiting.splice(0)) r();
  }
}
