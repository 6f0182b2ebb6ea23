/**
 * @module segments/writer-threads
 * The worker threads behind the segment write path (segments/segment-writer.ts):
 * each stores batches into a segment file on a connection of its own and,
 * when made with a parser, parses pages given to it. Loading the parser takes
 * a thread about a second, so a crawl keeps its threads for all its rounds
 * and each SegmentWriter talks to them over channels of its own. A thread
 * that fails or ends is reported to every writer watching, so none waits
 * for an answer that will not come.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { youngGeneration } from '../shared/worker-limits.js';
import { WRITE_SQL, WRITER_PRAGMAS } from './schema.js';

export interface WriterThreadOptions {
  /** Threads (default 1): they take batches to store in turn and pages to parse as each has room, so parsing runs on as many cores. */
  threads?: number;
  /**
   * Parse pages in the thread: `module` (shared/thread-module.js loads it) exports
   * `pageParser(data)`, which resolves to a function from a fetch record, its
   * content and whether the body is stored to the parse statement's parameters.
   */
  parse?: { module: string; data: unknown };
  /** Each thread's young generation in MB (worker.young.generation.mb); 0 or unset: V8's default. */
  youngGenerationMb?: number;
}

/** The threads behind one or more SegmentWriters (one at a time or several). */
export class WriterThreads {
  readonly parses: boolean;
  private readonly workers: Worker[];
  /** Which threads have loaded their parser. */
  private readonly parserLoaded: boolean[];
  private readonly exited: boolean[] = [];
  private failure: string | undefined;
  private readonly watchers = new Set<(why: string) => void>();
  private readonly loadWatchers = new Set<() => void>();

  constructor(opts: WriterThreadOptions = {}) {
    this.parses = opts.parse !== undefined;
    this.workers = Array.from({ length: Math.max(1, opts.threads ?? 1) }, (_, i) => {
      const w = new Worker(new URL('./writer-worker.js', import.meta.url), {
        workerData: { sql: WRITE_SQL, pragmas: WRITER_PRAGMAS, parse: opts.parse },
        resourceLimits: youngGeneration(opts.youngGenerationMb),
      });
      // The writers' channels keep the process alive while they wait; an idle thread does not.
      w.unref();
      w.on('message', (m: { parser: 'loaded' | 'failed'; error?: string }) => {
        if (m.parser === 'failed') return this.fail(`the parser could not be loaded: ${m.error}`);
        this.parserLoaded[i] = true;
        for (const f of [...this.loadWatchers]) f();
      });
      // An error thrown in the worker arrives as a structured clone: an SQLite error keeps its code, not its message.
      w.on('error', (e: Error & { code?: string }) => this.fail(e.message ?? e.code ?? String(e)));
      // A thread that is gone answers nothing more: whatever waits for it stops waiting.
      w.on('exit', () => {
        this.exited[i] = true;
        this.fail('the writer thread ended');
      });
      return w;
    });
    this.parserLoaded = this.workers.map(() => false);
  }

  /** One channel to each thread, each storing into `file` on its own connection. */
  open(file: string): MessagePort[] {
    return this.workers.map((w) => {
      const { port1, port2 } = new MessageChannel();
      w.postMessage({ file, port: port2 }, [port2]);
      return port1;
    });
  }

  /** Whether thread `i` (the order of open()'s channels) can take pages to parse. */
  canParse(i: number): boolean {
    return this.parserLoaded[i] === true;
  }

  /** Calls `onLoad` whenever a thread has loaded its parser; returns the call that stops watching. */
  watchLoads(onLoad: () => void): () => void {
    this.loadWatchers.add(onLoad);
    return () => this.loadWatchers.delete(onLoad);
  }

  /** Calls `onFail` once the thread is gone (at once if it is); returns the call that stops watching. */
  watch(onFail: (why: string) => void): () => void {
    if (this.failure !== undefined) onFail(this.failure);
    else this.watchers.add(onFail);
    return () => this.watchers.delete(onFail);
  }

  /** Stops the threads once they are done with the segments whose writers closed (their WALs copied into the files). */
  async close(): Promise<void> {
    await Promise.all(
      this.workers.map((w, i) =>
        this.exited[i]
          ? undefined
          : new Promise<void>((resolve) => {
              w.once('exit', () => resolve());
              // Waited for, the thread keeps the process alive until it is done.
              w.ref();
              w.postMessage({ exit: true });
            }),
      ),
    );
  }

  private fail(why: string): void {
    this.failure ??= why;
    for (const w of [...this.watchers]) w(this.failure);
    this.watchers.clear();
  }
}
