/**
 * @module crawler/index/analysis-pool
 * Page analysis in worker threads, so that the main thread only reads the
 * segment, runs the indexing filters and writes the index while the pages
 * are analyzed beside it. Pages go to the threads in turn, a batch to a
 * message (each message costs CPU of its own on both sides: serializing it
 * and waking the thread it goes to); each thread answers a batch at a time,
 * in the order it was asked, with the page's terms as its
 * analyzer's term numbers (the terms it numbered since its last answer come
 * with the answer), which `docTerms` maps into the writer's dictionary once
 * per term. The index is the same as one analyzed on the main thread
 * (page-terms.ts does the work in both).
 */
import { Worker } from 'node:worker_threads';
import type { AnalyzerOptions } from '../../shared/analysis/analyzer.js';
import type { TextFields } from '../../shared/index/document.js';
import type { TermStreams } from '../../shared/index/entries.js';
import type { IndexWriter } from '../../shared/index/writer.js';
import { threadModule } from '../../shared/thread-module.js';
import { youngGeneration } from '../../shared/worker-limits.js';
import { WriterTerms, type PageTerms } from './page-terms.js';

/** A thread's answer for one page: its terms as the thread's analyzer numbers them. */
export interface AnalyzedPage extends PageTerms {
  from: Thread;
}

/**
 * A thread's answer to a batch (analysis-worker.js): the terms it numbered
 * since its last answer, then its pages' numbers and checkpoints one page after
 * the other in one array each; per page its fields' lengths (which add up
 * to its numbers) and its checkpoints' bytes (-1: none asked for).
 */
interface BatchAnswer {
  words: string[];
  ids: Uint32Array;
  checkpoints: Uint8Array;
  pages: { lengths: PageTerms['lengths']; sections?: number[]; checkpoints: number }[];
}

/** Pages a message to a thread carries, and its answer. */
const BATCH = 8;

/** A page as a thread is sent it (`text` true: the parse text is the content). */
interface PageToAnalyze {
  page: TextFields;
  text: string | true | undefined;
}

interface Thread {
  w: Worker;
  /** Pages asked for and not sent yet. */
  batch: PageToAnalyze[];
  /** The thread's analyzer's terms by number, as far as its answers so far have sent them. */
  words: string[];
  terms: WriterTerms;
  waiting: { resolve(a: AnalyzedPage): void; reject(e: Error): void }[];
  failed?: Error;
}

export class AnalysisPool {
  private readonly threads: Thread[];
  private next = 0;
  /** Whether a flush is to come once the event loop turns. */
  private flushing = false;

  /** `youngGenerationMb`: each thread's young generation (worker.young.generation.mb; 0: V8's default). */
  constructor(n: number, analyzer: Readonly<AnalyzerOptions>, maxTokens: number, youngGenerationMb = 0) {
    this.threads = Array.from({ length: n }, () => this.spawn({ analyzer, maxTokens }, youngGenerationMb));
  }

  get size(): number {
    return this.threads.length;
  }

  private spawn(workerData: unknown, youngGenerationMb: number): Thread {
    const w = new Worker(threadModule(new URL('./analysis-worker.js', import.meta.url)), { workerData, resourceLimits: youngGeneration(youngGenerationMb) });
    const words: string[] = [];
    const t: Thread = { w, batch: [], words, terms: new WriterTerms(words), waiting: [] };
    const fail = (e: Error) => {
      t.failed ??= e;
      for (const q of t.waiting.splice(0)) q.reject(t.failed);
    };
    t.w.on('message', (m: BatchAnswer) => {
      for (const w of m.words) t.words.push(w);
      let i = 0;
      let o = 0;
      for (const p of m.pages) {
        const n = p.lengths.reduce((a, b) => a + b, 0);
        const ids = m.ids.subarray(i, (i += n));
        const checkpoints = p.checkpoints >= 0 ? m.checkpoints.subarray(o, (o += p.checkpoints)) : undefined;
        t.waiting.shift()?.resolve({ from: t, ids, lengths: p.lengths, ...(p.sections ? { sections: p.sections } : {}), ...(checkpoints ? { checkpoints } : {}) });
      }
    });
    t.w.on('error', (e) => fail(new Error(`index analysis thread: ${e.message}`)));
    t.w.on('exit', () => fail(new Error('index analysis thread stopped')));
    return t;
  }

  /**
   * Analyzes a page in the next thread; `text`: the parse text whose checkpoints
   * summaries need. The page goes with the thread's next batch, sent when
   * full or once the caller lets the event loop turn (it waits for an
   * answer), whichever comes first.
   */
  analyze(page: TextFields, text: string | undefined): Promise<AnalyzedPage> {
    const t = this.threads[this.next]!;
    if (t.failed) return Promise.reject(t.failed);
    const { title, content, anchors, url, headings, sections } = page;
    const answer = new Promise<AnalyzedPage>((resolve, reject) => {
      t.waiting.push({ resolve, reject });
      t.batch.push({ page: { title, content, anchors, url, headings, sections }, text: text === content ? true : text });
    });
    if (t.batch.length === BATCH) this.send(t);
    else if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => ((this.flushing = false), this.flush()));
    }
    // When a thread fails, the indexer stops at the first answer it awaits; the others are never awaited.
    answer.catch(() => {});
    return answer;
  }

  /** Sends every page asked for and not sent yet. */
  private flush(): void {
    for (const t of this.threads) if (t.batch.length > 0) this.send(t);
  }

  private send(t: Thread): void {
    t.w.postMessage(t.batch);
    t.batch = [];
    this.next = (this.next + 1) % this.threads.length;
  }

  /** The page's terms as the writer's ids (answers taken in page order keep the writer's dictionary in the order one thread gives). */
  docTerms(a: AnalyzedPage, writer: IndexWriter): TermStreams {
    return a.from.terms.streams(a, writer);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.w.terminate()));
  }
}
