/**
 * @module crawler/parse/documents/pool
 * The document worker: PDF and office files are parsed in a worker thread,
 * one at a time, so that a file that makes pdf.js spin or allocate without
 * end costs only its own time limit (`parser.timeout`) and memory limit
 * (`parser.document.memory.mb`): the worker is then terminated, the file
 * recorded as failed, and a fresh worker takes the next one. The fetch goes
 * on meanwhile, since the event loop only waits for a message.
 */
import { Worker } from 'node:worker_threads';
import { threadModule } from '../../../shared/thread-module.js';
import type { DocumentExtract, DocumentKind, DocumentLimits } from './extract.js';

export interface DocumentWorkerOptions extends DocumentLimits {
  timeoutMs: number;
  memoryMb: number;
}

interface Job {
  kind: DocumentKind;
  bytes: Uint8Array;
  resolve(r: DocumentExtract): void;
  reject(e: Error): void;
}

export class DocumentWorker {
  private worker: { w: Worker; ready: Promise<void> } | undefined;
  private readonly queue: Job[] = [];
  private busy = false;
  private nextId = 0;

  constructor(private readonly o: DocumentWorkerOptions) {}

  extract(kind: DocumentKind, bytes: Uint8Array): Promise<DocumentExtract> {
    return new Promise((resolve, reject) => {
      this.queue.push({ kind, bytes, resolve, reject });
      this.pump();
    });
  }

  /** Ends the worker; a later extract() starts a new one. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.w.terminate();
  }

  /** A new worker; `ready` settles once its libraries are loaded, which the time limit does not count. */
  private spawn(): { w: Worker; ready: Promise<void> } {
    const w = new Worker(threadModule(new URL('./worker.js', import.meta.url)), {
      resourceLimits: { maxOldGenerationSizeMb: this.o.memoryMb, maxYoungGenerationSizeMb: Math.min(64, this.o.memoryMb / 4) },
    });
    w.unref();
    const ready = new Promise<void>((resolve) => {
      const on = (m: { ready?: boolean }) => {
        if (m.ready) resolve(), w.off('message', on);
      };
      w.on('message', on);
      w.once('exit', () => resolve());
    });
    return { w, ready };
  }

  private pump(): void {
    if (this.busy) return;
    const job = this.queue.shift();
    if (!job) return;
    this.busy = true;
    const current = (this.worker ??= this.spawn());
    const w = current.w;
    const id = this.nextId++;
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const settle = (fail: Error | undefined, result?: DocumentExtract, kill = false) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      w.unref();
      if (kill || fail?.name === 'WorkerDied') {
        if (this.worker === current) this.worker = undefined;
        if (kill) void w.terminate();
      }
      this.busy = false;
      if (fail) job.reject(fail);
      else job.resolve(result!);
      this.pump();
    };
    const onMessage = (m: { id: number; result?: DocumentExtract; error?: string }) => {
      if (m.id === id) settle(m.error === undefined ? undefined : new Error(m.error), m.result);
    };
    const died = (why: string) => Object.assign(new Error(why), { name: 'WorkerDied' });
    const onError = (e: Error) => settle(died(/memory/i.test(e.message) ? `out of memory (parser.document.memory.mb = ${this.o.memoryMb})` : e.message));
    const onExit = () => settle(died('the document worker stopped'));
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    w.ref();
    void current.ready.then(() => {
      if (done) return;
      timer = setTimeout(() => settle(new Error(`took longer than ${this.o.timeoutMs / 1000} s (parser.timeout)`), undefined, true), this.o.timeoutMs);
      w.postMessage({ id, kind: job.kind, bytes: job.bytes, limits: { maxPages: this.o.maxPages, maxUnpackedBytes: this.o.maxUnpackedBytes } });
    });
  }
}
